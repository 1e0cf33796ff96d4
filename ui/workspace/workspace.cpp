#include "ui/workspace/workspace.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include "ui/workspace/demo_plan.h"
#include "ui/workspace/lane_json.h"

namespace lb::ui {
namespace {

const char* const kLanesFile = "lanes.json";
const char* const kIdentityFile = "workspace.json";

// Simulated time runs this many times faster than the seeds' real servers: the built-in
// regression (20 prompts, up to 256 tokens, on three lanes one after another) then takes
// about half a minute.
const char* const kDemoTimeScale = "0.4";

plan::Lane sim_lane(const std::string& id, const std::string& weights, const std::string& spec) {
  plan::Lane lane;
  lane.id = id;
  lane.base_url = "sim:" + id + "?time_scale=" + kDemoTimeScale;
  lane.notes.weights = weights;
  lane.notes.kv_cache = weights;  // the simulator profiles keep their KV cache in this dtype
  lane.notes.spec = spec;
  lane.notes.prefix_caching = true;
  lane.notes.engine_version = "lanebench-sim";
  fill_sim_fields(lane);
  return lane;
}

bool write_lanes(const QString& path, const std::vector<plan::Lane>& lanes, QString* error) {
  nlohmann::json array = nlohmann::json::array();
  for (const plan::Lane& lane : lanes) array.push_back(lane_to_json(lane));
  const std::string text = nlohmann::json{{"lanes", array}}.dump(2) + "\n";
  QSaveFile file(path);  // atomic replace: a crash never leaves half a lanes.json
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit()) {
    *error = QObject::tr("Could not save %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

// The workspace's id from workspace.json, written there on first use. A folder that cannot take
// the file (read-only) gets an id from its path, which still keeps its keys apart.
QString workspace_id(const QDir& root) {
  QFile file(root.filePath(kIdentityFile));
  if (file.open(QIODevice::ReadOnly)) {
    const auto doc = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (doc.is_object() && doc.contains("id") && doc["id"].is_string() &&
        !doc["id"].get<std::string>().empty())
      return QString::fromStdString(doc["id"].get<std::string>());
  }
  const QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
  const std::string text = nlohmann::json{{"id", id.toStdString()}}.dump(2) + "\n";
  QSaveFile out(root.filePath(kIdentityFile));
  if (out.open(QIODevice::WriteOnly) &&
      out.write(text.data(), static_cast<qint64>(text.size())) >= 0 && out.commit())
    return id;
  return QString::fromLatin1(
      QCryptographicHash::hash(root.absolutePath().toUtf8(), QCryptographicHash::Sha256).toHex());
}

}  // namespace

std::vector<plan::Lane> demo_lanes() {
  return {sim_lane("bf16", "bf16", "none"), sim_lane("fp8", "fp8", "none"),
          sim_lane("fp8-mtp3", "fp8", "mtp:3")};
}

QString Workspace::default_dir() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
      .filePath("workspaces/default");
}

bool Workspace::create_demo(const QString& dir, QString* error) {
  if (!QDir().mkpath(dir)) {
    *error = QObject::tr("Could not create the folder %1").arg(dir);
    return false;
  }
  if (!write_demo_plan(QDir(dir).filePath("plans"), error) ||
      !write_demo_sweep_plan(QDir(dir).filePath("plans"), error))
    return false;
  const QString lanes = QDir(dir).filePath(kLanesFile);
  if (QFileInfo::exists(lanes)) return true;
  return write_lanes(lanes, demo_lanes(), error);
}

bool Workspace::open(const QString& dir, QString* error) {
  QDir root(dir);
  if (!root.mkpath(".") || !root.mkpath("runs") || !root.mkpath("plans")) {
    *error = QObject::tr("Could not create the workspace folder %1").arg(dir);
    return false;
  }
  std::vector<plan::Lane> lanes;
  QFile file(root.filePath(kLanesFile));
  if (file.exists()) {
    if (!file.open(QIODevice::ReadOnly)) {
      *error = QObject::tr("Could not read %1: %2").arg(file.fileName(), file.errorString());
      return false;
    }
    const nlohmann::json doc = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (doc.is_discarded() || !doc.contains("lanes") || !doc["lanes"].is_array()) {
      *error =
          QObject::tr("%1 is not a lanes file (expected {\"lanes\": [...]})").arg(file.fileName());
      return false;
    }
    for (const nlohmann::json& item : doc["lanes"]) {
      plan::Lane lane;
      std::string why;
      if (!lane_from_json(item, &lane, &why)) {
        *error = file.fileName() + ": " + QString::fromStdString(why);
        return false;
      }
      lanes.push_back(std::move(lane));
    }
  }
  dir_ = root.absolutePath();
  id_ = workspace_id(root);
  lanes_ = std::move(lanes);
  return true;
}

QString Workspace::name() const { return QFileInfo(dir_).fileName(); }
QString Workspace::runs_dir() const { return QDir(dir_).filePath("runs"); }
QString Workspace::plans_dir() const { return QDir(dir_).filePath("plans"); }

bool Workspace::set_lanes(std::vector<plan::Lane> lanes, QString* error) {
  if (!write_lanes(QDir(dir_).filePath(kLanesFile), lanes, error)) return false;
  lanes_ = std::move(lanes);
  return true;
}

QString Workspace::new_run_dir(const QString& label) const {
  QString stem = QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss");
  QString clean = label.toLower();
  clean.replace(QRegularExpression("[^a-z0-9]+"), "-");
  if (!clean.isEmpty()) stem += "-" + clean;
  QDir runs(runs_dir());
  QString candidate = runs.filePath(stem);
  for (int n = 2; QFileInfo::exists(candidate); ++n)
    candidate = runs.filePath(stem + "-" + QString::number(n));
  return candidate;
}

}  // namespace lb::ui
