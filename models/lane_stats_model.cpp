#include "models/lane_stats_model.h"

#include <cmath>

#include "models/item_roles.h"
#include "models/lane_swatch.h"

namespace lb::models {
namespace {

// The summary's provenance key for each column ("" for plain counts).
const char* provenance_key(int column) {
  switch (column) {
    case LaneStatsModel::TtftP50:
    case LaneStatsModel::TtftP99:
      return "ttft";
    case LaneStatsModel::DecodeP50:
      return "decode_tok_s";
    case LaneStatsModel::ItlP50:
    case LaneStatsModel::ItlP99:
      return "itl";
    case LaneStatsModel::E2elP50:
      return "e2el";
    case LaneStatsModel::OutputTokS:
      return "output_throughput";
    case LaneStatsModel::TokensPerEvent:
      return "tokens_per_event";
    default:
      return "";
  }
}

// `v` in the decimals `figure` would be shown with (an interval's bounds take its figure's).
QString format_value(double v, int column, double figure) {
  if (std::isnan(v)) return QStringLiteral("–");
  if (column == LaneStatsModel::Completed || column == LaneStatsModel::Failed)
    return QString::number(static_cast<qint64>(v));
  if (column == LaneStatsModel::TokensPerEvent) return QString::number(v, 'f', 2);
  if (std::abs(figure) >= 100) return QString::number(v, 'f', 0);
  return QString::number(v, 'f', 1);
}

QString format_value(double v, int column) { return format_value(v, column, v); }

double distribution_value(const metrics::Distribution& d, bool p99) {
  if (d.count == 0) return std::nan("");
  return p99 ? d.p99 : d.median;
}

const FigureInterval* interval_of(const LaneStatsRow& row, int column) {
  const char* key = LaneStatsModel::interval_key(column);
  const FigureInterval* i = *key ? row.intervals.find(key) : nullptr;
  return i && !std::isnan(i->lo) && !std::isnan(i->hi) ? i : nullptr;
}

// "95 % interval [lo, hi]: bootstrap over 40 requests" (or over trials).
QString interval_tooltip(const FigureIntervals& intervals, const QString& lo, const QString& hi) {
  const QString level = QString::number(intervals.level * 100, 'g', 3);
  const bool one = intervals.n == 1;
  const QString basis =
      intervals.basis == FigureIntervals::Basis::Trials
          ? LaneStatsModel::tr("%1 trials (the figure is the mean of the trials' figures)")
                .arg(intervals.n)
          : LaneStatsModel::tr(one ? "%1 request" : "%1 requests").arg(intervals.n);
  return LaneStatsModel::tr("%1 % interval [%2, %3]: bootstrap over %4").arg(level, lo, hi, basis);
}

}  // namespace

const FigureInterval* FigureIntervals::find(const std::string& key) const {
  const auto it = by_key.find(key);
  return it == by_key.end() ? nullptr : &it->second;
}

const char* LaneStatsModel::interval_key(int column) {
  switch (column) {
    case TtftP50:
      return "median_ttft_ms";
    case TtftP99:
      return "p99_ttft_ms";
    case DecodeP50:
      return "median_decode_tok_s";
    case ItlP50:
      return "median_itl_ms";
    case E2elP50:
      return "median_e2el_ms";
    case OutputTokS:
      return "output_throughput";
    default:
      return "";
  }
}

double LaneStatsModel::value(const LaneStatsRow& row, int column) {
  if (const FigureInterval* i = interval_of(row, column); i && !std::isnan(i->estimate))
    return i->estimate;
  const metrics::LaneSummary& s = row.summary;
  switch (column) {
    case Completed:
      return static_cast<double>(s.completed);
    case Failed:
      return static_cast<double>(s.failed);
    case TtftP50:
      return distribution_value(s.ttft_ms, false);
    case TtftP99:
      return distribution_value(s.ttft_ms, true);
    case DecodeP50:
      return distribution_value(s.decode_tok_s, false);
    case ItlP50:
      return distribution_value(s.itl_ms, false);
    case ItlP99:
      return distribution_value(s.itl_ms, true);
    case E2elP50:
      return distribution_value(s.e2el_ms, false);
    case OutputTokS:
      return s.completed > 0 ? s.output_throughput : std::nan("");
    case TokensPerEvent:
      return distribution_value(s.tokens_per_event, false);
    default:
      return std::nan("");
  }
}

void LaneStatsModel::set_rows(std::vector<LaneStatsRow> rows) {
  bool same_lanes = rows.size() == rows_.size();
  for (size_t i = 0; same_lanes && i < rows.size(); ++i)
    same_lanes = rows[i].lane_id == rows_[i].lane_id;
  if (!same_lanes) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
    return;
  }
  rows_ = std::move(rows);
  if (!rows_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void LaneStatsModel::set_lane_colors(QHash<QString, QColor> colors) {
  swatches_.clear();
  for (auto it = colors.cbegin(); it != colors.cend(); ++it)
    swatches_.insert(it.key(), lane_swatch(it.value()));
  if (!rows_.empty()) emit dataChanged(index(0, Lane), index(rowCount() - 1, Lane));
}

int LaneStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LaneStatsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant LaneStatsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const LaneStatsRow& row = rows_[static_cast<size_t>(index.row())];
  const int column = index.column();
  if (role == LaneIdRole) return row.lane_id;
  if (column == Lane) {
    if (role == Qt::DisplayRole) return row.lane_id;
    if (role == Qt::DecorationRole) return swatches_.value(row.lane_id);
    return {};
  }
  const double v = value(row, column);
  const FigureInterval* interval = std::isnan(v) ? nullptr : interval_of(row, column);
  switch (role) {
    case Qt::DisplayRole:
      // The interval under its figure, in the figure's decimals so the three numbers line up.
      if (interval)
        return QString("%1\n[%2, %3]")
            .arg(format_value(v, column), format_value(interval->lo, column, v),
                 format_value(interval->hi, column, v));
      return format_value(v, column);
    case SortRole:
      return v;
    case Qt::TextAlignmentRole:
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case ProvenanceRole: {
      const auto it = row.summary.provenance.find(provenance_key(column));
      if (it == row.summary.provenance.end() || std::isnan(v)) return QString();
      return it->second == metrics::Provenance::None
                 ? QString()
                 : QString::fromLatin1(metrics::to_string(it->second));
    }
    case Qt::ToolTipRole: {
      if (column == Failed && !row.summary.errors_by_kind.empty()) {
        QStringList kinds;
        for (const auto& [kind, n] : row.summary.errors_by_kind)
          kinds << QString("%1 × %2").arg(n).arg(QString::fromStdString(kind));
        return kinds.join('\n');
      }
      QStringList lines;
      if (interval)
        lines << interval_tooltip(row.intervals, format_value(interval->lo, column, v),
                                  format_value(interval->hi, column, v));
      const QString prov = data(index, ProvenanceRole).toString();
      if (!prov.isEmpty()) lines << tr("Source: %1").arg(prov);
      return lines.isEmpty() ? QVariant() : QVariant(lines.join('\n'));
    }
    default:
      return {};
  }
}

QVariant LaneStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section == TokensPerEvent)
    return tr("Median tokens per streamed event: above 1 means speculative decoding (MTP) at work");
  if (role != Qt::DisplayRole) return {};
  static const char* const kTitles[ColumnCount] = {"Lane",           "OK",
                                                   "Errors",         "TTFT p50\n(ms)",
                                                   "TTFT p99\n(ms)", "Decode p50\n(tok/s)",
                                                   "ITL p50\n(ms)",  "ITL p99\n(ms)",
                                                   "E2EL p50\n(ms)", "Output\n(tok/s)",
                                                   "Tokens /\nevent"};
  return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace lb::models
