#pragma once
// The intervals of one lane's (or one phase's) headline figures while a run goes on, computed as
// summary.json computes them: over trials when at least two trials are over (the mean of the
// per-trial figures, expanded percentile bootstrap), else over the completed requests (BCa
// bootstrap of each request's TTFT, TPOT, E2EL and decode rate).
//
// A bootstrap over requests costs what the requests number, so while a run grows it is redone
// once the requests have grown by kRecomputeGrowth (every drain while they are few); settle() at
// the end of a run makes every interval current. Memory and cost stay bounded however long the
// run: each figure keeps a uniform sample of at most kRequestSample requests, and beyond that the
// interval is the sample's (its count says so): wider than the one over every request, which
// summary.json has, and still covering it.
#include <cstdint>
#include <map>

#include "core/metrics/sampled_statistics.h"
#include "core/metrics/summary_accumulator.h"
#include "core/metrics/summary_intervals.h"
#include "models/lane_stats_model.h"

namespace lb::ui {

class LiveIntervals {
 public:
  static constexpr size_t kAlwaysRecomputeBelow = 500;  // requests
  static constexpr double kRecomputeGrowth = 1.05;
  // Requests kept per figure (and per trial's summary) for the live figures.
  static constexpr size_t kRequestSample = 20'000;
  static constexpr size_t kTrialEventSample = 256;  // a trial's ITL is not a headline figure

  // A finished request of the lane or phase (warm-ups and failures are counted as summaries
  // count them: not in the figures).
  void add(const metrics::RequestRecord& record, const metrics::RequestMetrics& metrics);
  // The intervals, recomputed when stale. `settled`: no trial is still running (the run ended),
  // so the newest trial counts; while a run goes on, a trial is over once a later one began.
  const models::FigureIntervals& intervals(bool settled);

 private:
  models::FigureIntervals over_trials(bool settled) const;
  models::FigureIntervals over_requests() const;
  bool stale(bool settled) const;

  // Each completed request's TTFT, TPOT, E2EL and decode rate: a uniform sample of each.
  metrics::SampledStatistics ttft_{kRequestSample}, tpot_{kRequestSample}, e2el_{kRequestSample},
      decode_{kRequestSample};
  std::map<int64_t, metrics::SummaryAccumulator> trials_;
  models::FigureIntervals cached_;
  size_t cached_requests_ = 0;
  size_t cached_trials_ = 0;
  bool cached_settled_ = false;
  bool computed_ = false;
};

}  // namespace lb::ui
