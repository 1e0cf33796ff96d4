#include "core/run/experiments/gates_experiment.h"

#include <algorithm>
#include <optional>
#include <variant>

#include "core/run/experiments/gate_checks.h"
#include "core/run/experiments/multimodal_gate.h"

namespace lb::run {
namespace {

nlohmann::json score_check(ExperimentContext& ctx, GateIo& io, const std::string& check,
                           int64_t repeat) {
  int64_t passed = 0, unsupported = 0, attempts = 0;
  nlohmann::json failures = nlohmann::json::array();
  std::string unsupported_why;
  io.set_check(check);
  for (int64_t i = 0; i < repeat && !ctx.stopped(); ++i) {
    const GateAttempt a = run_gate_check(check, io, static_cast<int>(i));
    // Stop cuts the attempt's requests short ("HTTP 0: stopped"): that says nothing of the lane.
    if (ctx.stopped() && a.outcome != GateOutcome::Pass) break;
    ++attempts;
    if (a.outcome == GateOutcome::Pass) ++passed;
    if (a.outcome == GateOutcome::Unsupported) {
      ++unsupported;
      unsupported_why = a.detail;
      break;  // the server said so: asking again would only repeat the answer
    }
    if (a.outcome == GateOutcome::Fail) failures.push_back({{"attempt", i}, {"why", a.detail}});
  }
  nlohmann::json j = {{"passed", passed},
                      {"attempts", attempts},
                      {"repeat", repeat},
                      {"score", std::to_string(passed) + "/" + std::to_string(repeat)}};
  if (unsupported > 0 && passed == 0 && failures.empty()) {
    j["status"] = "unsupported";
    j["why"] = unsupported_why;
  } else if (attempts < repeat && failures.empty() && ctx.stopped()) {
    j["status"] = "stopped";
    j["why"] = "stopped by the user after " + std::to_string(attempts) + " of " +
               std::to_string(repeat) + " attempt(s)";
  } else {
    j["status"] = passed == repeat ? "pass" : "fail";
  }
  if (!failures.empty()) j["failures"] = std::move(failures);
  return j;
}

// The multimodal check's prompt set, loaded once for every lane; a set that cannot be loaded
// fails the check on each lane with the loader's errors.
class MultimodalPrompts {
 public:
  explicit MultimodalPrompts(std::string ref) : ref_(std::move(ref)) {}
  // The check over one API, its requests recorded under the gate's key as their phase.
  nlohmann::json score(ExperimentContext& ctx, GateIo& io, MediaApi api) {
    if (!loaded_) {
      loaded_ = plan::load_prompt_set(ref_);
      if (!loaded_->ok())
        ctx.sink().on_message(MessageLevel::Error, "gates: cannot load the multimodal prompt set " +
                                                       ref_ + ":\n" + loaded_->error_text());
    }
    if (!loaded_->ok())
      return {{"status", "fail"},
              {"passed", 0},
              {"attempts", 0},
              {"repeat", 0},
              {"score", "0/0"},
              {"prompts", ref_},
              {"why", "cannot load the prompt set " + ref_ + ": " + loaded_->error_text()}};
    io.set_check(multimodal_gate_key(api));
    return run_multimodal_gate(ctx, io, *loaded_->set, api);
  }

 private:
  std::string ref_;
  std::optional<plan::PromptSetResult> loaded_;
};

// Tells the sink the gate's result, logs it, flags a failure as a blocker and keeps it under
// `key`.
void record_gate(ExperimentContext& ctx, const LaneRuntime& lane, nlohmann::json& gates,
                 const std::string& key, nlohmann::json j) {
  record::FileFields fields("gate result");
  ctx.sink().on_gate_result(record::read_gate_result(lane.plan.id, key, j, key, fields));
  const std::string status = j["status"];
  ctx.info("lane " + lane.plan.id + ": gate " + key + " " + status + " (" +
           j["score"].get<std::string>() + ")");
  if (status == "fail" && !ctx.stopped())
    ctx.flag_blocker("lane " + lane.plan.id + ": gate " + key + " failed (" +
                     j["score"].get<std::string>() + ")");
  gates[key] = std::move(j);
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
    nlohmann::json gates;
    for (const auto& check : checks) {
      if (ctx.stopped()) return;
      if (check == "multimodal") continue;  // last: its APIs depend on the responses check
      record_gate(ctx, *lane, gates, check, score_check(ctx, io, check, p.repeat));
    }
    if (multimodal_asked) {
      for (MediaApi api : multimodal_apis(*lane, p.multimodal_api, gates)) {
        if (ctx.stopped()) return;
        record_gate(ctx, *lane, gates, multimodal_gate_key(api), multimodal.score(ctx, io, api));
      }
    }
    ctx.section()["lanes"][lane->plan.id]["gates"] = std::move(gates);
  }
  ctx.writer().flush();  // the sink has heard of every gate request when the experiment returns
}

}  // namespace lb::run
