// A RunSummary back into summary.json: each level's typed members over its `more`.
#include "core/record/json_number.h"
#include "core/record/run_summary.h"

namespace lb::record {
namespace {

using nlohmann::json;

}  // namespace

json to_json(const Interval& i) {
  json j = i.more;
  j["lo"] = number_or_null(i.lo);
  j["hi"] = number_or_null(i.hi);
  if (!std::isnan(i.level)) j["level"] = i.level;
  if (i.n >= 0) j["n"] = i.n;
  if (!i.basis.empty()) j["basis"] = i.basis;
  if (!i.method.empty()) j["method"] = i.method;
  return j;
}

json to_json(const Comparison& c) {
  json j = c.more;
  j["baseline"] = c.baseline;
  j["candidate"] = c.candidate;
  j["phase"] = c.phase;
  j["figure"] = c.figure;
  j["label"] = c.label;
  j["statement"] = c.statement;
  j["ratio"] = number_or_null(c.ratio);
  j["lo"] = number_or_null(c.lo);
  j["hi"] = number_or_null(c.hi);
  j["verdict"] = metrics::to_string(c.verdict);
  return j;
}

json to_json(const PhaseRecord& p) {
  json j = metrics::to_json(p.figures);
  for (const std::string& key : p.absent) j.erase(key);
  for (const auto& [key, value] : p.more.items()) j[key] = value;
  if (!p.intervals.empty()) {
    json intervals = json::object();
    for (const auto& [figure, interval] : p.intervals) intervals[figure] = to_json(interval);
    j["intervals"] = std::move(intervals);
  }
  return j;
}

namespace {

json to_json(const LaneRecord& lane) {
  json j = lane.more;
  if (!lane.phases.empty()) {
    json phases = json::object(), order = json::array();
    for (const PhaseRecord& p : lane.phases) {
      phases[p.name] = to_json(p);
      order.push_back(p.name);
    }
    j["phases"] = std::move(phases);
    j["phase_order"] = std::move(order);
  }
  if (!lane.gates.empty()) {
    json gates = json::object();
    for (const GateResult& g : lane.gates) gates[g.check] = to_json(g);
    j["gates"] = std::move(gates);
  }
  return j;
}

json strings_json(const std::vector<std::string>& list) {
  json out = json::array();
  for (const std::string& s : list) out.push_back(s);
  return out;
}

json to_json(const RunHeader& h) {
  json j = h.more;
  j["name"] = h.name;
  if (!h.started_at.empty()) j["started_at"] = h.started_at;
  if (!h.finished_at.empty()) j["finished_at"] = h.finished_at;
  if (h.interrupted) j["interrupted"] = *h.interrupted;
  if (!h.blockers.empty() || h.empty_blockers) j["blockers"] = strings_json(h.blockers);
  return j;
}

}  // namespace

json to_json(const GateResult& g) {
  json j = g.more;
  j["status"] = to_string(g.status);
  j["passed"] = g.passed;
  j["attempts"] = g.attempts;
  j["repeat"] = g.repeat;
  j["score"] = g.score;
  if (!g.why.empty()) j["why"] = g.why;
  if (!g.failures.empty()) {
    json failures = json::array();
    for (const GateFailure& f : g.failures) {
      json entry = f.more;
      if (f.attempt) entry["attempt"] = *f.attempt;
      entry["why"] = f.why;
      failures.push_back(std::move(entry));
    }
    j["failures"] = std::move(failures);
  }
  return j;
}

json to_json(const ExperimentSection& s) {
  json j = s.more;
  j["name"] = s.name;
  j["kind"] = s.kind ? std::string(to_string(*s.kind)) : s.kind_name;
  json lanes = json::object();
  for (const LaneRecord& lane : s.lanes) lanes[lane.id] = to_json(lane);
  if (!s.lanes.empty()) j["lanes"] = std::move(lanes);
  if (!s.comparisons.empty() || s.empty_lists.count("comparisons")) {
    json list = json::array();
    for (const Comparison& c : s.comparisons) list.push_back(to_json(c));
    j["comparisons"] = std::move(list);
  }
  if (!s.blockers.empty() || s.empty_lists.count("blockers"))
    j["blockers"] = strings_json(s.blockers);
  return j;
}

json to_json(const RunSummary& summary) {
  json j = summary.more;
  j["run"] = to_json(summary.run);
  json experiments = json::array();
  for (const ExperimentSection& s : summary.experiments) experiments.push_back(to_json(s));
  j["experiments"] = std::move(experiments);
  return j;
}

}  // namespace lb::record
