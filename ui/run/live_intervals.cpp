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

void keep(std::vector<double>& to, double v) {
  if (v >= 0) to.push_back(v);
}

}  // namespace

void LiveIntervals::add(const metrics::RequestRecord& record, const metrics::RequestMetrics& m) {
  trials_.try_emplace(record.trial).first->second.add(record, m);
  if (record.warmup || !m.ok) return;
  keep(pooled_.ttft_ms, m.ttft_ms);
  keep(pooled_.tpot_ms, m.tpot_ms);
  keep(pooled_.e2el_ms, m.e2el_ms);
  keep(pooled_.decode_tok_s, m.decode_tok_s);
}

bool LiveIntervals::stale(bool settled) const {
  if (!computed_ || settled != cached_settled_ || trials_.size() != cached_trials_) return true;
  const size_t n = pooled_.ttft_ms.size();
  if (n == cached_requests_) return false;
  return n < kAlwaysRecomputeBelow ||
         static_cast<double>(n) >= kRecomputeGrowth * static_cast<double>(cached_requests_);
}

const models::FigureIntervals& LiveIntervals::intervals(bool settled) {
  if (!stale(settled)) return cached_;
  cached_ = over_trials(settled);
  if (cached_.basis == models::FigureIntervals::Basis::None) cached_ = over_requests();
  cached_requests_ = pooled_.ttft_ms.size();
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
  return table_intervals(metrics::headline_intervals(pooled_),
                         models::FigureIntervals::Basis::Requests, false);
}

}  // namespace lb::ui
