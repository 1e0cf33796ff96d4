#pragma once
// A scripted run of the traffic kinds for documentation: a trace replay, multi-turn sessions, an
// SLO capacity search and a throughput sweep (its Pareto chart) on the window's lanes, one after
// another from the Run page's form, saving the window with each one's live charts into a folder
// (17-trace.png .. 19-capacity.png), the capacity run reopened on the Runs page
// (23-capacity-reopened.png), and the sweep's Pareto chart as exported (20-pareto.png).
// Emits done(0) on success, done(1) with a message on stderr otherwise. Driven by signals and
// timers only.
#include <QImage>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTimer>

namespace lb::ui {

class MainWindow;

class TrafficTour : public QObject {
  Q_OBJECT
 public:
  static constexpr int kTimeoutMs = 600'000;
  TrafficTour(MainWindow& window, QString out_dir, QObject* parent = nullptr);
  void start();

 signals:
  void done(int exit_code);

 private:
  void next();  // starts the next step's run, or finishes
  void reopen(const QString& run_dir);
  bool save(const QImage& shot, const char* name);  // false (and failed) when it cannot
  void fail(const QString& why);

  MainWindow& window_;
  QString out_dir_;
  QTemporaryDir scratch_;  // the demo trace
  QTimer timeout_;
  int step_ = -1;
  bool awaiting_reopen_ = false;
  bool finished_ = false;
};

// Writes a bursty Mooncake trace of about SPAN_S seconds whose requests share prompt blocks (a
// few long shared prefixes), for demos; returns false with *error when it cannot be written.
bool write_demo_trace(const QString& path, double span_s, QString* error);

}  // namespace lb::ui
