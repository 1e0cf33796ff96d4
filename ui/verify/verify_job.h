#pragma once
// Runs one checkpoint verification off the GUI thread (QtConcurrent's pool) with progress and a
// cancel flag. The hashing threads only write atomics in a state shared by pointer; a GUI-thread
// timer reads them at 10 Hz and the report comes back through a QFutureWatcher as a value. A job
// outlived by its page keeps its state alive until the worker returns.
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <cstdint>
#include <memory>

#include "core/artifacts/verification.h"

namespace lb::ui {

class VerifyJob : public QObject {
  Q_OBJECT
 public:
  static constexpr int kProgressIntervalMs = 100;

  explicit VerifyJob(QObject* parent = nullptr);
  ~VerifyJob() override;  // cancels a running check and waits for it

  // False (and *error) when a check is running or the folder does not exist.
  bool start(const QString& checkpoint_dir, const QString& inventory_file, QString* error);
  void cancel();
  bool running() const { return watcher_.isRunning(); }
  const artifacts::VerifyReport& report() const { return report_; }

 signals:
  void progress(qint64 bytes_done, qint64 bytes_total, int files_done, int files_total);
  void finished(bool cancelled);

 private:
  struct Shared {
    std::atomic<bool> cancel{false};
    std::atomic<std::uint64_t> bytes_done{0}, bytes_total{0};
    std::atomic<std::size_t> files_done{0}, files_total{0};
  };
  void post_progress();
  void on_done();

  std::shared_ptr<Shared> shared_;
  QFutureWatcher<artifacts::VerifyReport> watcher_;
  QTimer progress_timer_;
  artifacts::VerifyReport report_;
};

}  // namespace lb::ui
