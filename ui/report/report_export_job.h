#pragma once
// File > Export Report: a run folder's qualification report (HTML, Markdown, PDF, requests CSV,
// qualification-summary.json) written off the GUI thread by core/report and report_pdf, the
// result posted back as a value naming the files written.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <set>
#include <string>

namespace lb::ui {

struct ReportExportResult {
  QString out_dir;
  QStringList written;  // file names relative to out_dir
  QStringList errors;   // one sentence each; the other files are still written
};

// Builds and writes the report on the calling thread (any thread; the PDF needs a
// QGuiApplication to exist somewhere in the process).
ReportExportResult export_report(const QString& run_dir, const QString& out_dir,
                                 const std::set<std::string>& formats);

class ReportExportJob : public QObject {
  Q_OBJECT
 public:
  explicit ReportExportJob(QObject* parent = nullptr);
  ~ReportExportJob() override;  // waits for an export in flight

  // False when an export is already running.
  bool start(const QString& run_dir, const QString& out_dir, std::set<std::string> formats);
  bool running() const { return watcher_.isRunning(); }

 signals:
  void finished(const lb::ui::ReportExportResult& result);

 private:
  QFutureWatcher<ReportExportResult> watcher_;
};

}  // namespace lb::ui

Q_DECLARE_METATYPE(lb::ui::ReportExportResult)
