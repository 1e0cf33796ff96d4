#pragma once
// Computes highlights for a pair on a worker thread. Each request gets a job id; asking for a new
// pair cancels interest in the previous one, and a result whose id is no longer current is
// dropped, so fast j/k navigation never paints a stale pair.
#include <QObject>
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "widgets/diff/diff_types.h"

namespace lb::ui {

class DiffJobRunner : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  ~DiffJobRunner() override;

  // Returns the job id. `ready` is emitted on the GUI thread if it is still the current job.
  uint64_t request(const std::string& a_utf8, const std::string& b_utf8);
  void cancel() { ++*current_; }
  uint64_t current_job() const { return *current_; }
  int dropped_results() const { return dropped_; }
  int pending_jobs() const { return pending_; }

 signals:
  void ready(uint64_t job, const lb::widgets::DiffSide& a, const lb::widgets::DiffSide& b);

 private:
  // Shared with the workers, which skip jobs that are no longer current.
  std::shared_ptr<std::atomic<uint64_t>> current_ = std::make_shared<std::atomic<uint64_t>>(0);
  int dropped_ = 0;
  int pending_ = 0;
};

}  // namespace lb::ui

Q_DECLARE_METATYPE(lb::widgets::DiffSide)
