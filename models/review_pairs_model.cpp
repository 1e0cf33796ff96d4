#include "models/review_pairs_model.h"

#include <QBrush>
#include <QColor>
#include <cmath>

#include "models/item_roles.h"

namespace lb::models {

void ReviewPairsModel::set_pairs(std::vector<ReviewPair> pairs) {
  beginResetModel();
  pairs_ = std::move(pairs);
  endResetModel();
}

const ReviewPair* ReviewPairsModel::pair_at(int row) const {
  return row >= 0 && row < rowCount() ? &pairs_[static_cast<size_t>(row)] : nullptr;
}

bool ReviewPairsModel::set_verdict(int row, const QString& verdict, const QString& note) {
  if (!pair_at(row)) return false;
  ReviewPair& pair = pairs_[static_cast<size_t>(row)];
  pair.verdict = verdict;
  pair.note = note;
  emit dataChanged(index(row, Verdict), index(row, Note));
  return true;
}

int ReviewPairsModel::row_of_prompt(int prompt_index) const {
  for (size_t i = 0; i < pairs_.size(); ++i)
    if (pairs_[i].index == prompt_index) return static_cast<int>(i);
  return -1;
}

QStringList ReviewPairsModel::categories() const {
  QStringList out;
  for (const ReviewPair& p : pairs_)
    if (!p.category.isEmpty() && !out.contains(p.category)) out << p.category;
  out.sort();
  return out;
}

QStringList ReviewPairsModel::causes() const {
  QStringList out;
  for (const ReviewPair& p : pairs_)
    if (!p.cause.isEmpty() && !out.contains(p.cause)) out << p.cause;
  out.sort();
  return out;
}

int ReviewPairsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(pairs_.size());
}

int ReviewPairsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReviewPairsModel::display(const ReviewPair& pair, int column) const {
  switch (column) {
    case Index:
      return pair.prompt_id.isEmpty() ? QString::number(pair.index + 1) : pair.prompt_id;
    case Category:
      return pair.category;
    case Triage: {
      QString text = pair.triage;
      text.replace('_', ' ');
      if (pair.flipped_fact) text += tr(" · fact flipped");
      if (!pair.batch_variant.isEmpty()) text += tr(" · ⚖ batch-variant");
      return text;
    }
    case Ratio:
      return QString::number(pair.ratio, 'f', 3);
    case Checks:
      return pair.failed_checks.isEmpty()
                 ? QString("✓")
                 : QString::number(pair.failed_checks.size()) + tr(" failed");
    case Cause: {
      QString text = pair.cause;
      return text.replace('_', ' ');
    }
    case Margin:
      return std::isnan(pair.margin_nats) ? QString() : QString::number(pair.margin_nats, 'f', 3);
    case Verdict:
      return verdict_label(pair.verdict);
    case Note:
      return pair.note;
    default:
      return {};
  }
}

QVariant ReviewPairsModel::data(const QModelIndex& index, int role) const {
  const ReviewPair* pair = index.isValid() ? pair_at(index.row()) : nullptr;
  if (!pair) return {};
  switch (role) {
    case Qt::DisplayRole:
      return display(*pair, index.column());
    case TriageRole:
      return pair->triage;
    case VerdictRole:
      return pair->verdict;
    case CategoryRole:
      return pair->category;
    case PromptIndexRole:
      return pair->index;
    case CauseRole:
      return pair->cause;
    case SortRole:
      if (index.column() == Ratio) return pair->ratio;
      if (index.column() == Index) return pair->index;
      // Pairs without a margin sort after every pair with one.
      if (index.column() == Margin)
        return std::isnan(pair->margin_nats) ? 1e300 : pair->margin_nats;
      return display(*pair, index.column());
    case Qt::ToolTipRole:
      if (index.column() == Checks && !pair->failed_checks.isEmpty())
        return pair->failed_checks.join('\n');
      if (index.column() == Triage && !pair->batch_variant.isEmpty())
        return tr("Batch-variant: the answer of %1 changes under load by itself, so batching "
                  "alone can explain a difference here.")
            .arg(pair->batch_variant.join(", "));
      if (index.column() == Cause && !pair->cause.isEmpty())
        return tr("From the lanes' logprobs at the first divergent token (token %1)")
            .arg(pair->divergence_token);
      if (index.column() == Margin)
        return tr("Baseline's top-1 minus top-2 logprob at the divergence, in nats");
      return {};
    case Qt::ForegroundRole:
      if (index.column() == Triage && (pair->flipped_fact || pair->triage == "divergent"))
        return QBrush(QColor(0xB0, 0x20, 0x20));
      if (index.column() == Cause && pair->cause == "confident_change")
        return QBrush(QColor(0xB0, 0x20, 0x20));
      if (index.column() == Verdict && pair->verdict == "blocker")
        return QBrush(QColor(0xB0, 0x20, 0x20));
      if (index.column() == Verdict && pair->verdict.isEmpty()) return QBrush(QColor(Qt::gray));
      return {};
    default:
      return {};
  }
}

QVariant ReviewPairsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[ColumnCount] = {
      "Prompt", "Ratio", "Verdict", "Triage", "Cause", "Margin", "Checks", "Category", "Note"};
  return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace lb::models
