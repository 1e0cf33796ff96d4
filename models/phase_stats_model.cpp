#include "models/phase_stats_model.h"

#include "models/item_roles.h"

namespace lb::models {

int PhaseStatsModel::lane_column(int column) {
  if (column == kPhaseColumn) return -1;
  return column < kPhaseColumn ? column : column - 1;
}

void PhaseStatsModel::set_phase_rows(std::vector<PhaseStatsRow> rows) {
  QStringList phases, keys;
  std::vector<LaneStatsRow> lane_rows;
  lane_rows.reserve(rows.size());
  for (PhaseStatsRow& row : rows) {
    phases << row.phase;
    keys << row.lane.lane_id + QChar(0x1f) + row.phase;
    lane_rows.push_back(std::move(row.lane));
  }
  if (keys != keys_) {
    beginResetModel();
    phases_ = std::move(phases);
    keys_ = std::move(keys);
    inner_.set_rows(std::move(lane_rows));
    endResetModel();
    return;
  }
  inner_.set_rows(std::move(lane_rows));
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1));
}

void PhaseStatsModel::set_lane_colors(QHash<QString, QColor> colors) {
  inner_.set_lane_colors(std::move(colors));
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, 0));
}

void PhaseStatsModel::set_phase_title(const QString& title) {
  phase_title_ = title;
  emit headerDataChanged(Qt::Horizontal, kPhaseColumn, kPhaseColumn);
}

int PhaseStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(phases_.size());
}

int PhaseStatsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant PhaseStatsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= kColumnCount) return {};
  if (index.column() == kPhaseColumn) {
    if (role == Qt::DisplayRole || role == SortRole) return phases_.value(index.row());
    return {};
  }
  return inner_.data(inner_.index(index.row(), lane_column(index.column())), role);
}

QVariant PhaseStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= kColumnCount) return {};
  if (section == kPhaseColumn) return role == Qt::DisplayRole ? QVariant(phase_title_) : QVariant();
  return inner_.headerData(lane_column(section), orientation, role);
}

}  // namespace lb::models
