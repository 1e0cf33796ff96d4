#include "ui/verify/verify_job.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

namespace lb::ui {

VerifyJob::VerifyJob(QObject* parent) : QObject(parent) {
  progress_timer_.setInterval(kProgressIntervalMs);
  connect(&progress_timer_, &QTimer::timeout, this, &VerifyJob::post_progress);
  connect(&watcher_, &QFutureWatcher<artifacts::VerifyReport>::finished, this, &VerifyJob::on_done);
}

VerifyJob::~VerifyJob() {
  if (!watcher_.isRunning()) return;
  shared_->cancel = true;
  watcher_.waitForFinished();  // the cancel flag stops the hashing within one chunk
}

bool VerifyJob::start(const QString& checkpoint_dir, const QString& inventory_file,
                      QString* error) {
  if (running()) {
    *error = tr("A verification is already running.");
    return false;
  }
  if (!QFileInfo(checkpoint_dir).isDir()) {
    *error = tr("%1 is not a folder.").arg(checkpoint_dir);
    return false;
  }
  if (!inventory_file.isEmpty() && !QFileInfo(inventory_file).isFile()) {
    *error = tr("The inventory %1 is not a readable file.").arg(inventory_file);
    return false;
  }
  shared_ = std::make_shared<Shared>();
  artifacts::VerifyOptions options;
  options.inventory = inventory_file.toStdString();
  options.hashing.cancel = &shared_->cancel;
  options.hashing.on_progress = [state = shared_](const artifacts::HashProgress& p) {
    state->bytes_done = p.bytes_done;
    state->bytes_total = p.bytes_total;
    state->files_done = p.files_done;
    state->files_total = p.files_total;
  };
  const std::filesystem::path dir = checkpoint_dir.toStdString();
  // The lambda owns a reference to the shared state, so the cancel flag outlives this object.
  watcher_.setFuture(QtConcurrent::run(
      [dir, options, keep = shared_] { return artifacts::verify_checkpoint(dir, options); }));
  progress_timer_.start();
  return true;
}

void VerifyJob::cancel() {
  if (running()) shared_->cancel = true;
}

void VerifyJob::post_progress() {
  if (!shared_) return;
  emit progress(static_cast<qint64>(shared_->bytes_done.load()),
                static_cast<qint64>(shared_->bytes_total.load()),
                static_cast<int>(shared_->files_done.load()),
                static_cast<int>(shared_->files_total.load()));
}

void VerifyJob::on_done() {
  progress_timer_.stop();
  post_progress();
  report_ = watcher_.result();
  emit finished(shared_->cancel.load());
}

}  // namespace lb::ui
