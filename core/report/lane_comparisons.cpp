// Figures with their bootstrap intervals ("x [lo, hi]") and the table of lane comparisons, both
// read from the run's record (a phase's intervals, an experiment's comparisons).
#include <cmath>
#include <cstdio>

#include "core/metrics/trial_intervals.h"
#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

// "95 %" for 0.95.
std::string confidence_text(double level) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g %%", level * 100);
  return buf;
}

// The interval of `key` in a phase's summary, when it has one.
bool interval_of(const record::PhaseRecord* phase, const char* key, double& lo, double& hi) {
  const record::Interval* i = phase ? phase->interval(key) : nullptr;
  if (!i || !i->known() || i->lo < 0 || i->hi < 0) return false;
  lo = i->lo;
  hi = i->hi;
  return true;
}

// The figure an interval is about: over trials, the mean of the per-trial figures (its
// "estimate"); otherwise the phase's figure itself. NaN without the phase or the figure.
double figure_of(const record::PhaseRecord* phase, const char* key) {
  if (!phase) return NAN;
  if (const record::Interval* i = phase->interval(key); i && i->estimate() >= 0)
    return i->estimate();
  const metrics::TrialFigure* figure = metrics::find_trial_figure(key);
  return figure ? figure->of(phase->figures) : NAN;
}

std::string bracketed(const std::string& value, const std::string& lo, const std::string& hi) {
  return value + " [" + lo + ", " + hi + "]";
}

// "requests" or "trials": what the comparison's interval resamples.
std::string unit_of(const record::Comparison::Method& m) {
  return m.basis == "trials" ? "trials" : "requests";
}

double level_or_95(double level) { return std::isfinite(level) ? level : 0.95; }

std::string verdict_cell(const record::Comparison& c) {
  const record::Comparison::Method m = c.method();
  const std::string unit = unit_of(m);
  if (c.verdict == metrics::Verdict::Unknown) return "n/a (too few " + unit + " for an interval)";
  // Energy and cost improve without being faster: their own words ("less energy", "cheaper").
  std::string text = c.verdict == metrics::Verdict::WithinNoise
                         ? metrics::to_string(c.verdict)
                         : metrics::verdict_text(c.figure, c.verdict);
  text += " (" + confidence_text(level_or_95(m.level)) + ")";
  if (m.needed > 0)
    text += "; about " + format_number(m.needed, 0) + " " + unit + " per lane would resolve it";
  return text;
}

// "ratio [lo, hi]", the interval left out when it is not known.
std::string ratio_text(const record::Comparison& c) {
  std::string text = format_number(c.ratio, 3);
  if (c.ratio >= 0 && c.lo >= 0 && c.hi >= 0)
    text = bracketed(text, format_number(c.lo, 3), format_number(c.hi, 3));
  return text;
}

std::string named_title(const std::string& base, const record::ExperimentSection& experiment) {
  return base + (experiment.name.empty() ? std::string() : " (" + experiment.name + ")");
}

}  // namespace

std::pair<double, double> phase_interval(const record::PhaseRecord* phase, const char* key,
                                         double scale) {
  double lo = 0, hi = 0;
  if (!interval_of(phase, key, lo, hi)) return {std::nan(""), std::nan("")};
  return {lo * scale, hi * scale};
}

double phase_figure(const record::PhaseRecord* phase, const char* key) {
  return figure_of(phase, key);
}

std::string format_with_interval(const record::PhaseRecord* phase, const char* key, int decimals) {
  std::string value = format_number(figure_of(phase, key), decimals);
  double lo = 0, hi = 0;
  if (!interval_of(phase, key, lo, hi)) {
    const std::string why = phase ? phase->interval_unavailable(key) : std::string();
    return why.empty() ? value : value + " [" + why + "]";
  }
  return bracketed(value, format_number(lo, decimals), format_number(hi, decimals));
}

std::string format_seconds_with_interval(const record::PhaseRecord* phase, const char* key) {
  const double ms = figure_of(phase, key);
  double lo = 0, hi = 0;
  if (!(ms >= 0) || !interval_of(phase, key, lo, hi)) return format_seconds(ms);
  // The bounds in the figure's decimals, so the three numbers line up.
  const double s = ms / 1000;
  const int decimals = s >= 100 ? 1 : s >= 1 ? 2 : 3;
  return bracketed(format_number(s, decimals), format_number(lo / 1000, decimals),
                   format_number(hi / 1000, decimals));
}

ReportTable lane_comparisons_table(const record::ExperimentSection& experiment) {
  ReportTable t;
  t.title = named_title("Lane comparisons", experiment);
  t.header = {"Lanes", "Level", "Figure", "Ratio [interval]", "Verdict"};
  for (const record::Comparison& c : experiment.comparisons)
    t.rows.push_back(
        {c.candidate + "/" + c.baseline, c.phase, c.label, ratio_text(c), verdict_cell(c)});
  if (t.rows.empty()) return t;
  const record::Comparison::Method first = experiment.comparisons.front().method();
  const bool trials = unit_of(first) == "trials";
  t.note = "Ratio = candidate / baseline (the first lane), with its " +
           confidence_text(level_or_95(first.level)) + " interval: " +
           (trials ? "bootstrap over trials (expanded percentile, " +
                         format_number(first.n_baseline, 0) +
                         " trials per lane, the ratio of the per-trial figures' means), "
                   : first.name + " bootstrap over requests, ") +
           format_number(first.resamples, 0) +
           " resamples with a fixed seed. faster / slower (less / more energy, cheaper / dearer): "
           "the interval excludes 1, read for which way the figure improves; within noise: it "
           "contains 1." +
           (trials ? std::string() : " Aggregate output tok/s has no interval with one trial.");
  return t;
}

ReportTable performance_gates_table(const record::ExperimentSection& experiment) {
  ReportTable t;
  t.title = named_title("Performance gates", experiment);
  t.header = {"Lanes", "Level", "Figure", "Ratio [interval]", "Gate", "Outcome"};
  for (const record::PerformanceGateRecord& g : experiment.performance_gates()) {
    const std::string ratio = g.comparison ? ratio_text(*g.comparison) : format_number(NAN, 3);
    const std::string rule = g.rule == "max_ratio" ? "<= " : ">= ";
    std::string outcome = g.outcome;
    if (outcome == "inconclusive") {
      outcome += ": run more trials";
      if (g.trials_needed > 0)
        outcome += " (about " + format_number(g.trials_needed, 0) + " per lane)";
      else if (g.requests_needed > 0)
        outcome += " (with one trial, about " + format_number(g.requests_needed, 0) +
                   " requests per lane)";
    }
    t.rows.push_back({g.candidate + "/" + g.baseline, g.phase, g.figure, ratio,
                      rule + format_number(g.threshold, 3), outcome});
  }
  t.note =
      "A gate passes only when the ratio's whole 95 % interval clears its threshold and "
      "fails when the whole interval is on the wrong side; otherwise it is inconclusive. "
      "A gate that does not pass fails the run (exit 1).";
  return t;
}

}  // namespace lb::report
