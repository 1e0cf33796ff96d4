#pragma once
// Performance gates (plan/trial_options.h): each gate's lane-pair ratio, with its interval,
// judged against its threshold. A gate passes only when the whole interval clears the threshold;
// it fails when the interval lies wholly on the wrong side; otherwise it is inconclusive, with an
// estimate of how many trials (or, with one trial, requests) per lane would settle it. A gate
// that does not pass (failed, inconclusive, or not measured) is a blocker: the run exits 1.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/bootstrap.h"
#include "core/plan/trial_options.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

enum class PerfGateOutcome { Pass, Fail, Inconclusive };
const char* to_string(PerfGateOutcome outcome);  // "pass", "fail", "inconclusive"

struct PerfGateJudgement {
  PerfGateOutcome outcome = PerfGateOutcome::Inconclusive;
  int64_t needed = -1;  // per lane, when inconclusive and estimable; in the ratio's units
};

// The judgement of one ratio (candidate / baseline) against the gate's threshold.
PerfGateJudgement judge_gate(const plan::PerformanceGate& gate,
                             const metrics::RatioInterval& ratio);

struct GateJudgements {
  nlohmann::json judged = nlohmann::json::array();  // one entry per gate and phase
  std::vector<std::string> blockers;                // every gate that does not pass
};

// Judges GATES on the phases both of a gate's lanes ran, among SAMPLES (which may come from
// several passes of one experiment: a plan's managed lanes run after its other lanes).
GateJudgements judge_performance_gates(const std::vector<plan::PerformanceGate>& gates,
                                       const std::vector<metrics::PhaseSamples>& samples,
                                       bool stopped);

// Judges every performance gate of the context's experiment on the phases both of its lanes ran,
// writes section["performance_gates"] (one entry per gate and phase, with a statement) and flags
// every gate that does not pass as a blocker.
void judge_performance_gates(ExperimentContext& ctx);

}  // namespace lb::run
