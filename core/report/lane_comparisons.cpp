// Figures with their bootstrap intervals ("x [lo, hi]") and the table of lane comparisons, both
// read from summary.json (a phase's "intervals", an experiment's "comparisons").
#include <cmath>
#include <cstdio>

#include "core/metrics/trial_intervals.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

// "95 %" for 0.95.
std::string confidence_text(double level) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g %%", level * 100);
  return buf;
}

// The interval of `key` in a phase's summary, when it has one.
bool interval_of(const json& phase, const char* key, double& lo, double& hi) {
  const json& i = json_at(phase, {"intervals", key});
  lo = number_at(i, {"lo"}, -1);
  hi = number_at(i, {"hi"}, -1);
  return i.is_object() && lo >= 0 && hi >= 0;
}

// The figure an interval is about: over trials, the mean of the per-trial figures (its
// "estimate"); otherwise the phase's figure itself.
double figure_of(const json& phase, const char* key) {
  const double estimate = number_at(json_at(phase, {"intervals", key}), {"estimate"}, -1);
  return estimate >= 0 ? estimate : number_at(phase, {key});
}

std::string bracketed(const std::string& value, const std::string& lo, const std::string& hi) {
  return value + " [" + lo + ", " + hi + "]";
}

// "requests" or "trials": what the comparison's interval resamples.
std::string unit_of(const json& c) {
  return string_at(c, {"basis"}) == "trials" ? "trials" : "requests";
}

std::string verdict_cell(const json& c) {
  std::string verdict = string_at(c, {"verdict"});
  const std::string unit = unit_of(c);
  if (verdict.empty() || verdict == "n/a") return "n/a (too few " + unit + " for an interval)";
  // Energy and cost improve without being faster: their own words ("less energy", "cheaper").
  if (verdict == "faster" || verdict == "slower")
    verdict = metrics::verdict_text(string_at(c, {"figure"}), verdict == "faster"
                                                                  ? metrics::Verdict::Faster
                                                                  : metrics::Verdict::Slower);
  std::string text = verdict + " (" + confidence_text(number_at(c, {"level"}, 0.95)) + ")";
  const double needed = number_at(c, {(unit + "_needed").c_str()});
  if (needed > 0)
    text += "; about " + format_number(needed, 0) + " " + unit + " per lane would resolve it";
  return text;
}

}  // namespace

std::pair<double, double> phase_interval(const json& phase, const char* key, double scale) {
  double lo = 0, hi = 0;
  if (!interval_of(phase, key, lo, hi)) return {std::nan(""), std::nan("")};
  return {lo * scale, hi * scale};
}

std::string format_with_interval(const json& phase, const char* key, int decimals) {
  std::string value = format_number(figure_of(phase, key), decimals);
  double lo = 0, hi = 0;
  if (!interval_of(phase, key, lo, hi)) {
    const std::string why = string_at(phase, {"intervals_unavailable", key});
    return why.empty() ? value : value + " [" + why + "]";
  }
  return bracketed(value, format_number(lo, decimals), format_number(hi, decimals));
}

std::string format_seconds_with_interval(const json& phase, const char* key) {
  const double ms = figure_of(phase, key);
  double lo = 0, hi = 0;
  if (ms < 0 || !interval_of(phase, key, lo, hi)) return format_seconds(ms);
  // The bounds in the figure's decimals, so the three numbers line up.
  const double s = ms / 1000;
  const int decimals = s >= 100 ? 1 : s >= 1 ? 2 : 3;
  return bracketed(format_number(s, decimals), format_number(lo / 1000, decimals),
                   format_number(hi / 1000, decimals));
}

ReportTable lane_comparisons_table(const json& experiment) {
  ReportTable t;
  const std::string name = string_at(experiment, {"name"});
  t.title = "Lane comparisons" + (name.empty() ? std::string() : " (" + name + ")");
  t.header = {"Lanes", "Level", "Figure", "Ratio [interval]", "Verdict"};
  for (const json& c : json_at(experiment, {"comparisons"})) {
    const double ratio = number_at(c, {"ratio"}), lo = number_at(c, {"lo"}),
                 hi = number_at(c, {"hi"});
    std::string ratio_text = format_number(ratio, 3);
    if (ratio >= 0 && lo >= 0 && hi >= 0)
      ratio_text = bracketed(ratio_text, format_number(lo, 3), format_number(hi, 3));
    t.rows.push_back({string_at(c, {"candidate"}) + "/" + string_at(c, {"baseline"}),
                      string_at(c, {"phase"}), string_at(c, {"label"}), ratio_text,
                      verdict_cell(c)});
  }
  if (t.rows.empty()) return t;
  const json& first = *json_at(experiment, {"comparisons"}).begin();
  const bool trials = unit_of(first) == "trials";
  t.note = "Ratio = candidate / baseline (the first lane), with its " +
           confidence_text(number_at(first, {"level"}, 0.95)) + " interval: " +
           (trials ? "bootstrap over trials (expanded percentile, " +
                         format_number(number_at(first, {"n_baseline"}), 0) +
                         " trials per lane, the ratio of the per-trial figures' means), "
                   : string_at(first, {"method"}) + " bootstrap over requests, ") +
           format_number(number_at(first, {"resamples"}), 0) +
           " resamples with a fixed seed. faster / slower (less / more energy, cheaper / dearer): "
           "the interval excludes 1, read for which way the figure improves; within noise: it "
           "contains 1." +
           (trials ? std::string() : " Aggregate output tok/s has no interval with one trial.");
  return t;
}

ReportTable performance_gates_table(const json& experiment) {
  ReportTable t;
  const std::string name = string_at(experiment, {"name"});
  t.title = "Performance gates" + (name.empty() ? std::string() : " (" + name + ")");
  t.header = {"Lanes", "Level", "Figure", "Ratio [interval]", "Gate", "Outcome"};
  for (const json& g : json_at(experiment, {"performance_gates"})) {
    const json& c = json_at(g, {"comparison"});
    const double ratio = number_at(c, {"ratio"}), lo = number_at(c, {"lo"}),
                 hi = number_at(c, {"hi"});
    std::string ratio_text = format_number(ratio, 3);
    if (ratio >= 0 && lo >= 0 && hi >= 0)
      ratio_text = bracketed(ratio_text, format_number(lo, 3), format_number(hi, 3));
    const std::string rule = string_at(g, {"rule"}) == "max_ratio" ? "<= " : ">= ";
    std::string outcome = string_at(g, {"outcome"});
    if (outcome == "inconclusive") {
      outcome += ": run more trials";
      const double trials = number_at(g, {"trials_needed"});
      const double requests = number_at(g, {"requests_needed"});
      if (trials > 0)
        outcome += " (about " + format_number(trials, 0) + " per lane)";
      else if (requests > 0)
        outcome += " (with one trial, about " + format_number(requests, 0) + " requests per lane)";
    }
    t.rows.push_back({string_at(g, {"candidate"}) + "/" + string_at(g, {"baseline"}),
                      string_at(g, {"phase"}), string_at(g, {"figure"}), ratio_text,
                      rule + format_number(number_at(g, {"threshold"}), 3), outcome});
  }
  t.note =
      "A gate passes only when the ratio's whole 95 % interval clears its threshold and "
      "fails when the whole interval is on the wrong side; otherwise it is inconclusive. "
      "A gate that does not pass fails the run (exit 1).";
  return t;
}

}  // namespace lb::report
