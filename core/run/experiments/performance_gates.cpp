#include "core/run/experiments/performance_gates.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "core/record/figure_comparison.h"

namespace lb::run {
namespace {

using nlohmann::json;

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

double threshold_of(const plan::PerformanceGate& g) {
  return g.min_ratio > 0 ? g.min_ratio : g.max_ratio;
}

const metrics::PhaseSamples* find(const std::vector<metrics::PhaseSamples>& phases,
                                  const std::string& lane, const std::string& phase) {
  const metrics::PhaseSamples* found = nullptr;
  for (const auto& p : phases)
    if (p.lane == lane && p.phase == phase) found = &p;
  return found;
}

std::string statement(const plan::PerformanceGate& g, const std::string& phase,
                      const std::optional<metrics::FigureComparison>& c, const PerfGateJudgement& j,
                      const std::string& unit) {
  std::string s = g.candidate + "/" + g.baseline + " " + phase + " " + g.figure + " ";
  const bool has_ratio = c && std::isfinite(c->ratio.ratio);
  s += has_ratio ? fixed3(c->ratio.ratio) : std::string("n/a");
  if (c && c->ratio.valid()) s += " [" + fixed3(c->ratio.lo) + ", " + fixed3(c->ratio.hi) + "]";
  s += std::string(g.min_ratio > 0 ? " >= " : " <= ") + fixed3(threshold_of(g)) + ": ";
  if (j.outcome != PerfGateOutcome::Inconclusive) return s + to_string(j.outcome);
  s += "inconclusive: run more trials";
  if (!c) return s + " (the figure was not measured on both lanes)";
  if (j.needed > 0)
    s += unit == "trials" ? " (about " + std::to_string(j.needed) + " trials per lane)"
                          : " (with one trial, about " + std::to_string(j.needed) +
                                " requests per lane would settle it)";
  else if (!c->ratio.valid())
    s += " (too few " + unit + " for an interval)";
  return s;
}

json judge_one(const plan::PerformanceGate& g, const metrics::PhaseSamples& base,
               const metrics::PhaseSamples& cand, std::vector<std::string>& blockers) {
  const std::optional<metrics::FigureComparison> c =
      metrics::compare_figure(g.baseline, base, g.candidate, cand, g.figure);
  PerfGateJudgement j;
  if (c) j = judge_gate(g, c->ratio);
  const std::string unit = c ? c->basis() : "trials";
  json out = {{"figure", g.figure},
              {"candidate", g.candidate},
              {"baseline", g.baseline},
              {"phase", base.phase},
              {"threshold", threshold_of(g)},
              {"rule", g.min_ratio > 0 ? "min_ratio" : "max_ratio"},
              {"outcome", to_string(j.outcome)},
              {"comparison", c ? record::to_json(record::comparison_of(*c)) : json(nullptr)},
              {unit + "_needed", j.needed > 0 ? json(j.needed) : json(nullptr)},
              {"statement", statement(g, base.phase, c, j, unit)}};
  if (j.outcome != PerfGateOutcome::Pass)
    blockers.push_back("performance gate " + out["statement"].get<std::string>());
  return out;
}

}  // namespace

const char* to_string(PerfGateOutcome outcome) {
  switch (outcome) {
    case PerfGateOutcome::Pass:
      return "pass";
    case PerfGateOutcome::Fail:
      return "fail";
    case PerfGateOutcome::Inconclusive:
      break;
  }
  return "inconclusive";
}

PerfGateJudgement judge_gate(const plan::PerformanceGate& g, const metrics::RatioInterval& r) {
  PerfGateJudgement j;
  const double t = threshold_of(g);
  if (!r.valid() || !(t > 0)) return j;
  const bool at_least = g.min_ratio > 0;
  if (at_least ? r.lo >= t : r.hi <= t)
    j.outcome = PerfGateOutcome::Pass;
  else if (at_least ? r.hi < t : r.lo > t)
    j.outcome = PerfGateOutcome::Fail;
  if (j.outcome != PerfGateOutcome::Inconclusive) return j;
  // The interval straddles the threshold: seen relative to it, it is a ratio straddling 1, and
  // samples_needed estimates how many values would make it clear 1 if the ratio held.
  metrics::RatioInterval scaled = r;
  scaled.ratio = r.ratio / t;
  scaled.lo = r.lo / t;
  scaled.hi = r.hi / t;
  j.needed = metrics::samples_needed(scaled);
  return j;
}

GateJudgements judge_performance_gates(const std::vector<plan::PerformanceGate>& gates,
                                       const std::vector<metrics::PhaseSamples>& samples,
                                       bool stopped) {
  GateJudgements out;
  for (const plan::PerformanceGate& g : gates) {
    bool judged = false;
    for (const metrics::PhaseSamples& base : samples) {
      if (base.lane != g.baseline || (!g.phase.empty() && base.phase != g.phase)) continue;
      if (find(samples, g.baseline, base.phase) != &base) continue;
      const metrics::PhaseSamples* cand = find(samples, g.candidate, base.phase);
      if (!cand) continue;
      out.judged.push_back(judge_one(g, base, *cand, out.blockers));
      judged = true;
    }
    if (!judged && !stopped)
      out.blockers.push_back("performance gate " + g.candidate + "/" + g.baseline + " " + g.figure +
                             (g.phase.empty() ? "" : " " + g.phase) +
                             ": inconclusive: no phase was measured on both lanes");
  }
  return out;
}

void judge_performance_gates(ExperimentContext& ctx) {
  const auto& gates = ctx.spec().performance_gates;
  if (gates.empty()) return;
  GateJudgements out = judge_performance_gates(gates, ctx.phase_samples(), ctx.stopped());
  for (const std::string& why : out.blockers) ctx.flag_blocker(why);
  ctx.section()["performance_gates"] = std::move(out.judged);
}

}  // namespace lb::run
