#include "core/run/experiments/gates_experiment.h"

#include <algorithm>
#include <optional>
#include <variant>

#include "core/run/experiments/gate_checks.h"
#include "core/run/experiments/multimodal_gate.h"

namespace lb::run {
namespace {

record::GateResult score_check(ExperimentContext& ctx, GateIo& io, const std::string& lane_id,
                               const std::string& check, int64_t repeat) {
  record::GateResult g;
  g.lane_id = lane_id;
  g.check = check;
  g.repeat = repeat;
  int64_t unsupported = 0;
  std::string unsupported_why;
  io.set_check(check);
  for (int64_t i = 0; i < repeat && !ctx.stopped(); ++i) {
    const GateAttempt a = run_gate_check(check, io, static_cast<int>(i));
    // Stop cuts the attempt's requests short ("HTTP 0: stopped"): that says nothing of the lane.
    if (ctx.stopped() && a.outcome != GateOutcome::Pass) break;
    ++g.attempts;
    if (a.outcome == GateOutcome::Pass) ++g.passed;
    if (a.outcome == GateOutcome::Unsupported) {
      ++unsupported;
      unsupported_why = a.detail;
      break;  // the server said so: asking again would only repeat the answer
    }
    if (a.outcome == GateOutcome::Fail) g.failures.push_back({i, a.detail});
  }
  g.score = std::to_string(g.passed) + "/" + std::to_string(repeat);
  if (unsupported > 0 && g.passed == 0 && g.failures.empty()) {
    g.status = record::GateStatus::Unsupported;
    g.why = unsupported_why;
  } else if (g.attempts < repeat && g.failures.empty() && ctx.stopped()) {
    g.status = record::GateStatus::Stopped;
    g.why = "stopped by the user after " + std::to_string(g.attempts) + " of " +
            std::to_string(repeat) + " attempt(s)";
  } else {
    g.status = g.passed == repeat ? record::GateStatus::Pass : record::GateStatus::Fail;
  }
  return g;
}

// The multimodal check's prompt set, loaded once for every lane; a set that cannot be loaded
// fails the check on each lane with the loader's errors.
class MultimodalPrompts {
 public:
  explicit MultimodalPrompts(std::string ref) : ref_(std::move(ref)) {}
  // The check over one API, its requests recorded under the gate's key as their phase.
  record::GateResult score(ExperimentContext& ctx, GateIo& io, const LaneRuntime& lane,
                           MediaApi api) {
    if (!loaded_) {
      loaded_ = plan::load_prompt_set(ref_);
      if (!loaded_->ok())
        ctx.sink().on_message(MessageLevel::Error, "gates: cannot load the multimodal prompt set " +
                                                       ref_ + ":\n" + loaded_->error_text());
    }
    record::GateResult g;
    if (loaded_->ok()) {
      io.set_check(multimodal_gate_key(api));
      g = run_multimodal_gate(ctx, io, *loaded_->set, api);
    } else {
      g.status = record::GateStatus::Fail;
      g.score = "0/0";
      g.why = "cannot load the prompt set " + ref_ + ": " + loaded_->error_text();
      g.more = {{"prompts", ref_}};
    }
    g.lane_id = lane.plan.id;
    g.check = multimodal_gate_key(api);
    return g;
  }

 private:
  std::string ref_;
  std::optional<plan::PromptSetResult> loaded_;
};

// Tells the sink the gate's result, logs it, flags a failure as a blocker and keeps it.
void record_gate(ExperimentContext& ctx, std::vector<record::GateResult>& gates,
                 record::GateResult g) {
  ctx.sink().on_gate_result(g);
  const std::string status = record::to_string(g.status);
  ctx.info("lane " + g.lane_id + ": gate " + g.check + " " + status + " (" + g.score + ")");
  if (g.status == record::GateStatus::Fail && !ctx.stopped())
    ctx.flag_blocker("lane " + g.lane_id + ": gate " + g.check + " failed (" + g.score + ")");
  gates.push_back(std::move(g));
}

// The lane's "gates" object: each check's result under its name.
nlohmann::json gates_json(const std::vector<record::GateResult>& gates) {
  nlohmann::json j;  // null when no check ran
  for (const record::GateResult& g : gates) j[g.check] = record::to_json(g);
  return j;
}

bool passed(const std::vector<record::GateResult>& gates, const std::string& check) {
  return std::any_of(gates.begin(), gates.end(), [&](const record::GateResult& g) {
    return g.check == check && g.status == record::GateStatus::Pass;
  });
}

}  // namespace

void GatesExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::GatesExperiment>(ctx.spec().params);
  const auto& checks = p.checks.empty() ? plan::all_gate_checks() : p.checks;
  const bool multimodal_asked =
      std::find(checks.begin(), checks.end(), "multimodal") != checks.end();
  MultimodalPrompts multimodal(p.multimodal_prompts);
  for (LaneRuntime* lane : ctx.lanes()) {
    GateIo io(ctx, *lane);
    std::vector<record::GateResult> gates;
    for (const auto& check : checks) {
      if (ctx.stopped()) return;
      if (check == "multimodal") continue;  // last: its APIs depend on the responses check
      record_gate(ctx, gates, score_check(ctx, io, lane->plan.id, check, p.repeat));
    }
    if (multimodal_asked) {
      for (MediaApi api : multimodal_apis(*lane, p.multimodal_api, passed(gates, "responses"))) {
        if (ctx.stopped()) return;
        record_gate(ctx, gates, multimodal.score(ctx, io, *lane, api));
      }
    }
    ctx.section()["lanes"][lane->plan.id]["gates"] = gates_json(gates);
  }
  ctx.writer().flush();  // the sink has heard of every gate request when the experiment returns
}

}  // namespace lb::run
