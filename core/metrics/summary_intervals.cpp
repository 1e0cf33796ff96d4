#include "core/metrics/summary_intervals.h"

#include <cmath>
#include <cstdio>

namespace lb::metrics {
namespace {

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

const PhaseSamples* find_phase(const std::vector<PhaseSamples>& phases, const std::string& lane,
                               const std::string& phase) {
  const PhaseSamples* found = nullptr;
  for (const PhaseSamples& p : phases)
    if (p.lane == lane && p.phase == phase) found = &p;  // a phase run again: its last run
  return found;
}

// What a comparison is of: the figure's names and which way it improves, and its basis.
struct ComparedFigure {
  const char* key;
  const char* label;
  Better better;
  bool over_trials;
};

FigureComparison comparison_of(const std::string& baseline, const std::string& candidate,
                               const std::string& phase, const ComparedFigure& figure,
                               const RatioInterval& r, uint64_t seed) {
  FigureComparison c;
  c.baseline = baseline;
  c.candidate = candidate;
  c.phase = phase;
  c.figure = figure.key;
  c.label = figure.label;
  c.better = figure.better;
  c.over_trials = figure.over_trials;
  c.ratio = r;
  c.seed = seed;
  c.verdict = verdict_of(r, figure.better);
  if (c.verdict == Verdict::WithinNoise) {
    const int64_t needed = samples_needed(r);
    if (needed > 0) c.needed = needed;
  }
  c.statement = verdict_statement(baseline, candidate, phase, figure.label, r, c.verdict, c.basis(),
                                  figure.key);
  return c;
}

bool over_trials(const PhaseSamples& a, const PhaseSamples& b) {
  return a.trials.size() > 1 && b.trials.size() > 1;
}

std::optional<FigureComparison> compare_over_trials(const std::string& baseline,
                                                    const PhaseSamples& base,
                                                    const std::string& candidate,
                                                    const PhaseSamples& cand, size_t index,
                                                    const BootstrapOptions& options) {
  const TrialFigure& f = trial_figures()[index];
  const auto a = figure_over_trials(base.trials, index);
  const auto b = figure_over_trials(cand.trials, index);
  if (a.empty() || b.empty()) return std::nullopt;
  const RatioInterval r = ratio_over_trials(a, b, options);
  return comparison_of(baseline, candidate, base.phase, {f.key, f.label, f.better, true}, r,
                       options.seed);
}

std::optional<FigureComparison> compare_over_requests(
    const std::string& baseline, const PhaseSamples& base, const std::string& candidate,
    const PhaseSamples& cand, const HeadlineFigure& f, const BootstrapOptions& options) {
  const auto& a = base.samples.*f.values;
  const auto& b = cand.samples.*f.values;
  if (a.empty() || b.empty()) return std::nullopt;
  const RatioInterval r = bootstrap_ratio(a, b, f.statistic, options);
  return comparison_of(baseline, candidate, base.phase, {f.key, f.label, f.better, false}, r,
                       options.seed);
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

std::vector<std::pair<std::string, BootstrapInterval>> headline_intervals(
    const RequestSamples& samples, const BootstrapOptions& options) {
  std::vector<std::pair<std::string, BootstrapInterval>> out;
  for (const HeadlineFigure& f : headline_figures()) {
    const BootstrapInterval i = bootstrap_interval(samples.*f.values, f.statistic, options);
    if (i.valid()) out.emplace_back(f.key, i);
  }
  return out;
}

std::vector<FigureComparison> lane_comparisons(const std::vector<std::string>& lanes,
                                               const std::vector<PhaseSamples>& phases,
                                               const BootstrapOptions& options) {
  std::vector<FigureComparison> out;
  if (lanes.size() < 2) return out;
  const std::string& baseline = lanes.front();
  for (size_t c = 1; c < lanes.size(); ++c) {
    for (const PhaseSamples& base : phases) {
      if (base.lane != baseline || find_phase(phases, baseline, base.phase) != &base) continue;
      const PhaseSamples* cand = find_phase(phases, lanes[c], base.phase);
      if (!cand) continue;
      if (over_trials(base, *cand)) {
        for (size_t f = 0; f < trial_figures().size(); ++f)
          if (auto j = compare_over_trials(baseline, base, lanes[c], *cand, f, options))
            out.push_back(std::move(*j));
        continue;
      }
      for (const HeadlineFigure& f : headline_figures())
        if (auto j = compare_over_requests(baseline, base, lanes[c], *cand, f, options))
          out.push_back(std::move(*j));
    }
  }
  return out;
}

std::string verdict_statement(const std::string& baseline, const std::string& candidate,
                              const std::string& phase, const std::string& label,
                              const RatioInterval& r, Verdict verdict, const std::string& unit,
                              const std::string& figure_key) {
  std::string s = candidate + "/" + baseline + " " + phase + " " + label + " ";
  if (!std::isfinite(r.ratio)) return s + "n/a";
  s += fixed3(r.ratio);
  if (r.valid()) s += " [" + fixed3(r.lo) + ", " + fixed3(r.hi) + "]";
  s += std::string(": ") + verdict_text(figure_key, verdict);
  if (verdict == Verdict::Unknown) return s + " (too few " + unit + " for an interval)";
  s += " (" + level_text(r.level) + ")";
  if (verdict == Verdict::WithinNoise) {
    const int64_t needed = samples_needed(r);
    if (needed > 0)
      s += "; about " + std::to_string(needed) + " " + unit + " per lane would resolve it";
  }
  return s;
}

std::optional<FigureComparison> compare_figure(const std::string& baseline_lane,
                                               const PhaseSamples& baseline,
                                               const std::string& candidate_lane,
                                               const PhaseSamples& candidate,
                                               const std::string& figure_key,
                                               const BootstrapOptions& options) {
  if (over_trials(baseline, candidate)) {
    for (size_t f = 0; f < trial_figures().size(); ++f)
      if (figure_key == trial_figures()[f].key)
        return compare_over_trials(baseline_lane, baseline, candidate_lane, candidate, f, options);
    return std::nullopt;
  }
  for (const HeadlineFigure& f : headline_figures())
    if (figure_key == f.key)
      return compare_over_requests(baseline_lane, baseline, candidate_lane, candidate, f, options);
  return std::nullopt;
}

}  // namespace lb::metrics
