#include "core/run/experiments/performance_gates.h"

#include <cmath>
#include <cstdio>

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

// The RatioInterval a comparison's JSON describes.
metrics::RatioInterval ratio_from(const json& c) {
  metrics::RatioInterval r;
  const auto num = [&](const char* k) {
    return c.contains(k) && c[k].is_number() ? c[k].get<double>() : metrics::RatioInterval::kNaN;
  };
  r.ratio = num("ratio");
  r.lo = num("lo");
  r.hi = num("hi");
  r.level = c.value("level", metrics::kDefaultConfidenceLevel);
  r.n_baseline = c.value("n_baseline", size_t{0});
  r.n_candidate = c.value("n_candidate", size_t{0});
  return r;
}

std::string statement(const plan::PerformanceGate& g, const std::string& phase, const json& c,
                      const PerfGateJudgement& j, const std::string& unit) {
  std::string s = g.candidate + "/" + g.baseline + " " + phase + " " + g.figure + " ";
  const bool has_ratio = !c.is_null() && c["ratio"].is_number();
  s += has_ratio ? fixed3(c["ratio"].get<double>()) : std::string("n/a");
  if (!c.is_null() && c["lo"].is_number() && c["hi"].is_number())
    s += " [" + fixed3(c["lo"].get<double>()) + ", " + fixed3(c["hi"].get<double>()) + "]";
  s += std::string(g.min_ratio > 0 ? " >= " : " <= ") + fixed3(threshold_of(g)) + ": ";
  if (j.outcome != PerfGateOutcome::Inconclusive) return s + to_string(j.outcome);
  s += "inconclusive: run more trials";
  if (c.is_null()) return s + " (the figure was not measured on both lanes)";
  if (j.needed > 0)
    s += unit == "trials" ? " (about " + std::to_string(j.needed) + " trials per lane)"
                          : " (with one trial, about " + std::to_string(j.needed) +
                                " requests per lane would settle it)";
  else if (!(c["lo"].is_number() && c["hi"].is_number()))
    s += " (too few " + unit + " for an interval)";
  return s;
}

json judge_one(const plan::PerformanceGate& g, const metrics::PhaseSamples& base,
               const metrics::PhaseSamples& cand, std::vector<std::string>& blockers) {
  const json c = metrics::compare_figure(g.baseline, base, g.candidate, cand, g.figure);
  PerfGateJudgement j;
  if (!c.is_null()) j = judge_gate(g, ratio_from(c));
  const std::string unit = c.is_null() ? "trials" : c.value("basis", std::string("requests"));
  json out = {{"figure", g.figure},
              {"candidate", g.candidate},
              {"baseline", g.baseline},
              {"phase", base.phase},
              {"threshold", threshold_of(g)},
              {"rule", g.min_ratio > 0 ? "min_ratio" : "max_ratio"},
              {"outcome", to_string(j.outcome)},
              {"comparison", c},
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
