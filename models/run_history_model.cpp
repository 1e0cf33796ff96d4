#include "models/run_history_model.h"

#include <algorithm>

#include "models/item_roles.h"

namespace lb::models {

void RunHistoryModel::set_runs(std::vector<RunFolderInfo> runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const RunFolderInfo& a, const RunFolderInfo& b) {
    return a.started > b.started;
  });
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
  if (role == Qt::ToolTipRole) return run->path;
  if (role == SortRole && index.column() == Started) return run->started;
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Started:
      return run->started.isValid() ? run->started.toString("yyyy-MM-dd HH:mm:ss") : QString("–");
    case Name:
      return run->plan_name.isEmpty() ? run->name : run->plan_name + " — " + run->name;
    case Lanes:
      return run->lanes.join(", ");
    case Experiments:
      return run->experiments.join(", ");
    case Requests:
      return run->requests;
    case Review:
      return run->has_review ? tr("yes") : tr("no");
    default:
      return {};
  }
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[ColumnCount] = {"Started",     "Run",      "Lanes",
                                                   "Experiments", "Requests", "Review"};
  return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace lb::models
