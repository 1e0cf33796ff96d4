#include "models/lane_table_model.h"

#include "core/plan/api_key_source.h"
#include "models/item_roles.h"
#include "models/lane_swatch.h"

namespace lb::models {

void LaneTableModel::set_lanes(std::vector<plan::Lane> lanes) {
  beginResetModel();
  lanes_ = std::move(lanes);
  endResetModel();
}

const plan::Lane* LaneTableModel::lane_at(int row) const {
  return row >= 0 && row < static_cast<int>(lanes_.size()) ? &lanes_[static_cast<size_t>(row)]
                                                           : nullptr;
}

void LaneTableModel::set_lane_colors(QHash<QString, QColor> colors) {
  swatches_.clear();
  for (auto it = colors.cbegin(); it != colors.cend(); ++it)
    swatches_.insert(it.key(), lane_swatch(it.value()));
  if (!lanes_.empty()) emit dataChanged(index(0, Id), index(rowCount() - 1, Id));
}

int LaneTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(lanes_.size());
}

int LaneTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString LaneTableModel::serving_summary(const plan::LaneNotes& n) {
  QStringList parts;
  if (!n.weights.empty()) parts << "weights " + QString::fromStdString(n.weights);
  if (!n.kv_cache.empty()) parts << "KV " + QString::fromStdString(n.kv_cache);
  if (!n.spec.empty()) parts << "spec " + QString::fromStdString(n.spec);
  if (n.prefix_caching) parts << (*n.prefix_caching ? "prefix cache on" : "prefix cache off");
  if (!n.engine_version.empty()) parts << QString::fromStdString(n.engine_version);
  if (!n.text.empty()) parts << QString::fromStdString(n.text);
  return parts.join(QStringLiteral(" · "));
}

QVariant LaneTableModel::data(const QModelIndex& index, int role) const {
  const plan::Lane* lane = index.isValid() ? lane_at(index.row()) : nullptr;
  if (!lane) return {};
  if (role == LaneIdRole) return QString::fromStdString(lane->id);
  if (role == Qt::DecorationRole && index.column() == Id) {
    auto it = swatches_.find(QString::fromStdString(lane->id));
    return it == swatches_.end() ? QVariant() : QVariant(*it);
  }
  if (role == Qt::ToolTipRole && index.column() == BaseUrl && lane->is_sim())
    return tr("Served by the built-in simulator (profile %1)")
        .arg(QString::fromStdString(lane->sim_profile));
  if (role == Qt::ToolTipRole && index.column() == ApiKeyEnv &&
      plan::keyring_lane_of(lane->api_key_env))
    return tr("Kept in the OS keyring under this lane's id; the workspace holds only the "
              "reference %1")
        .arg(QString::fromStdString(lane->api_key_env));
  if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
  switch (index.column()) {
    case Id:
      return QString::fromStdString(lane->id);
    case BaseUrl:
      return QString::fromStdString(lane->base_url);
    case Model:
      return QString::fromStdString(lane->model);
    case ApiKeyEnv:
      if (lane->api_key_env.empty()) return QString("—");
      if (role == Qt::DisplayRole && plan::keyring_lane_of(lane->api_key_env))
        return tr("OS keyring");
      return QString::fromStdString(lane->api_key_env);
    case Serving:
      return serving_summary(lane->notes);
    default:
      return {};
  }
}

QVariant LaneTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id:
      return tr("Lane");
    case BaseUrl:
      return tr("Endpoint");
    case Model:
      return tr("Model");
    case ApiKeyEnv:
      return tr("API key");
    case Serving:
      return tr("Serving configuration");
    default:
      return {};
  }
}

}  // namespace lb::models
