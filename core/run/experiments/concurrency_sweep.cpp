#include "core/run/experiments/concurrency_sweep.h"

#include <cmath>
#include <cstdio>

namespace lb::run {
namespace {

// NaN (an empty distribution) and negative values are "not measured": null in JSON.
nlohmann::json figure(double v) {
  return std::isfinite(v) && v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr);
}

double finite_or(double v, double fallback) { return std::isfinite(v) ? v : fallback; }

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", fraction * 100.0);
  return buf;
}

nlohmann::json level_json(const std::vector<LevelFigures>& levels, size_t i) {
  const LevelFigures& l = levels[i];
  nlohmann::json j = {{"concurrency", l.concurrency},
                      {"completed", l.completed},
                      {"errors", l.errors},
                      {"output_tok_s", figure(l.output_tok_s)},
                      {"decode_tok_s_median", figure(l.decode_tok_s_median)},
                      {"ttft_p50_ms", figure(l.ttft_p50_ms)},
                      {"ttft_p99_ms", figure(l.ttft_p99_ms)},
                      {"e2el_p50_ms", figure(l.e2el_p50_ms)},
                      {"e2el_p99_ms", figure(l.e2el_p99_ms)}};
  const auto gain = throughput_gain(levels, i);
  j["output_tok_s_gain"] = gain ? nlohmann::json(*gain) : nlohmann::json(nullptr);
  // How much the tail latency grew for that gain: past the knee it outgrows throughput.
  const double prev_p99 = i > 0 ? levels[i - 1].e2el_p99_ms : -1;
  j["e2el_p99_growth"] = prev_p99 > 0 && l.e2el_p99_ms > 0
                             ? nlohmann::json(l.e2el_p99_ms / prev_p99 - 1.0)
                             : nlohmann::json(nullptr);
  if (l.interrupted) j["interrupted"] = true;
  return j;
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

nlohmann::json sweep_json(const std::vector<LevelFigures>& levels, double min_gain,
                          const std::string& mode, const std::optional<SweepStop>& stop) {
  nlohmann::json j = {{"mode", mode}, {"min_gain", min_gain}};
  j["levels"] = nlohmann::json::array();
  for (size_t i = 0; i < levels.size(); ++i) j["levels"].push_back(level_json(levels, i));
  const auto knee = knee_index(levels, min_gain);
  if (knee) {
    const LevelFigures& k = levels[*knee];
    j["knee"] = {{"concurrency", k.concurrency},
                 {"output_tok_s", figure(k.output_tok_s)},
                 {"e2el_p99_ms", figure(k.e2el_p99_ms)},
                 {"reached", *knee + 1 < levels.size()},
                 {"rule",
                  "the last level before the first whose aggregate output tok/s gained less "
                  "than min_gain (or that had errors)"}};
  } else {
    j["knee"] = nullptr;
  }
  j["stopped"] = stop ? nlohmann::json{{"reason", stop->reason},
                                       {"at_concurrency", stop->at_concurrency},
                                       {"detail", stop->detail}}
                      : nlohmann::json(nullptr);
  return j;
}

}  // namespace lb::run
