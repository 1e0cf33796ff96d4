#include "ui/run/staging_sink.h"

namespace lb::ui {

void StagingSink::on_request_done(const metrics::RequestRecord& record) {
  metrics::RequestRecord copy = record;  // copied outside the lock: only the push is guarded
  copy.result.content.clear();  // texts reach the GUI through the run folder, not the live feed
  copy.result.reasoning.clear();
  copy.result.body.clear();
  std::lock_guard lock(mutex_);
  batch_.records.push_back(std::move(copy));
  pending_.store(true, std::memory_order_release);
}

void StagingSink::on_progress(const run::RunProgress& progress) {
  std::lock_guard lock(mutex_);
  batch_.progress[progress.lane_id] = progress;
  pending_.store(true, std::memory_order_release);
}

void StagingSink::on_message(run::MessageLevel level, const std::string& text) {
  std::lock_guard lock(mutex_);
  batch_.messages.emplace_back(level, text);
  pending_.store(true, std::memory_order_release);
}

void StagingSink::on_server_state(const run::ServerState& state) {
  std::lock_guard lock(mutex_);
  batch_.servers[state.lane_id] = state;
  pending_.store(true, std::memory_order_release);
}

void StagingSink::on_gate_result(const record::GateResult& result) {
  std::lock_guard lock(mutex_);
  batch_.gates.push_back(result);
  pending_.store(true, std::memory_order_release);
}

void StagingSink::on_section_done(size_t experiment, const record::ExperimentSection& section) {
  std::lock_guard lock(mutex_);
  batch_.sections_done.emplace_back(experiment, section);
  pending_.store(true, std::memory_order_release);
}

void StagingSink::on_experiments_named(const std::vector<std::string>& names) {
  std::lock_guard lock(mutex_);
  batch_.experiment_names = names;
  pending_.store(true, std::memory_order_release);
}

void StagingSink::finish(RunOutcome outcome) {
  std::lock_guard lock(mutex_);
  batch_.outcome = std::move(outcome);
  pending_.store(true, std::memory_order_release);
}

StagedBatch StagingSink::take() {
  StagedBatch out;
  std::lock_guard lock(mutex_);
  std::swap(out, batch_);
  pending_.store(false, std::memory_order_release);
  return out;
}

}  // namespace lb::ui
