#pragma once
// Intervals over repeated trials. When an experiment runs each level N > 1 times, every trial of
// a phase gives one value of each headline figure (its median TTFT, its aggregate output tok/s,
// ...), and the interval of the figure is a bootstrap over those N values: trials, not requests,
// are the independent units, so drift between trials (the machine, the server, the network)
// widens the interval as it should.
//
// Few values make the plain percentile bootstrap too narrow (with 5 trials a nominal 95 %
// interval covers about 85 %). The intervals here are expanded percentile intervals (Hesterberg,
// "What Teachers Should Know About the Bootstrap", 2015): the replicates' quantiles are read at
// the level whose normal quantile is sqrt(n / (n - 1)) * t(n - 1), the Student quantile of the
// nominal level, so that with normal data the interval is as wide as the classical t interval.
// The nominal level is the one reported. The statistic is the mean of the per-trial figures.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/bootstrap.h"
#include "core/metrics/summary.h"

namespace lb::metrics {

// "bootstrap over trials" / "bootstrap over requests": the method as reports name it.
inline constexpr const char* kMethodOverTrials = "bootstrap over trials";
inline constexpr const char* kMethodOverRequests = "bootstrap over requests";
// An interval's "basis" (the values resampled), the method of one over trials, and the
// statistic it is about.
inline constexpr const char* kBasisRequests = "requests";
inline constexpr const char* kBasisTrials = "trials";
inline constexpr const char* kExpandedPercentile = "percentile (expanded)";
inline constexpr const char* kMeanOfTrials = "mean of the per-trial figures";

// A figure one trial of a phase gives one value of.
struct TrialFigure {
  const char* key;    // its summary.json key: "median_ttft_ms", "output_throughput", ...
  const char* label;  // "TTFT p50", "output tok/s"
  double (*of)(const LaneSummary&);
  Better better;
  // How a comparison's statement names the verdict when "faster" / "slower" would not fit.
  const char* better_text = nullptr;
  const char* worse_text = nullptr;
};
// TTFT p50 and p99, TPOT p50, ITL p50, E2EL p50 and p99, decode p50, aggregate output tok/s,
// energy per output token and cost per million output tokens (when the phase has them).
const std::vector<TrialFigure>& trial_figures();
const TrialFigure* find_trial_figure(const std::string& key);
// How a comparison of figure KEY names VERDICT: "faster" / "slower", or the figure's own words
// ("less energy", "cheaper") for a figure that is not a speed.
const char* verdict_text(const std::string& key, Verdict verdict);

// One trial's value of each trial_figures() entry, in that order; NaN when the trial had none.
using TrialValues = std::vector<double>;
TrialValues trial_values(const LaneSummary& summary);

// The per-trial values of figure `index`, NaN values left out.
std::vector<double> figure_over_trials(const std::vector<TrialValues>& trials, size_t index);

// The percentile-bootstrap level that expands a nominal `level` interval of n values (see above);
// `level` itself when n < 2.
double expanded_level(double level, size_t n);
// The two-sided Student t quantile: P(|T| <= t) = level with `df` degrees of freedom.
double student_t_quantile(double level, double df);

// The expanded percentile bootstrap interval of the mean of `values` (reported at options.level).
BootstrapInterval interval_over_trials(const std::vector<double>& values,
                                       const BootstrapOptions& options = {});
// mean(candidate) / mean(baseline), each side resampled independently, expanded for the smaller
// side's count and the pooled degrees of freedom (n_baseline + n_candidate - 2).
RatioInterval ratio_over_trials(const std::vector<double>& baseline,
                                const std::vector<double>& candidate,
                                const BootstrapOptions& options = {});

// The interval of each trial figure with at least two trials' values, by summary.json key.
std::vector<std::pair<std::string, BootstrapInterval>> intervals_over_trials(
    const std::vector<TrialValues>& trials, const BootstrapOptions& options = {});

// The per-trial figures as summary.json keeps them: [{"trial": 0, "median_ttft_ms": ..., ...}].
nlohmann::json trial_figures_json(const std::vector<TrialValues>& trials,
                                  const std::vector<int64_t>& trial_indexes);

}  // namespace lb::metrics
