#include "core/run/experiments/trial_runner.h"

#include <memory>
#include <mutex>
#include <thread>

namespace lb::run {
namespace {

// Lanes run in parallel report from several scheduler threads: one at a time reaches the sink.
class SerializedSink : public RunSink {
 public:
  explicit SerializedSink(RunSink& inner) : inner_(inner) {}
  void on_request_done(const metrics::RequestRecord& record) override {
    std::lock_guard lock(mutex_);
    inner_.on_request_done(record);
  }
  void on_progress(const RunProgress& progress) override {
    std::lock_guard lock(mutex_);
    inner_.on_progress(progress);
  }
  void on_message(MessageLevel level, const std::string& text) override {
    std::lock_guard lock(mutex_);
    inner_.on_message(level, text);
  }
  void on_server_state(const ServerState& state) override {
    std::lock_guard lock(mutex_);
    inner_.on_server_state(state);
  }
  void on_gate_result(const record::GateResult& result) override {
    std::lock_guard lock(mutex_);
    inner_.on_gate_result(result);
  }
  void on_section_done(size_t experiment, const record::ExperimentSection& section) override {
    std::lock_guard lock(mutex_);
    inner_.on_section_done(experiment, section);
  }

 private:
  RunSink& inner_;
  std::mutex mutex_;
};

void note_turn(nlohmann::json& section, int64_t trial, const std::string& lane) {
  section["trials"]["turns"].push_back({{"trial", trial}, {"lane", lane}});
}

// Each lane gets its own context (and experiment object) on its own thread, trial by trial; the
// main context takes in what they measured at the end.
void run_parallel(ExperimentContext& ctx, const std::vector<LaneRuntime*>& lanes, int64_t n,
                  nlohmann::json& turns) {
  SerializedSink sink(ctx.sink());
  struct LaneRun {
    nlohmann::json section = nlohmann::json::object();
    std::unique_ptr<ExperimentContext> ctx;
    std::unique_ptr<Experiment> experiment;
  };
  std::vector<LaneRun> runs(lanes.size());
  for (size_t i = 0; i < lanes.size(); ++i) {
    runs[i].ctx = std::make_unique<ExperimentContext>(
        ctx.client(), sink, ctx.writer(), ctx.stop_flag(), ctx.spec(),
        std::vector<LaneRuntime*>{lanes[i]}, runs[i].section);
    runs[i].experiment = make_experiment(ctx.spec());
  }
  for (int64_t t = 0; t < n && !ctx.stopped(); ++t) {
    std::vector<std::thread> threads;
    for (size_t i = 0; i < lanes.size(); ++i) {
      note_turn(turns, t, lanes[i]->plan.id);
      threads.emplace_back([&, i, t] {
        runs[i].ctx->begin_trial(t, n, {lanes[i]});
        runs[i].experiment->run(*runs[i].ctx);
      });
    }
    for (auto& th : threads) th.join();
  }
  for (auto& r : runs) ctx.absorb(*r.ctx);
}

}  // namespace

void run_trials(Experiment& experiment, ExperimentContext& ctx) {
  const plan::Experiment& spec = ctx.spec();
  const std::vector<LaneRuntime*> lanes = ctx.lanes();
  const int64_t n = std::max<int64_t>(spec.trials, 1);
  nlohmann::json& section = ctx.section();
  section["trials"] = {{"count", n},
                       {"lane_order", plan::to_string(spec.lane_order)},
                       {"turns", nlohmann::json::array()}};
  switch (spec.lane_order) {
    case plan::LaneOrder::Sequential:
      if (n == 1) {  // the experiment's own loop over its lanes
        for (const LaneRuntime* lane : lanes) note_turn(section, 0, lane->plan.id);
        experiment.run(ctx);
        break;
      }
      for (LaneRuntime* lane : lanes)
        for (int64_t t = 0; t < n && !ctx.stopped(); ++t) {
          note_turn(section, t, lane->plan.id);
          ctx.begin_trial(t, n, {lane});
          experiment.run(ctx);
        }
      break;
    case plan::LaneOrder::Interleaved:
      for (int64_t t = 0; t < n && !ctx.stopped(); ++t)
        for (LaneRuntime* lane : lanes) {
          if (ctx.stopped()) break;
          note_turn(section, t, lane->plan.id);
          ctx.begin_trial(t, n, {lane});
          experiment.run(ctx);
        }
      break;
    case plan::LaneOrder::Parallel:
      run_parallel(ctx, lanes, n, section);
      break;
  }
  ctx.begin_trial(0, n, lanes);
}

}  // namespace lb::run
