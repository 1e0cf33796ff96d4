#include "ui/run/live_intervals.h"

#include "core/metrics/trial_intervals.h"

namespace lb::ui {
namespace {

// The engine's intervals (metrics/summary_intervals.h, metrics/trial_intervals.h) as the table
// holds them.
models::FigureIntervals table_intervals(
    const std::vector<std::pair<std::string, metrics::BootstrapInterval>>& intervals,
    models::FigureIntervals::Basis basis, bool with_estimate) {
  models::FigureIntervals out;
  for (const auto& [key, i] : intervals) {
    models::FigureInterval f;
    f.lo = i.lo;
    f.hi = i.hi;
    if (with_estimate) f.estimate = i.estimate;
    out.by_key[key] = f;
    out.level = i.level;
    out.n = std::max<int64_t>(out.n, static_cast<int64_t>(i.n));
  }
  if (!out.by_key.empty()) out.basis = basis;
  return out;
}

void keep(metrics::SampledStatistics& to, double v) {
  if (v >= 0) to.insert(v);
}

}  // namespace

void LiveIntervals::add(const metrics::RequestRecord& record, const metrics::RequestMetrics& m) {
  trials_
      .try_emplace(record.trial, metrics::SloSpec{}, kTrialEventSample,
                   metrics::ValueStorage::Memory, kRequestSample)
      .first->second.add(record, m);
  if (record.warmup || !m.ok) return;
  keep(ttft_, m.ttft_ms);
  keep(tpot_, m.tpot_ms);
  keep(e2el_, m.e2el_ms);
  keep(decode_, m.decode_tok_s);
}

bool LiveIntervals::stale(bool settled) const {
  if (!computed_ || settled != cached_settled_ || trials_.size() != cached_trials_) return true;
  const size_t n = ttft_.size();
  if (n == cached_requests_) return false;
  return n < kAlwaysRecomputeBelow ||
         static_cast<double>(n) >= kRecomputeGrowth * static_cast<double>(cached_requests_);
}

const models::FigureIntervals& LiveIntervals::intervals(bool settled) {
  if (!stale(settled)) return cached_;
  cached_ = over_trials(settled);
  if (cached_.basis == models::FigureIntervals::Basis::None) cached_ = over_requests();
  cached_requests_ = ttft_.size();
  cached_trials_ = trials_.size();
  cached_settled_ = settled;
  computed_ = true;
  return cached_;
}

models::FigureIntervals LiveIntervals::over_trials(bool settled) const {
  std::vector<metrics::TrialValues> done;
  for (auto it = trials_.begin(); it != trials_.end(); ++it) {
    const bool running = !settled && std::next(it) == trials_.end();
    const metrics::LaneSummary s = it->second.summary();
    if (!running && s.completed > 0) done.push_back(metrics::trial_values(s));
  }
  if (done.size() < 2) return {};
  return table_intervals(metrics::intervals_over_trials(done),
                         models::FigureIntervals::Basis::Trials, true);
}

models::FigureIntervals LiveIntervals::over_requests() const {
  std::vector<std::pair<std::string, metrics::BootstrapInterval>> intervals;
  for (const metrics::HeadlineFigure& f : metrics::headline_figures()) {
    const metrics::SampledStatistics* values =
        f.values == &metrics::RequestSamples::ttft_ms   ? &ttft_
        : f.values == &metrics::RequestSamples::tpot_ms ? &tpot_
        : f.values == &metrics::RequestSamples::e2el_ms ? &e2el_
                                                        : &decode_;
    const metrics::BootstrapInterval i = metrics::bootstrap_interval(values->sample(), f.statistic);
    if (i.valid()) intervals.emplace_back(f.key, i);
  }
  return table_intervals(intervals, models::FigureIntervals::Basis::Requests, false);
}

}  // namespace lb::ui
