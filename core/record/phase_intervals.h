#pragma once
// A phase's intervals as summary.json records them ("intervals", docs/metrics.md): over its
// requests with one trial, over the per-trial figures with several. Each names its method, the
// resamples and seed behind it, and the values it resampled.
#include <map>
#include <string>
#include <vector>

#include "core/metrics/summary_intervals.h"
#include "core/metrics/trial_intervals.h"
#include "core/record/run_summary.h"

namespace lb::record {

// One interval per headline figure with enough requests for one, by summary.json key.
std::map<std::string, Interval> intervals_over_requests(
    const metrics::RequestSamples& samples, const metrics::BootstrapOptions& options = {});

// One interval per trial figure with at least two trials' values, by summary.json key; each
// also gives its estimate (the mean of the per-trial figures).
std::map<std::string, Interval> intervals_over_trials(
    const std::vector<metrics::TrialValues>& trials, const metrics::BootstrapOptions& options = {});

// Gives PHASE these intervals; none are recorded as an empty "intervals" object, as a phase
// that was measured and had too few values for any says.
void set_intervals(PhaseRecord& phase, std::map<std::string, Interval> intervals);

}  // namespace lb::record
