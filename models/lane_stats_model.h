#pragma once
// Live per-lane statistics (medians and p99 of TTFT, decode rate, ITL, E2EL; throughput; errors),
// each cell carrying the provenance of its figure and, for a headline figure that has one, its
// 95 % bootstrap interval ("x [lo, hi]", the interval on a second line). Fed whole snapshots (one
// per drained batch): the same lanes in the same order update in place, anything else resets.
#include <QAbstractTableModel>
#include <QColor>
#include <QHash>
#include <QIcon>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/metrics/summary.h"

namespace lb::models {

// A headline figure's interval as summary.json gives it. Over trials, the figure shown is the
// mean of the per-trial figures (`estimate`), the figure the interval is about; over requests it
// is the summary's own figure and `estimate` is NaN.
struct FigureInterval {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double estimate = kNaN;
  double lo = kNaN, hi = kNaN;
};

// The intervals of one row's headline figures, keyed by their summary.json names
// ("median_ttft_ms", "p99_ttft_ms", "median_decode_tok_s", "median_itl_ms", "median_e2el_ms",
// "output_throughput"). Empty while there is one trial with too few requests for an interval.
struct FigureIntervals {
  enum class Basis { None, Requests, Trials };
  std::map<std::string, FigureInterval> by_key;
  Basis basis = Basis::None;
  int64_t n = 0;        // trials or requests resampled
  double level = 0.95;  // two-sided confidence level
  const FigureInterval* find(const std::string& key) const;
};

struct LaneStatsRow {
  QString lane_id;
  metrics::LaneSummary summary;
  int64_t in_flight = 0;
  FigureIntervals intervals;
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

  // The numeric value of a cell (NaN when not available), as displayed before rounding: over
  // trials, the mean of the per-trial figures that its interval is about.
  static double value(const LaneStatsRow& row, int column);
  // The summary.json key of a column's figure when the column can carry an interval, else "".
  static const char* interval_key(int column);

 private:
  std::vector<LaneStatsRow> rows_;
  QHash<QString, QIcon> swatches_;  // each lane's colour, made when the colours are set
};

}  // namespace lb::models
