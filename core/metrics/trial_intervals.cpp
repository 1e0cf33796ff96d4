#include "core/metrics/trial_intervals.h"

#include <algorithm>
#include <cmath>

#include "core/metrics/bootstrap_random.h"

namespace lb::metrics {
namespace {

using nlohmann::json;

double finite_or_nan(double v) {
  return std::isfinite(v) && v >= 0 ? v : std::numeric_limits<double>::quiet_NaN();
}

// The density of Student's t with df degrees of freedom, integrated from 0 to x by Simpson's
// rule: smooth and bounded, so 2,000 panels are exact far beyond the digits used.
double student_t_half_cdf(double x, double df) {
  const double log_norm =
      std::lgamma((df + 1) / 2) - std::lgamma(df / 2) - 0.5 * std::log(df * std::numbers::pi);
  const auto density = [&](double t) {
    return std::exp(log_norm - (df + 1) / 2 * std::log1p(t * t / df));
  };
  constexpr int kPanels = 2000;
  const double h = x / kPanels;
  double sum = density(0) + density(x);
  for (int i = 1; i < kPanels; ++i) sum += density(i * h) * (i % 2 ? 4 : 2);
  return sum * h / 3;  // P(0 <= T <= x)
}

BootstrapOptions expanded(BootstrapOptions options, size_t n, double df) {
  options.method = BootstrapMethod::Percentile;
  if (n < 2 || df < 1) return options;
  const double z = std::sqrt(double(n) / double(n - 1)) * student_t_quantile(options.level, df);
  options.level = 1 - 2 * normal_cdf(-z);
  return options;
}

}  // namespace

const std::vector<TrialFigure>& trial_figures() {
  static const std::vector<TrialFigure> figures = {
      {"median_ttft_ms", "TTFT p50", [](const LaneSummary& s) { return s.ttft_ms.median; },
       Better::Lower},
      {"p99_ttft_ms", "TTFT p99", [](const LaneSummary& s) { return s.ttft_ms.p99; },
       Better::Lower},
      {"median_tpot_ms", "TPOT p50", [](const LaneSummary& s) { return s.tpot_ms.median; },
       Better::Lower},
      {"median_itl_ms", "ITL p50", [](const LaneSummary& s) { return s.itl_ms.median; },
       Better::Lower},
      {"median_e2el_ms", "E2EL p50", [](const LaneSummary& s) { return s.e2el_ms.median; },
       Better::Lower},
      {"p99_e2el_ms", "E2EL p99", [](const LaneSummary& s) { return s.e2el_ms.p99; },
       Better::Lower},
      {"median_decode_tok_s", "decode p50",
       [](const LaneSummary& s) { return s.decode_tok_s.median; }, Better::Higher},
      {"output_throughput", "output tok/s",
       [](const LaneSummary& s) { return s.completed > 0 ? s.output_throughput : -1.0; },
       Better::Higher},
      {"joules_per_output_token", "J/output token",
       [](const LaneSummary& s) {
         return s.energy_joules >= 0 && s.total_output_tokens > 0
                    ? s.energy_joules / static_cast<double>(s.total_output_tokens)
                    : -1.0;
       },
       Better::Lower, "less energy", "more energy"},
      {"usd_per_million_output_tokens", "$/1M output tokens",
       [](const LaneSummary& s) {
         return s.usd_per_hour > 0 && s.output_throughput > 0
                    ? s.usd_per_hour / 3600.0 / s.output_throughput * 1e6
                    : -1.0;
       },
       Better::Lower, "cheaper", "dearer"},
  };
  return figures;
}

const TrialFigure* find_trial_figure(const std::string& key) {
  for (const TrialFigure& f : trial_figures())
    if (key == f.key) return &f;
  return nullptr;
}

const char* verdict_text(const std::string& key, Verdict verdict) {
  if (const TrialFigure* f = find_trial_figure(key)) {
    if (verdict == Verdict::Faster && f->better_text) return f->better_text;
    if (verdict == Verdict::Slower && f->worse_text) return f->worse_text;
  }
  return to_string(verdict);
}

TrialValues trial_values(const LaneSummary& summary) {
  TrialValues out;
  for (const TrialFigure& f : trial_figures())
    out.push_back(summary.completed > 0 ? finite_or_nan(f.of(summary)) : finite_or_nan(-1));
  return out;
}

std::vector<double> figure_over_trials(const std::vector<TrialValues>& trials, size_t index) {
  std::vector<double> out;
  for (const TrialValues& t : trials)
    if (index < t.size() && std::isfinite(t[index])) out.push_back(t[index]);
  return out;
}

double student_t_quantile(double level, double df) {
  if (!(level > 0 && level < 1) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  double lo = 0, hi = 1;
  while (2 * student_t_half_cdf(hi, df) < level && hi < 1e6) hi *= 2;
  for (int i = 0; i < 80; ++i) {
    const double mid = (lo + hi) / 2;
    (2 * student_t_half_cdf(mid, df) < level ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double expanded_level(double level, size_t n) {
  return expanded(BootstrapOptions{.level = level}, n, double(n) - 1).level;
}

BootstrapInterval interval_over_trials(const std::vector<double>& values,
                                       const BootstrapOptions& options) {
  BootstrapInterval i =
      bootstrap_interval(values, BootstrapStatistic::mean(),
                         expanded(options, values.size(), double(values.size()) - 1));
  i.level = options.level;
  return i;
}

RatioInterval ratio_over_trials(const std::vector<double>& baseline,
                                const std::vector<double>& candidate,
                                const BootstrapOptions& options) {
  const size_t n = std::min(baseline.size(), candidate.size());
  const double df = double(baseline.size() + candidate.size()) - 2;
  RatioInterval r =
      bootstrap_ratio(baseline, candidate, BootstrapStatistic::mean(), expanded(options, n, df));
  r.level = options.level;
  return r;
}

std::vector<std::pair<std::string, BootstrapInterval>> intervals_over_trials(
    const std::vector<TrialValues>& trials, const BootstrapOptions& options) {
  std::vector<std::pair<std::string, BootstrapInterval>> out;
  const auto& figures = trial_figures();
  for (size_t f = 0; f < figures.size(); ++f) {
    const BootstrapInterval i = interval_over_trials(figure_over_trials(trials, f), options);
    if (i.valid()) out.emplace_back(figures[f].key, i);
  }
  return out;
}

json trial_figures_json(const std::vector<TrialValues>& trials,
                        const std::vector<int64_t>& trial_indexes) {
  json out = json::array();
  const auto& figures = trial_figures();
  for (size_t t = 0; t < trials.size(); ++t) {
    json row = {{"trial", t < trial_indexes.size() ? trial_indexes[t] : int64_t(t)}};
    for (size_t f = 0; f < figures.size() && f < trials[t].size(); ++f)
      row[figures[f].key] = std::isfinite(trials[t][f]) ? json(trials[t][f]) : json(nullptr);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace lb::metrics
