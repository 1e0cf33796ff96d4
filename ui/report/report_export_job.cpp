#include "ui/report/report_export_job.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/report/report_model.h"
#include "core/report/report_writer.h"
#include "core/report/run_folder.h"
#include "report_pdf/pdf_report.h"

namespace lb::ui {

namespace {

ReportExportResult export_or_throw(const QString& run_dir, const QString& out_dir,
                                   const std::set<std::string>& formats) {
  ReportExportResult result;
  result.out_dir = out_dir;
  std::string error;
  const auto folder = report::load_run_folder_for_report(run_dir.toStdString(), &error);
  if (!folder) {
    result.errors << QString::fromStdString(error);
    return result;
  }
  const report::PrivacyScrubber scrubber = report::PrivacyScrubber::for_run(*folder);
  report::ReportModel model = report::build_report_model(*folder);
  report::redact_model_secrets(model, scrubber);
  report::ReportWriteResult files =
      report::write_report_files(*folder, model, scrubber, out_dir.toStdString(), formats);
  report_pdf::write_drawn_report_files(model, formats, out_dir.toStdString(), files);
  for (const std::string& name : files.written) result.written << QString::fromStdString(name);
  for (const std::string& why : files.errors) result.errors << QString::fromStdString(why);
  return result;
}

}  // namespace

// Runs on a pool thread, and its result reaches a slot through QFuture::result(), which would
// rethrow there: whatever a damaged run folder makes the writers throw becomes an error line.
ReportExportResult export_report(const QString& run_dir, const QString& out_dir,
                                 const std::set<std::string>& formats) {
  try {
    return export_or_throw(run_dir, out_dir, formats);
  } catch (const std::exception& e) {
    ReportExportResult result;
    result.out_dir = out_dir;
    result.errors << QString("The report of %1 could not be written: %2").arg(run_dir, e.what());
    return result;
  }
}

ReportExportJob::ReportExportJob(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<ReportExportResult>::finished, this,
          [this] { emit finished(watcher_.result()); });
}

ReportExportJob::~ReportExportJob() { watcher_.waitForFinished(); }

bool ReportExportJob::start(const QString& run_dir, const QString& out_dir,
                            std::set<std::string> formats) {
  if (running()) return false;
  watcher_.setFuture(QtConcurrent::run([run_dir, out_dir, formats = std::move(formats)] {
    return export_report(run_dir, out_dir, formats);
  }));
  return true;
}

}  // namespace lb::ui
