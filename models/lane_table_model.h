#pragma once
// The workspace's lanes as a table: id, endpoint, model, key variable and serving notes.
// Holds a copy of the lanes (a snapshot); the page edits through set_lanes().
#include <QAbstractTableModel>
#include <QColor>
#include <QHash>
#include <QIcon>
#include <vector>

#include "core/plan/plan.h"

namespace lb::models {

class LaneTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Id, BaseUrl, Model, ApiKeyEnv, Serving, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;

  void set_lanes(std::vector<plan::Lane> lanes);
  const std::vector<plan::Lane>& lanes() const { return lanes_; }
  const plan::Lane* lane_at(int row) const;
  void set_lane_colors(QHash<QString, QColor> colors);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // "weights fp8 · KV fp8 · spec mtp:3 · prefix cache on · vLLM 0.11"
  static QString serving_summary(const plan::LaneNotes& notes);

 private:
  std::vector<plan::Lane> lanes_;
  QHash<QString, QIcon> swatches_;  // each lane's colour, made when the colours are set
};

}  // namespace lb::models
