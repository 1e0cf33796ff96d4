#pragma once
// What a checkpoint verification found, one row per file problem, refuse-list finding or invalid
// safetensors header (and, when asked, per verified file), with a severity that says whether it
// fails the verification. Filled from a value snapshot made on the GUI thread after the check.
#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace lb::models {

enum class FindingSeverity { Blocker, Warning, Ok };

struct VerifyFinding {
  FindingSeverity severity = FindingSeverity::Blocker;
  QString kind;    // "mismatch", "missing", "extra", "refuse-list", "safetensors header", ...
  QString path;    // relative to the verified folder
  QString detail;  // expected vs actual digest, the scan's reason, the header issues
};

QString severity_label(FindingSeverity severity);

class VerifyFindingsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Severity, Kind, Path, Detail, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;

  // Rows are kept in the order given (the caller sorts blockers first).
  void set_findings(std::vector<VerifyFinding> findings);
  const std::vector<VerifyFinding>& findings() const { return findings_; }
  int count(FindingSeverity severity) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<VerifyFinding> findings_;
};

}  // namespace lb::models
