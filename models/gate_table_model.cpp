#include "models/gate_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include "models/item_roles.h"

namespace lb::models {
namespace {

// Soft backgrounds that keep black text readable; the status word is in the cell too, so colour
// is never the only signal.
QColor status_background(const QString& status) {
  if (status == "pass") return QColor(0xd8, 0xf0, 0xdc);
  if (status == "fail") return QColor(0xf8, 0xd4, 0xd4);
  if (status == "unsupported") return QColor(0xfb, 0xeb, 0xc8);
  if (status == "not run" || status == "baseline") return QColor(0xec, 0xec, 0xec);
  return {};
}

QColor verdict_background(const QString& verdict) {
  if (verdict == "faster") return QColor(0xd8, 0xf0, 0xdc);
  if (verdict == "slower") return QColor(0xf8, 0xd4, 0xd4);
  return {};
}

}  // namespace

void GateTableModel::set_table(QStringList lanes, std::vector<GateRowView> rows) {
  beginResetModel();
  lanes_ = std::move(lanes);
  rows_ = std::move(rows);
  for (GateRowView& row : rows_) row.cells.resize(static_cast<size_t>(lanes_.size()));
  endResetModel();
}

void GateTableModel::clear() { set_table({}, {}); }

int GateTableModel::count(const QString& status) const {
  int n = 0;
  for (const GateRowView& row : rows_)
    for (const GateCellView& cell : row.cells) n += !row.performance && cell.status == status;
  return n;
}

int GateTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int GateTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() || rows_.empty() ? 0 : static_cast<int>(lanes_.size()) + kFirstLaneColumn;
}

QVariant GateTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const GateRowView& row = rows_[static_cast<size_t>(index.row())];
  if (index.column() == 0) {
    if (role == Qt::DisplayRole) return row.label;
    if (role == Qt::FontRole && !row.performance) {
      QFont font;
      font.setBold(true);
      return font;
    }
    return {};
  }
  if (index.column() == kExperimentColumn) {
    if (role == Qt::DisplayRole) return row.experiment;
    if (role == Qt::ForegroundRole) return QBrush(QColor(0x55, 0x55, 0x55));
    return {};
  }
  const GateCellView& cell = row.cells[static_cast<size_t>(index.column() - kFirstLaneColumn)];
  switch (role) {
    case Qt::DisplayRole:
      return cell.text;
    case Qt::ToolTipRole:
      return cell.detail.isEmpty() ? QVariant() : QVariant(cell.detail);
    case Qt::BackgroundRole: {
      const QColor color =
          row.performance ? verdict_background(cell.verdict) : status_background(cell.status);
      return color.isValid() ? QVariant(QBrush(color)) : QVariant();
    }
    case Qt::ForegroundRole:
      return cell.status.isEmpty() && !verdict_background(cell.verdict).isValid()
                 ? QVariant()
                 : QVariant(QBrush(Qt::black));
    case Qt::TextAlignmentRole:
      return row.performance ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                             : QVariant(Qt::AlignCenter);
    case GateStatusRole:
      return cell.status;
    case LaneIdRole:
      return lanes_[index.column() - kFirstLaneColumn];
    default:
      return {};
  }
}

QVariant GateTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return tr("Gate");
  if (section == kExperimentColumn) return tr("Experiment");
  const int lane = section - kFirstLaneColumn;
  return lane >= 0 && lane < lanes_.size() ? QVariant(lanes_[lane]) : QVariant();
}

}  // namespace lb::models
