#pragma once
// Intervals of a phase's headline figures and the comparison of lanes, for summary.json. With one
// trial the basis of every interval is the phase's completed requests: each request's TTFT, TPOT,
// E2EL and decode rate is one value of the resampled sample.
//
// Inter-token gaps are left out: the gaps of one request are not independent of each other, so a
// bootstrap over gaps would give too narrow an interval. Aggregate output tok/s is left out: it
// is one number per phase, and its interval needs repeated trials.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/bootstrap.h"
#include "core/metrics/trial_intervals.h"

namespace lb::metrics {

// Per completed, measured request (warm-ups and failures excluded); a value the request did not
// have (TPOT of a one-token answer) is absent, as in the summary's distributions.
struct RequestSamples {
  std::vector<double> ttft_ms;
  std::vector<double> tpot_ms;
  std::vector<double> e2el_ms;
  std::vector<double> decode_tok_s;
};

// A headline figure: its summary.json key, its label in verdicts, the values it is a statistic
// of, and which way it improves.
struct HeadlineFigure {
  const char* key;    // "median_ttft_ms", as the summary names the figure itself
  const char* label;  // "TTFT p50"
  std::vector<double> RequestSamples::*values;
  BootstrapStatistic statistic;
  Better better;
};
// TTFT p50 and p99, TPOT p50, E2EL p50 and p99, decode p50.
const std::vector<HeadlineFigure>& headline_figures();

// The interval of each headline figure with enough values for one (bootstrap_min_values: 2 for a
// median, 100 for a p99), by summary.json key.
std::vector<std::pair<std::string, BootstrapInterval>> headline_intervals(
    const RequestSamples& samples, const BootstrapOptions& options = {});

// One phase of one lane, in the order the phases ran.
struct PhaseSamples {
  std::string lane;
  std::string phase;
  RequestSamples samples;
  // With repeated trials: each trial's figures (trial_values), and `samples` pools the requests
  // of every trial. With more than one trial on both sides, comparisons go over trials.
  std::vector<TrialValues> trials;
};

// One candidate lane's figure at one phase against the baseline lane's: the ratio (candidate /
// baseline) with its interval, how it was made, the verdict and the finding in one sentence.
struct FigureComparison {
  std::string baseline;
  std::string candidate;
  std::string phase;
  std::string figure;  // the summary's key: "median_ttft_ms", ...
  std::string label;   // "TTFT p50"
  Better better = Better::Lower;
  bool over_trials = false;  // the basis: the trials' figures, else the requests
  RatioInterval ratio;
  uint64_t seed = 0;
  Verdict verdict = Verdict::Unknown;
  // Within noise and the lanes differ at all: the requests (or trials) per lane that would
  // settle it; -1 otherwise.
  int64_t needed = -1;
  std::string statement;

  const char* basis() const { return over_trials ? kBasisTrials : kBasisRequests; }
  const char* method_name() const { return over_trials ? kMethodOverTrials : kMethodOverRequests; }
};

// The first lane is the baseline; with more than one trial on both sides of a pair, its ratios
// are of the per-trial figures' means, over trials (ratio_over_trials, every trial_figures()
// entry). Otherwise every other lane is compared with it on each phase both ran and each headline
// figure both have values for.
std::vector<FigureComparison> lane_comparisons(const std::vector<std::string>& lanes,
                                               const std::vector<PhaseSamples>& phases,
                                               const BootstrapOptions& options = {});

// "fp8/bf16 c1 decode p50 1.780 [1.760, 1.800]: faster (95 %)", with "; about N requests per
// lane would resolve it" when within noise (`unit` "trials" for comparisons over trials).
// The verdict is worded for FIGURE_KEY (verdict_text(): "less energy" rather than "faster").
std::string verdict_statement(const std::string& baseline, const std::string& candidate,
                              const std::string& phase, const std::string& label,
                              const RatioInterval& ratio, Verdict verdict,
                              const std::string& unit = "requests",
                              const std::string& figure_key = {});

// One pair's comparison on one figure, as lane_comparisons gives it, over trials when both
// sides have more than one, else over requests (figure_key a trial_figures() key; the request
// basis has no interval for ITL or output tok/s). nullopt when either side lacks the figure.
std::optional<FigureComparison> compare_figure(const std::string& baseline_lane,
                                               const PhaseSamples& baseline,
                                               const std::string& candidate_lane,
                                               const PhaseSamples& candidate,
                                               const std::string& figure_key,
                                               const BootstrapOptions& options = {});

}  // namespace lb::metrics
