#include "models/run_history_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>

#include "models/item_roles.h"

namespace lb::models {

void sort_newest_first(std::vector<RunFolderInfo>& runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const RunFolderInfo& a, const RunFolderInfo& b) {
    return a.started > b.started;
  });
}

void RunHistoryModel::set_runs(std::vector<RunFolderInfo> runs) {
  sort_newest_first(runs);
  beginResetModel();
  runs_ = std::move(runs);
  endResetModel();
}

const RunFolderInfo* RunHistoryModel::run_at(int row) const {
  return row >= 0 && row < rowCount() ? &runs_[static_cast<size_t>(row)] : nullptr;
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunHistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
  const RunFolderInfo* run = index.isValid() ? run_at(index.row()) : nullptr;
  if (!run) return {};
  // A narrow window elides the run's name and its experiments: their tooltips say them whole.
  if (role == Qt::ToolTipRole && (index.column() == Name || index.column() == Experiments))
    return data(index, Qt::DisplayRole).toString() + "\n" + run->path;
  if (role == Qt::ToolTipRole && !(index.column() == Status && !run->problems.isEmpty()))
    return run->path;
  if (role == SortRole && index.column() == Started) return run->started;
  if (index.column() == Status && !run->problems.isEmpty()) {
    if (role == Qt::ForegroundRole) return QBrush(QColor(0xb0, 0x1c, 0x1c));
    if (role == Qt::ToolTipRole) return tr("Damaged: %1").arg(run->problems.join("; "));
  }
  if (index.column() == Status && (!run->complete || run->partial)) {
    if (role == Qt::ForegroundRole) return QBrush(QColor(0x9a, 0x5b, 0x00));
    if (role == Qt::FontRole) {
      QFont font;
      font.setBold(true);
      return font;
    }
    if (role == Qt::ToolTipRole)
      return run->complete
                 ? tr("Merged from shards with some missing or unfinished: their lanes are absent")
                 : tr("Stopped or killed before it finished: every finished request is kept");
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Started:
      return run->started.isValid() ? run->started.toString("yyyy-MM-dd HH:mm:ss") : QString("–");
    case Name:
      return run->plan_name.isEmpty() ? run->name : run->plan_name + " — " + run->name;
    case Status:
      if (!run->problems.isEmpty()) return tr("damaged: %1").arg(run->problems.first());
      return !run->complete ? tr("incomplete") : run->partial ? tr("partial") : tr("complete");
    case Lanes:
      return run->lanes.join(", ");
    case Experiments:
      return run->experiments.join(", ");
    case Requests:
      return run->requests;
    case Review:
      return run->has_review ? tr("yes") : tr("no");
    case Decision:
      return run->decision.isEmpty() ? QString("–") : run->decision;
    default:
      return {};
  }
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[ColumnCount] = {"Started",     "Run",      "Status", "Lanes",
                                                   "Experiments", "Requests", "Review", "Decision"};
  return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace lb::models
