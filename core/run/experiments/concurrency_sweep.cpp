#include "core/run/experiments/concurrency_sweep.h"

#include <cmath>
#include <cstdio>

namespace lb::run {
namespace {

double finite_or(double v, double fallback) { return std::isfinite(v) ? v : fallback; }

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", fraction * 100.0);
  return buf;
}

// Level I with its gain over the level before and how much its tail latency grew for it: past the
// knee, latency outgrows throughput.
record::SweepLevelRecord level_record(const std::vector<LevelFigures>& levels, size_t i) {
  const LevelFigures& l = levels[i];
  record::SweepLevelRecord r;
  r.concurrency = l.concurrency;
  r.completed = l.completed;
  r.errors = l.errors;
  r.interrupted = l.interrupted;
  r.output_tok_s = l.output_tok_s;
  r.decode_tok_s_median = l.decode_tok_s_median;
  r.ttft_p50_ms = l.ttft_p50_ms;
  r.ttft_p99_ms = l.ttft_p99_ms;
  r.e2el_p50_ms = l.e2el_p50_ms;
  r.e2el_p99_ms = l.e2el_p99_ms;
  r.output_tok_s_gain = throughput_gain(levels, i).value_or(NAN);
  const double prev_p99 = i > 0 ? levels[i - 1].e2el_p99_ms : -1;
  if (prev_p99 > 0 && l.e2el_p99_ms > 0) r.e2el_p99_growth = l.e2el_p99_ms / prev_p99 - 1.0;
  return r;
}

}  // namespace

LevelFigures level_figures(int64_t concurrency, const metrics::LaneSummary& summary, int64_t errors,
                           bool interrupted) {
  LevelFigures l;
  l.concurrency = concurrency;
  l.completed = summary.completed;
  l.errors = errors;
  l.interrupted = interrupted;
  l.output_tok_s = finite_or(summary.output_throughput, 0);
  const bool measured = summary.completed > 0;
  l.decode_tok_s_median = measured ? finite_or(summary.decode_tok_s.median, -1) : -1;
  l.ttft_p50_ms = measured ? finite_or(summary.ttft_ms.median, -1) : -1;
  l.ttft_p99_ms = measured ? finite_or(summary.ttft_ms.p99, -1) : -1;
  l.e2el_p50_ms = measured ? finite_or(summary.e2el_ms.median, -1) : -1;
  l.e2el_p99_ms = measured ? finite_or(summary.e2el_ms.p99, -1) : -1;
  return l;
}

std::optional<double> throughput_gain(const std::vector<LevelFigures>& levels, size_t i) {
  if (i == 0 || i >= levels.size() || levels[i - 1].output_tok_s <= 0) return std::nullopt;
  return levels[i].output_tok_s / levels[i - 1].output_tok_s - 1.0;
}

std::optional<SweepStop> doubling_stop(const std::vector<LevelFigures>& levels,
                                       const plan::ConcurrencyDoubling& doubling, int64_t next) {
  if (levels.empty()) return std::nullopt;
  const LevelFigures& last = levels.back();
  const int64_t c = last.concurrency;
  if (last.interrupted) return SweepStop{"interrupted", c, "the run was stopped"};
  if (last.errors > 0)
    return SweepStop{
        "errors", c,
        std::to_string(last.errors) + " request(s) failed at concurrency " + std::to_string(c)};
  if (last.completed == 0)
    return SweepStop{"no_completions", c,
                     "no request completed at concurrency " + std::to_string(c)};
  if (const auto gain = throughput_gain(levels, levels.size() - 1);
      gain && *gain < doubling.min_gain)
    return SweepStop{"gain_below_min", c,
                     "aggregate output tok/s gained " + percent(*gain) + " from concurrency " +
                         std::to_string(levels[levels.size() - 2].concurrency) + " to " +
                         std::to_string(c) + ", below " + percent(doubling.min_gain)};
  if (next > doubling.max)
    return SweepStop{"max_concurrency", c,
                     "the next level (" + std::to_string(next) + ") is above max " +
                         std::to_string(doubling.max)};
  return std::nullopt;
}

std::optional<size_t> knee_index(const std::vector<LevelFigures>& levels, double min_gain) {
  std::optional<size_t> knee;
  for (size_t i = 0; i < levels.size(); ++i) {
    const LevelFigures& l = levels[i];
    if (l.errors > 0 || l.completed == 0 || l.interrupted) break;
    const auto gain = throughput_gain(levels, i);
    if (i > 0 && (!gain || *gain < min_gain)) break;
    knee = i;
  }
  return knee;
}

record::ConcurrencySweepRecord sweep_record(const std::vector<LevelFigures>& levels,
                                            double min_gain, const std::string& mode,
                                            const std::optional<SweepStop>& stop) {
  record::ConcurrencySweepRecord r;
  r.mode = mode;
  r.min_gain = min_gain;
  for (size_t i = 0; i < levels.size(); ++i) r.levels.push_back(level_record(levels, i));
  if (const auto knee = knee_index(levels, min_gain)) {
    const LevelFigures& k = levels[*knee];
    r.knee_concurrency = k.concurrency;
    r.knee_output_tok_s = k.output_tok_s;
    r.knee_e2el_p99_ms = k.e2el_p99_ms;
    r.knee_reached = *knee + 1 < levels.size();
    r.knee_rule =
        "the last level before the first whose aggregate output tok/s gained less than min_gain "
        "(or that had errors)";
  }
  if (stop) {
    r.stopped_at = stop->at_concurrency;
    r.stop_reason = stop->reason;
    r.stop_detail = stop->detail;
  }
  return r;
}

}  // namespace lb::run
