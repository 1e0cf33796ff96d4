#include "ui/review/diff_job_runner.h"

#include <QFutureWatcher>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/review/pair_highlighter.h"

namespace lb::ui {
namespace {

using Result = std::pair<widgets::DiffSide, widgets::DiffSide>;

// Highlighting jobs get their own small pool so they never queue behind other global work.
QThreadPool& diff_pool() {
  static QThreadPool pool;
  pool.setMaxThreadCount(1);
  return pool;
}

}  // namespace

DiffJobRunner::~DiffJobRunner() { ++*current_; }

uint64_t DiffJobRunner::request(const std::string& a_utf8, const std::string& b_utf8) {
  const uint64_t job = ++*current_;
  auto* watcher = new QFutureWatcher<Result>(this);  // owned by this runner; deleted when done
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, job] {
    --pending_;
    watcher->deleteLater();
    if (job != *current_) {
      ++dropped_;  // the user has moved on
      return;
    }
    const Result result = watcher->result();
    emit ready(job, result.first, result.second);
  });
  ++pending_;
  // Jobs superseded before they start are skipped on the worker, not computed and thrown away.
  std::shared_ptr<std::atomic<uint64_t>> current = current_;
  watcher->setFuture(QtConcurrent::run(&diff_pool(), [a_utf8, b_utf8, job, current]() -> Result {
    if (job != *current) return {};
    return highlight_pair(a_utf8, b_utf8);
  }));
  return job;
}

}  // namespace lb::ui
