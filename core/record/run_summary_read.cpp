// summary.json into a RunSummary. Each level takes the members it types and leaves the others in
// its `more`; a member of the wrong type is noted and read as absent.
#include <initializer_list>

#include "core/record/run_summary.h"

namespace lb::record {
namespace {

using nlohmann::json;

// The members of OBJECT other than KEYS.
json members_except(const json& object, std::initializer_list<const char*> keys) {
  json out = json::object();
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items()) {
    bool typed = false;
    for (const char* k : keys) typed = typed || key == k;
    if (!typed) out[key] = value;
  }
  return out;
}

std::vector<std::string> strings_of(const json& parent, const std::string& path, const char* key,
                                    FileFields& f) {
  std::vector<std::string> out;
  const json& list = f.array(parent, path, key);
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].is_string())
      out.push_back(list[i].get<std::string>());
    else
      f.note(FileFields::item_path(path, key, i), "is not a string");
  }
  return out;
}

Interval read_interval(const json& j, const std::string& path, FileFields& f) {
  Interval i;
  i.lo = f.number(j, path, "lo", NAN);
  i.hi = f.number(j, path, "hi", NAN);
  i.level = f.number(j, path, "level", NAN);
  i.n = static_cast<int64_t>(f.number(j, path, "n", -1));
  i.basis = f.string(j, path, "basis");
  i.method = f.string(j, path, "method");
  i.more = members_except(j, {"lo", "hi", "level", "n", "basis", "method"});
  return i;
}

PhaseRecord read_phase(const std::string& name, const json& j, const std::string& path,
                       FileFields& f) {
  PhaseRecord p;
  p.name = name;
  p.figures = read_lane_summary(j, path, f, &p.more);
  // The phase writes back as the file had it: a figure member written otherwise is kept as it
  // was, one the file lacks is left out.
  const json written = j.is_object() ? metrics::to_json(p.figures) : json::object();
  for (const auto& [key, value] : written.items()) {
    const auto it = j.find(key);
    if (it == j.end())
      p.absent.push_back(key);
    else if (it->dump() != value.dump())
      p.more[key] = *it;
  }
  if (p.more.contains("intervals")) {
    const json& intervals = f.object(j, path, "intervals");
    for (const auto& [figure, value] : intervals.items()) {
      const std::string at = path + ".intervals." + figure;
      if (f.expect_object(value, at)) p.intervals[figure] = read_interval(value, at, f);
    }
    // An empty object stays in `more`: written back as it was.
    if (!p.intervals.empty()) p.more.erase("intervals");
  }
  // The energy and cost blocks stay in `more`, written back as they were; the numbers the
  // per-trial figures derive from are also read into the figures (docs/metrics.md, "Energy").
  if (p.more.contains("energy")) {
    const json& energy = f.object(j, path, "energy");
    if (energy.contains("joules"))
      p.figures.energy_joules = f.number(energy, path + ".energy", "joules", -1);
  }
  if (p.more.contains("cost"))
    p.figures.usd_per_hour = f.number(f.object(j, path, "cost"), path + ".cost", "usd_per_hour", 0);
  return p;
}

GateResult read_gate(const std::string& lane, const std::string& check, const json& j,
                     const std::string& path, FileFields& f) {
  GateResult g;
  g.lane_id = lane;
  g.check = check;
  g.status = gate_status_from(f.string(j, path, "status", {}, true));
  g.passed = static_cast<int64_t>(f.number(j, path, "passed", 0));
  g.attempts = static_cast<int64_t>(f.number(j, path, "attempts", 0));
  g.repeat = static_cast<int64_t>(f.number(j, path, "repeat", 0));
  g.score = f.string(j, path, "score");
  g.why = f.string(j, path, "why");
  const json& failures = f.array(j, path, "failures");
  for (size_t i = 0; i < failures.size(); ++i) {
    const std::string at = FileFields::item_path(path, "failures", i);
    if (!f.expect_object(failures[i], at)) continue;
    GateFailure failure;
    if (failures[i].contains("attempt"))
      failure.attempt = static_cast<int64_t>(f.number(failures[i], at, "attempt", 0));
    failure.why = f.string(failures[i], at, "why");
    failure.more = members_except(failures[i], {"attempt", "why"});
    g.failures.push_back(std::move(failure));
  }
  g.more =
      members_except(j, {"status", "passed", "attempts", "repeat", "score", "why", "failures"});
  return g;
}

LaneRecord read_lane(const std::string& id, const json& j, const std::string& path, FileFields& f) {
  LaneRecord lane;
  lane.id = id;
  const json& phases = f.object(j, path, "phases");
  std::vector<std::string> order = strings_of(j, path, "phase_order", f);
  if (order.empty())  // an older or hand-made file: the object's order
    for (const auto& [name, value] : phases.items()) order.push_back(name);
  for (const std::string& name : order) {
    const auto it = phases.find(name);
    if (it == phases.end()) {
      f.note(path + ".phase_order", "names \"" + name + "\", which has no phase");
      continue;
    }
    const std::string at = path + ".phases." + name;
    if (f.expect_object(*it, at)) lane.phases.push_back(read_phase(name, *it, at, f));
  }
  const json& gates = f.object(j, path, "gates");
  for (const auto& [check, value] : gates.items()) {
    const std::string at = path + ".gates." + check;
    if (f.expect_object(value, at)) lane.gates.push_back(read_gate(id, check, value, at, f));
  }
  lane.more = members_except(j, {"phases", "phase_order", "gates"});
  return lane;
}

