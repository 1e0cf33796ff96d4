#include "ui/workspace/run_folder_scanner.h"

#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/files/regular_file.h"

namespace lb::ui {
namespace {

using nlohmann::json;

// One JSON object file of the run folder. An absent file is null with no problem (a run that was
// killed early has no summary yet); an unreadable, malformed or non-object file is null and a
// problem that names the file.
// The scan runs before the window shows: a FIFO or device planted as a run's file is refused
// (never waited on), and a file larger than any run writes is not read.
json read_object(const QDir& folder, const char* name, QStringList& problems) {
  constexpr size_t kMaxRunJsonBytes = 256 * files::kMiB;
  const QString path = folder.filePath(name);
  if (!QFileInfo::exists(path)) return nullptr;
  std::string error;
  const auto text = files::read_regular_file(path.toStdString(), kMaxRunJsonBytes, &error);
  if (!text) {
    problems << QString("%1: cannot be read (%2)").arg(name, QString::fromStdString(error));
    return nullptr;
  }
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) {
    problems << QString("%1: not valid JSON").arg(name);
    return nullptr;
  }
  if (!doc.is_object()) {
    problems << QString("%1: not a JSON object").arg(name);
    return nullptr;
  }
  return doc;
}

// The strings at list[i].key (lanes[].id, experiments[].kind); each entry of another shape is a
// problem naming the file and the field, and is left out.
QStringList strings_of(const json& plan, const char* list, const char* key, QStringList& problems) {
  QStringList out;
  if (!plan.contains(list)) return out;
  const json& items = plan[list];
  if (!items.is_array()) {
    problems << QString("plan.json: %1 is not a list").arg(list);
    return out;
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const json& item = items[i];
    if (item.is_object() && item.contains(key) && item[key].is_string()) {
      out << QString::fromStdString(item[key].get<std::string>());
    } else {
      problems << QString("plan.json: %1[%2].%3 is not a string").arg(list).arg(i).arg(key);
    }
  }
  return out;
}

qint64 count_lines(const QString& path) {
  const int fd = files::open_regular_file(path.toStdString(), nullptr);
  if (fd < 0) return 0;
  qint64 lines = 0;
  std::vector<char> chunk(1 << 16);
  long n = 0;
  while ((n = files::read_up_to(fd, chunk.data(), chunk.size())) > 0)
    lines += std::count(chunk.data(), chunk.data() + n, '\n');
  ::close(fd);
  return lines;
}

void read_plan(const QDir& folder, models::RunFolderInfo& info) {
  const json plan = read_object(folder, "plan.json", info.problems);
  if (plan.is_null()) return;
  if (plan.contains("name")) {
    if (plan["name"].is_string()) {
      info.plan_name = QString::fromStdString(plan["name"].get<std::string>());
    } else {
      info.problems << "plan.json: name is not a string";
    }
  }
  info.lanes = strings_of(plan, "lanes", "id", info.problems);
  info.experiments = strings_of(plan, "experiments", "kind", info.problems);
}

// As core/report judges it: finished only when summary.json says so and was not interrupted.
void read_summary(const QDir& folder, models::RunFolderInfo& info) {
  const json summary = read_object(folder, "summary.json", info.problems);
  info.complete = false;
  if (summary.is_null() || !summary.contains("run")) return;
  const json& run = summary["run"];
  if (!run.is_object()) {
    info.problems << "summary.json: run is not an object";
    return;
  }
  if (run.contains("interrupted") && !run["interrupted"].is_boolean()) {
    info.problems << "summary.json: run.interrupted is not true or false";
    return;
  }
  info.complete = run.contains("finished_at") && !run.value("interrupted", false);
}

void read_decision(const QDir& folder, models::RunFolderInfo& info) {
  const json decision = read_object(folder, "decision.json", info.problems);
  if (decision.is_null() || !decision.contains("decision")) return;
  if (decision["decision"].is_string()) {
    info.decision = QString::fromStdString(decision["decision"].get<std::string>());
  } else {
    info.problems << "decision.json: decision is not a string";
  }
}

}  // namespace

// Never throws: a run folder written by another tool, an older version or a colleague is listed
// with what could be read, and each thing that could not is a problem (shown as "damaged").
models::RunFolderInfo scan_run_folder(const QString& dir) {
  models::RunFolderInfo info;
  QDir folder(dir);
  info.path = folder.absolutePath();
  info.name = folder.dirName();
  const QFileInfo plan_file(folder.filePath("plan.json"));
  info.started = plan_file.exists() ? plan_file.lastModified() : QFileInfo(dir).lastModified();
  read_plan(folder, info);
  info.requests = count_lines(folder.filePath("requests.jsonl"));
  // review.json for two lanes, review.<candidate>.json for more (compare/run_reviews.h).
  info.has_review = !folder.entryList({"review.json", "review.*.json"}, QDir::Files).isEmpty();
  read_summary(folder, info);
  read_decision(folder, info);
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
