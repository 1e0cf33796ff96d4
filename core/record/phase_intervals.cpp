#include "core/record/phase_intervals.h"

namespace lb::record {
namespace {

Interval interval_of(const metrics::BootstrapInterval& i, const char* basis, std::string method) {
  Interval out;
  out.lo = i.lo;
  out.hi = i.hi;
  out.level = i.level;
  out.n = static_cast<int64_t>(i.n);
  out.basis = basis;
  out.method = std::move(method);
  return out;
}

}  // namespace

std::map<std::string, Interval> intervals_over_requests(const metrics::RequestSamples& samples,
                                                        const metrics::BootstrapOptions& options) {
  std::map<std::string, Interval> out;
  for (const auto& [key, i] : metrics::headline_intervals(samples, options)) {
    Interval& interval = out[key] =
        interval_of(i, metrics::kBasisRequests, metrics::to_string(i.method));
    interval.more = {{"method_name", metrics::kMethodOverRequests},
                     {"resamples", i.resamples},
                     {"seed", options.seed}};
  }
  return out;
}

std::map<std::string, Interval> intervals_over_trials(
    const std::vector<metrics::TrialValues>& trials, const metrics::BootstrapOptions& options) {
  std::map<std::string, Interval> out;
  for (const auto& [key, i] : metrics::intervals_over_trials(trials, options)) {
    Interval& interval = out[key] =
        interval_of(i, metrics::kBasisTrials, metrics::kExpandedPercentile);
    interval.more = {{"estimate", i.estimate},
                     {"statistic", metrics::kMeanOfTrials},
                     {"method_name", metrics::kMethodOverTrials},
                     {"resamples", i.resamples},
                     {"seed", options.seed}};
  }
  return out;
}

void set_intervals(PhaseRecord& phase, std::map<std::string, Interval> intervals) {
  phase.intervals = std::move(intervals);
  if (phase.intervals.empty())
    phase.more["intervals"] = nlohmann::json::object();
  else
    phase.more.erase("intervals");
}

}  // namespace lb::record
