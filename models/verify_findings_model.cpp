#include "models/verify_findings_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

#include "models/item_roles.h"

namespace lb::models {

QString severity_label(FindingSeverity severity) {
  switch (severity) {
    case FindingSeverity::Blocker:
      return QObject::tr("blocker");
    case FindingSeverity::Warning:
      return QObject::tr("warning");
    case FindingSeverity::Ok:
      return QObject::tr("ok");
  }
  return {};
}

void VerifyFindingsModel::set_findings(std::vector<VerifyFinding> findings) {
  beginResetModel();
  findings_ = std::move(findings);
  endResetModel();
}

int VerifyFindingsModel::count(FindingSeverity severity) const {
  return static_cast<int>(
      std::count_if(findings_.begin(), findings_.end(),
                    [&](const VerifyFinding& f) { return f.severity == severity; }));
}

int VerifyFindingsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(findings_.size());
}

int VerifyFindingsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerifyFindingsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const VerifyFinding& f = findings_[static_cast<size_t>(index.row())];
  if (role == SortRole) {
    return index.column() == Severity ? QVariant(static_cast<int>(f.severity))
                                      : data(index, Qt::DisplayRole);
  }
  if (role == Qt::ForegroundRole && index.column() == Severity) {
    static const QColor kColors[] = {QColor(0xb0, 0x1c, 0x1c), QColor(0x9a, 0x5b, 0x00),
                                     QColor(0x1e, 0x7b, 0x34)};
    return QBrush(kColors[static_cast<int>(f.severity)]);
  }
  if (role == Qt::ToolTipRole) return f.detail.isEmpty() ? f.path : f.detail;
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Severity:
      return severity_label(f.severity);
    case Kind:
      return f.kind;
    case Path:
      return f.path;
    case Detail:
      return f.detail;
    default:
      return {};
  }
}

QVariant VerifyFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kTitles[ColumnCount] = {"Severity", "Finding", "File", "Detail"};
  return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
}

}  // namespace lb::models
