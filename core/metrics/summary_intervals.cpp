#include "metrics/summary_intervals.h"

#include <cmath>
#include <cstdio>

namespace lb::metrics {
namespace {

using nlohmann::json;

constexpr const char* kBasisRequests = "requests";

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

// "95 %" for 0.95; "99.5 %" for 0.995.
std::string level_text(double level) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g %%", level * 100);
  return buf;
}

json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

const PhaseSamples* find_phase(const std::vector<PhaseSamples>& phases, const std::string& lane,
                               const std::string& phase) {
  const PhaseSamples* found = nullptr;
  for (const PhaseSamples& p : phases)
    if (p.lane == lane && p.phase == phase) found = &p;  // a phase run again: its last run
  return found;
}

json comparison_json(const std::string& baseline, const std::string& candidate,
                     const std::string& phase, const HeadlineFigure& figure, const RatioInterval& r,
                     uint64_t seed) {
  const Verdict verdict = verdict_of(r, figure.better);
  const int64_t needed = verdict == Verdict::WithinNoise ? samples_needed(r) : -1;
  return {{"baseline", baseline},
          {"candidate", candidate},
          {"phase", phase},
          {"figure", figure.key},
          {"label", figure.label},
          {"better", figure.better == Better::Higher ? "higher" : "lower"},
          {"ratio", finite_or_null(r.ratio)},
          {"lo", finite_or_null(r.lo)},
          {"hi", finite_or_null(r.hi)},
          {"level", r.level},
          {"method", to_string(r.method)},
          {"resamples", r.resamples},
          {"seed", seed},
          {"basis", kBasisRequests},
          {"n_baseline", r.n_baseline},
          {"n_candidate", r.n_candidate},
          {"verdict", to_string(verdict)},
          {"requests_needed", needed > 0 ? json(needed) : json(nullptr)},
          {"statement", verdict_statement(baseline, candidate, phase, figure.label, r, verdict)}};
}

}  // namespace

const std::vector<HeadlineFigure>& headline_figures() {
  static const std::vector<HeadlineFigure> figures = {
      {"median_ttft_ms", "TTFT p50", &RequestSamples::ttft_ms, BootstrapStatistic::median(),
       Better::Lower},
      {"p99_ttft_ms", "TTFT p99", &RequestSamples::ttft_ms, BootstrapStatistic::percentile(99),
       Better::Lower},
      {"median_tpot_ms", "TPOT p50", &RequestSamples::tpot_ms, BootstrapStatistic::median(),
       Better::Lower},
      {"median_e2el_ms", "E2EL p50", &RequestSamples::e2el_ms, BootstrapStatistic::median(),
       Better::Lower},
      {"p99_e2el_ms", "E2EL p99", &RequestSamples::e2el_ms, BootstrapStatistic::percentile(99),
       Better::Lower},
      {"median_decode_tok_s", "decode p50", &RequestSamples::decode_tok_s,
       BootstrapStatistic::median(), Better::Higher},
  };
  return figures;
}

json intervals_json(const RequestSamples& samples, const BootstrapOptions& options) {
  json out = json::object();
  for (const HeadlineFigure& f : headline_figures()) {
    const BootstrapInterval i = bootstrap_interval(samples.*f.values, f.statistic, options);
    if (!i.valid()) continue;
    out[f.key] = {{"lo", i.lo},
                  {"hi", i.hi},
                  {"level", i.level},
                  {"method", to_string(i.method)},
                  {"resamples", i.resamples},
                  {"seed", options.seed},
                  {"basis", kBasisRequests},
                  {"n", i.n}};
  }
  return out;
}

json lane_comparisons_json(const std::vector<std::string>& lanes,
                           const std::vector<PhaseSamples>& phases,
                           const BootstrapOptions& options) {
  json out = json::array();
  if (lanes.size() < 2) return out;
  const std::string& baseline = lanes.front();
  for (size_t c = 1; c < lanes.size(); ++c) {
    for (const PhaseSamples& base : phases) {
      if (base.lane != baseline || find_phase(phases, baseline, base.phase) != &base) continue;
      const PhaseSamples* cand = find_phase(phases, lanes[c], base.phase);
      if (!cand) continue;
      for (const HeadlineFigure& f : headline_figures()) {
        const auto& a = base.samples.*f.values;
        const auto& b = cand->samples.*f.values;
        if (a.empty() || b.empty()) continue;
        const RatioInterval r = bootstrap_ratio(a, b, f.statistic, options);
        out.push_back(comparison_json(baseline, lanes[c], base.phase, f, r, options.seed));
      }
    }
  }
  return out;
}

std::string verdict_statement(const std::string& baseline, const std::string& candidate,
                              const std::string& phase, const std::string& label,
                              const RatioInterval& r, Verdict verdict) {
  std::string s = candidate + "/" + baseline + " " + phase + " " + label + " ";
  if (!std::isfinite(r.ratio)) return s + "n/a";
  s += fixed3(r.ratio);
  if (r.valid()) s += " [" + fixed3(r.lo) + ", " + fixed3(r.hi) + "]";
  s += std::string(": ") + to_string(verdict);
  if (verdict == Verdict::Unknown) return s + " (too few requests for an interval)";
  s += " (" + level_text(r.level) + ")";
  if (verdict == Verdict::WithinNoise) {
    const int64_t needed = samples_needed(r);
    if (needed > 0)
      s += "; about " + std::to_string(needed) + " requests per lane would resolve it";
  }
  return s;
}

}  // namespace lb::metrics
