#include "ui/workspace/run_folder_scanner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

namespace lb::ui {
namespace {

nlohmann::json read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return nullptr;
  return nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
}

qint64 count_lines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return 0;
  qint64 lines = 0;
  while (!file.atEnd()) {
    const QByteArray chunk = file.read(1 << 16);
    lines += chunk.count('\n');
  }
  return lines;
}

}  // namespace

models::RunFolderInfo scan_run_folder(const QString& dir) {
  models::RunFolderInfo info;
  QDir folder(dir);
  info.path = folder.absolutePath();
  info.name = folder.dirName();
  const QFileInfo plan_file(folder.filePath("plan.json"));
  info.started = plan_file.exists() ? plan_file.lastModified() : QFileInfo(dir).lastModified();
  const nlohmann::json plan = read_json(plan_file.filePath());
  if (plan.is_object()) {
    if (plan.contains("name") && plan["name"].is_string())
      info.plan_name = QString::fromStdString(plan["name"].get<std::string>());
    for (const auto& lane : plan.value("lanes", nlohmann::json::array()))
      if (lane.is_object() && lane.contains("id"))
        info.lanes << QString::fromStdString(lane["id"].get<std::string>());
    for (const auto& exp : plan.value("experiments", nlohmann::json::array()))
      if (exp.is_object() && exp.contains("kind"))
        info.experiments << QString::fromStdString(exp["kind"].get<std::string>());
  }
  info.requests = count_lines(folder.filePath("requests.jsonl"));
  info.has_review = QFileInfo::exists(folder.filePath("review.json"));
  // As core/report judges it: finished only when summary.json says so and was not interrupted.
  const nlohmann::json summary = read_json(folder.filePath("summary.json"));
  const bool finished = summary.is_object() && summary.contains("run") &&
                        summary["run"].is_object() && summary["run"].contains("finished_at");
  info.complete = finished && !summary["run"].value("interrupted", false);
  const nlohmann::json decision = read_json(folder.filePath("decision.json"));
  if (decision.is_object() && decision.contains("decision") && decision["decision"].is_string())
    info.decision = QString::fromStdString(decision["decision"].get<std::string>());
  return info;
}

std::vector<models::RunFolderInfo> scan_runs(const QString& runs_dir) {
  std::vector<models::RunFolderInfo> out;
  const QFileInfoList entries =
      QDir(runs_dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
  for (const QFileInfo& entry : entries) {
    if (!QFileInfo::exists(QDir(entry.filePath()).filePath("plan.json")) &&
        !QFileInfo::exists(QDir(entry.filePath()).filePath("requests.jsonl")))
      continue;  // not a run folder
    out.push_back(scan_run_folder(entry.filePath()));
  }
  return out;
}

}  // namespace lb::ui
