#pragma once
// Live statistics per lane and phase (a context size, a prefix-cache pass, a concurrency level):
// the lane table's columns with a Phase column after the lane. Each row summarises the phase's
// requests as summary.json's experiments[].lanes[LANE].phases[PHASE] does. Cells are formatted by
// an inner LaneStatsModel, so both tables show a figure the same way.
#include <QAbstractTableModel>
#include <QStringList>

#include "models/lane_stats_model.h"

namespace lb::models {

struct PhaseStatsRow {
  QString phase;
  LaneStatsRow lane;
};

class PhaseStatsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  static constexpr int kPhaseColumn = 1;
  static constexpr int kColumnCount = LaneStatsModel::ColumnCount + 1;
  using QAbstractTableModel::QAbstractTableModel;

  void set_phase_rows(std::vector<PhaseStatsRow> rows);
  QString phase_at(int row) const { return phases_.value(row); }
  const std::vector<LaneStatsRow>& lane_rows() const { return inner_.rows(); }
  void set_lane_colors(QHash<QString, QColor> colors);
  // What the phase column means for this experiment kind ("Prompt tokens", "Pass", ...).
  void set_phase_title(const QString& title);
  // The LaneStatsModel column shown at this column of the phase table (-1 for Phase).
  static int lane_column(int column);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  LaneStatsModel inner_;
  QStringList phases_;
  QStringList keys_;  // lane + phase per row: same keys update in place, others reset
  QString phase_title_ = tr("Phase");
};

}  // namespace lb::models