metrics::Verdict verdict_from(const std::string& text) {
  for (metrics::Verdict v :
       {metrics::Verdict::Faster, metrics::Verdict::Slower, metrics::Verdict::WithinNoise})
    if (text == metrics::to_string(v)) return v;
  return metrics::Verdict::Unknown;
}

}  // namespace

Comparison read_comparison(const json& j, const std::string& path, FileFields& f) {
  Comparison c;
  c.baseline = f.string(j, path, "baseline");
  c.candidate = f.string(j, path, "candidate");
  c.phase = f.string(j, path, "phase");
  c.figure = f.string(j, path, "figure");
  c.label = f.string(j, path, "label");
  c.statement = f.string(j, path, "statement");
  c.ratio = f.number(j, path, "ratio", NAN);
  c.lo = f.number(j, path, "lo", NAN);
  c.hi = f.number(j, path, "hi", NAN);
  c.verdict = verdict_from(f.string(j, path, "verdict"));
  c.more = members_except(j, {"baseline", "candidate", "phase", "figure", "label", "statement",
                              "ratio", "lo", "hi", "verdict"});
  return c;
}

namespace {

ExperimentSection read_section(const json& j, const std::string& path, FileFields& f) {
  ExperimentSection s;
  s.name = f.string(j, path, "name");
  s.kind_name = f.string(j, path, "kind", {}, true);
  s.kind = experiment_kind_from(s.kind_name);
  if (!s.kind && !s.kind_name.empty())
    f.note(path + ".kind", "is \"" + s.kind_name + "\", a kind this version does not know");
  for (const auto& [id, lane] : f.object(j, path, "lanes").items()) {
    const std::string at = path + ".lanes." + id;
    if (f.expect_object(lane, at)) s.lanes.push_back(read_lane(id, lane, at, f));
  }
  // A regression's "comparisons" are its lane pairs' outcomes, not figure ratios: carried as
  // written for now.
  const bool pair_outcomes = s.kind && is_reviewable(*s.kind);
  const json& comparisons = pair_outcomes ? json::array() : f.array(j, path, "comparisons");
  for (size_t i = 0; i < comparisons.size(); ++i) {
    const std::string at = FileFields::item_path(path, "comparisons", i);
    if (f.expect_object(comparisons[i], at))
      s.comparisons.push_back(read_comparison(comparisons[i], at, f));
  }
  s.blockers = strings_of(j, path, "blockers", f);
  s.more = pair_outcomes ? members_except(j, {"name", "kind", "lanes", "blockers"})
                         : members_except(j, {"name", "kind", "lanes", "comparisons", "blockers"});
  // Kept as written: whether the file had an (empty) list is part of its bytes.
  for (const char* key : {"comparisons", "blockers"})
    if (j.contains(key) && j[key].is_array() && j[key].empty() && !s.more.contains(key))
      s.empty_lists.insert(key);
  return s;
}

RunHeader read_header(const json& j, FileFields& f) {
  RunHeader h;
  h.name = f.string(j, "run", "name");
  h.started_at = f.string(j, "run", "started_at");
  h.finished_at = f.string(j, "run", "finished_at");
  if (j.contains("interrupted") && j["interrupted"].is_boolean())
    h.interrupted = j["interrupted"].get<bool>();
  h.blockers = strings_of(j, "run", "blockers", f);
  h.more = members_except(j, {"name", "started_at", "finished_at", "interrupted", "blockers"});
  h.empty_blockers = j.contains("blockers") && j["blockers"].is_array() && j["blockers"].empty();
  return h;
}

}  // namespace

RunSummary read_run_summary(const json& summary, FileFields& f) {
  RunSummary out;
  if (!f.expect_object(summary, "")) return out;
  out.run = read_header(f.object(summary, "", "run"), f);
  const json& experiments = f.array(summary, "", "experiments");
  for (size_t i = 0; i < experiments.size(); ++i) {
    const std::string path = FileFields::item_path("", "experiments", i);
    if (f.expect_object(experiments[i], path))
      out.experiments.push_back(read_section(experiments[i], path, f));
  }
  out.more = members_except(summary, {"run", "experiments"});
  return out;
}

ExperimentSection read_experiment_section(const json& section, FileFields& f) {
  return f.expect_object(section, "") ? read_section(section, "", f) : ExperimentSection{};
}

LaneRecord read_lane_record(const std::string& lane_id, const json& lane, FileFields& f) {
  return f.expect_object(lane, lane_id) ? read_lane(lane_id, lane, lane_id, f)
                                        : LaneRecord{lane_id};
}

GateResult read_gate_result(const std::string& lane_id, const std::string& check, const json& gate,
                            const std::string& path, FileFields& fields) {
  return read_gate(lane_id, check, gate, path, fields);
}

RunSummary read_run_summary_text(std::string_view text, FileFields& f) {
  const json doc = f.parse_object(text);
  return doc.is_object() ? read_run_summary(doc, f) : RunSummary{};
}

}  // namespace lb::record
