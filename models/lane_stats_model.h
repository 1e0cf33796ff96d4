#pragma once
// Live per-lane statistics (medians and p99 of TTFT, decode rate, ITL, E2EL; throughput; errors),
// each cell carrying the provenance of its figure. Fed whole snapshots (one per drained batch):
// the same lanes in the same order update in place, anything else resets.
#include <QAbstractTableModel>
#include <QColor>
#include <QHash>
#include <vector>

#include "metrics/summary.h"

namespace lb::models {

struct LaneStatsRow {
  QString lane_id;
  metrics::LaneSummary summary;
  int64_t in_flight = 0;
};

class LaneStatsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    Lane,
    Completed,
    Failed,
    TtftP50,
    TtftP99,
    DecodeP50,
    ItlP50,
    ItlP99,
    E2elP50,
    OutputTokS,
    TokensPerEvent,
    ColumnCount
  };
  using QAbstractTableModel::QAbstractTableModel;

  void set_rows(std::vector<LaneStatsRow> rows);
  const std::vector<LaneStatsRow>& rows() const { return rows_; }
  void set_lane_colors(QHash<QString, QColor> colors);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // The numeric value of a cell (NaN when not available), as displayed before rounding.
  static double value(const LaneStatsRow& row, int column);

 private:
  std::vector<LaneStatsRow> rows_;
  QHash<QString, QColor> colors_;
};

}  // namespace lb::models
