#include "ui/workspace/run_folder_scanner.h"

#include <QDir>
#include <QFileInfo>

#include "core/record/run_folder_headline.h"

namespace lb::ui {
namespace {

QStringList to_qt(const std::vector<std::string>& strings) {
  QStringList out;
  out.reserve(static_cast<qsizetype>(strings.size()));
  for (const std::string& s : strings) out << QString::fromStdString(s);
  return out;
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
  const record::RunFolderHeadline headline =
      record::read_run_folder_headline(QFile::encodeName(info.path).toStdString());
  info.plan_name = QString::fromStdString(headline.plan_name);
  info.lanes = to_qt(headline.lanes);
  info.experiments = to_qt(headline.experiments);
  info.requests = headline.request_lines;
  info.has_review = headline.has_review;
  info.complete = headline.complete;
  info.partial = headline.partial;
  info.decision = QString::fromStdString(headline.decision);
  info.problems = to_qt(headline.problems);
  return info;
}

std::vector<models::RunFolderInfo> scan_runs(const QString& runs_dir) {
  std::vector<models::RunFolderInfo> out;
  const QFileInfoList entries =
      QDir(runs_dir).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
  for (const QFileInfo& entry : entries) {
    if (!record::looks_like_run_folder(QFile::encodeName(entry.filePath()).toStdString()))
      continue;  // not a run folder
    out.push_back(scan_run_folder(entry.filePath()));
  }
  return out;
}

}  // namespace lb::ui
