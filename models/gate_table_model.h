#pragma once
// The Decision page's table: rows are gates (functional gates, retrieval, the regression review)
// and a few performance figures, each with the experiment it comes from; columns are lanes. A gate
// cell is pass / fail / unsupported / not run with its n/N score and coloured by status; a
// performance cell is a number with its unit in the row label. Filled from a value snapshot built
// off the model.
#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

namespace lb::models {

struct GateCellView {
  QString status;  // "pass", "fail", "unsupported", "not run", "baseline"; "" for a figure
  QString text;    // "pass 3/3", "unsupported", "412.7"
  QString detail;  // why it failed or is unsupported; shown as a tooltip
  // A figure compared with the baseline lane: "faster", "slower" or "within noise"; "" when the
  // cell holds no comparison. Tints the cell (the word is in its text too).
  QString verdict;
};

struct GateRowView {
  QString label;  // "JSON schema output", "Decode median (tok/s) at c1"
  bool performance = false;
  std::vector<GateCellView> cells;  // one per lane
  QString experiment;  // the run's experiment the row comes from ("gates", "throughput-2", ...)
};

class GateTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  using QAbstractTableModel::QAbstractTableModel;
  // Columns: the gate, its experiment, then one per lane.
  static constexpr int kExperimentColumn = 1;
  static constexpr int kFirstLaneColumn = 2;

  void set_table(QStringList lanes, std::vector<GateRowView> rows);
  void clear();
  const QStringList& lanes() const { return lanes_; }
  const std::vector<GateRowView>& rows() const { return rows_; }
  // Cells of gate rows with this status (performance rows never count).
  int count(const QString& status) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QStringList lanes_;
  std::vector<GateRowView> rows_;
};

}  // namespace lb::models
