#include "core/fleet/merged_summary.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/fleet/split_lane.h"
#include "core/metrics/trial_intervals.h"
#include "core/record/run_summary.h"
#include "core/run/experiments/experiment.h"
#include "core/run/experiments/performance_gates.h"
#include "core/run/experiments/regression_experiment.h"
#include "core/run/experiments/sweeps_section.h"
#include "core/run/plan_runner.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;

std::string text_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// The earlier (or later) of two ISO 8601 UTC stamps of the same form; "" counts as unknown.
std::string earlier(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : std::min(a, b);
}
std::string later(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : std::max(a, b);
}

void append_strings(json& to, const json& from) {
  if (!to.is_array()) to = json::array();
  if (!from.is_array()) return;
  for (const json& s : from)
    if (s.is_string() && std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
}

// The per-trial figures a phase recorded ("trials": [{"trial": 0, "median_ttft_ms": ...}]).
std::vector<metrics::TrialValues> trials_of(const json& phase) {
  std::vector<metrics::TrialValues> out;
  if (!phase.contains("trials") || !phase["trials"].is_array()) return out;
  for (const json& row : phase["trials"]) {
    metrics::TrialValues values;
    for (const auto& figure : metrics::trial_figures()) {
      const auto it = row.is_object() ? row.find(figure.key) : row.end();
      values.push_back(it != row.end() && it->is_number() ? it->get<double>() : NAN);
    }
    out.push_back(std::move(values));
  }
  return out;
}

// Each phase's values, lane by lane in plan order, for the comparisons and performance gates.
std::vector<metrics::PhaseSamples> samples_of(const std::string& experiment, const json& section,
                                              const std::vector<std::string>& lane_ids,
                                              const MergedRequests& requests,
                                              std::vector<std::string>& ids_with_values) {
  std::vector<metrics::PhaseSamples> out;
  const json lanes = section.value("lanes", json::object());
  for (const std::string& id : lane_ids) {
    if (!lanes.contains(id)) continue;
    bool any = false;
    for (const std::string& phase : record::phase_names_in_order(lanes[id])) {
      const auto it = requests.samples.find({experiment, id, phase});
      metrics::PhaseSamples p{id, phase, {}, trials_of(lanes[id]["phases"][phase])};
      if (it != requests.samples.end()) p.samples = it->second;
      out.push_back(std::move(p));
      any = true;
    }
    if (any) ids_with_values.push_back(id);
  }
  return out;
}

// Each shard's lane turns of a performance experiment's trials, in shard order.
void append_turns(json& out, const json& s) {
  const json trials = s.value("trials", json());
  const json turns = trials.is_object() ? trials.value("turns", json()) : json();
  if (!turns.is_array() || !out.contains("trials") || !out["trials"].is_object()) return;
  json& to = out["trials"]["turns"];
  if (!to.is_array()) return;
  // A split lane's clients each ran the lane's turn: it is one turn.
  for (const json& t : turns)
    if (std::find(to.begin(), to.end(), t) == to.end()) to.push_back(t);
}

// A later shard's section: its trials' turns, and what only its lane's run recorded at the top
// of the section (a regression's floor, measured in the baseline's shard).
void join_other_keys(json& out, const json& s) {
  append_turns(out, s);
  for (const auto& [key, value] : s.items())
    if (!out.contains(key) && key != "comparisons" && key != "performance_gates") out[key] = value;
}

// Experiment I's section as one shard wrote it (null when the shard has none).
const json& section_of(const ShardFolder& shard, size_t i) {
  static const json none;
  const auto it = shard.summary.find("experiments");
  if (it == shard.summary.end() || !it->is_array() || i >= it->size()) return none;
  const json& section = (*it)[i];
  return section.is_object() ? section : none;
}

// Whether a shard ran experiment I on any lane (a shard whose lane the experiment does not name
// records it too, as not run).
bool ran_lanes(const json& section) {
  const auto it = section.find("lanes");
  return it != section.end() && it->is_object() && !it->empty();
}

// A status that says more wins: interrupted over done over not run.
int status_rank(const std::string& status) {
  return status == "interrupted" ? 3 : status == "done" ? 2 : status.empty() ? 0 : 1;
}

// The shards' sections of experiment I as one: every lane whole from its shard. Shards that ran
// none of its lanes count only when none ran any.
json joined_section(const std::vector<ShardFolder>& shards, size_t i) {
  json out;
  const bool any_ran = std::any_of(shards.begin(), shards.end(), [&](const ShardFolder& s) {
    return ran_lanes(section_of(s, i));
  });
  for (const ShardFolder& shard : shards) {
    const json& s = section_of(shard, i);
    if (s.is_null() || (any_ran && !ran_lanes(s))) continue;
    if (out.is_null()) {
      out = s;
      out["lanes"] = json::object();
      out["blockers"] = json::array();
      out.erase("comparisons");
      out.erase("performance_gates");
    } else
      join_other_keys(out, s);
    if (s.contains("lanes") && s["lanes"].is_object())
      for (const auto& [lane, value] : s["lanes"].items()) out["lanes"][lane] = value;
    append_strings(out["blockers"], s.value("blockers", json()));
    out["started_at"] = earlier(text_at(out, "started_at"), text_at(s, "started_at"));
    out["finished_at"] = later(text_at(out, "finished_at"), text_at(s, "finished_at"));
    if (status_rank(text_at(s, "status")) > status_rank(text_at(out, "status")))
      out["status"] = s["status"];
  }
  if (!out.is_null() && out["blockers"].empty()) out.erase("blockers");
  return out;
}

// The experiment's lanes in plan order (every lane when it names none).
std::vector<std::string> lane_ids_of(const plan::Plan& plan, const plan::Experiment& spec) {
  std::vector<std::string> ids;
  for (const auto& lane : plan.lanes)
    if (spec.runs_on(lane.id)) ids.push_back(lane.id);
  return ids;
}

// The split lane's objects in experiment I's sections of the shards that loaded it, in order.
std::vector<json> split_clients(const std::vector<ShardFolder>& shards, size_t i,
                                const std::string& lane) {
  std::vector<json> out;
  for (const ShardFolder& shard : shards) {
    const json& s = section_of(shard, i);
    if (s.contains("lanes") && s["lanes"].is_object() && s["lanes"].contains(lane) &&
        s["lanes"][lane].is_object())
      out.push_back(s["lanes"][lane]);
  }
  return out;
}

json shards_json(const std::vector<ShardFolder>& shards) {
  json out = json::array();
  for (const ShardFolder& s : shards) {
    json one = {{"index", s.index},
                {"host", s.host},
                {"folder", std::filesystem::path(s.dir).filename().string()},
                {"lanes", s.lanes}};
    if (s.split_clients > 1)
      one["split"] = {{"client", s.split_client}, {"clients", s.split_clients}};
    if (s.clock_offset_ms) {
      one["clock_offset_ms"] = *s.clock_offset_ms;
      one["clock_uncertainty_ms"] = s.clock_uncertainty_ms;
    }
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace

MergedSummary merged_summary(const plan::SweptPlan& swept, const std::vector<ShardFolder>& shards,
                             const MergedRequests& requests, const std::vector<int64_t>& missing,
                             const std::string& out_dir, std::vector<std::string>& notes) {
  const plan::Plan& plan = swept.plan;
  MergedSummary out;
  json& summary = out.summary;
  json run = {{"name", plan.name}, {"interrupted", false}};
  json blockers = json::array();
  json server_failures = json::array();
  std::string started, finished;
  for (const ShardFolder& s : shards) {
    const json r = s.summary.value("run", json::object());
    started = earlier(started, text_at(r, "started_at"));
    finished = later(finished, text_at(r, "finished_at"));
    append_strings(blockers, r.value("blockers", json()));
    if (r.contains("server_failures")) append_strings(server_failures, r["server_failures"]);
    if (s.summary.contains("servers") && s.summary["servers"].is_object())
      for (const auto& [id, server] : s.summary["servers"].items()) summary["servers"][id] = server;
  }
  run["started_at"] = started;
  run["finished_at"] = finished;
  summary["experiments"] = json::array();
  const std::set<ExperimentLane> split = split_pairs(plan);
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    const plan::Experiment& spec = plan.experiments[i];
    json section = joined_section(shards, i);
    if (section.is_null()) {
      section = {{"name", spec.name_or_kind()}, {"kind", spec.kind}, {"status", "not_run"}};
      summary["experiments"].push_back(std::move(section));
      continue;
    }
    if (plan.split && split.count({text_at(section, "name"), plan.split->lane}))
      if (auto clients = split_clients(shards, i, plan.split->lane); !clients.empty())
        section["lanes"][plan.split->lane] =
            split_lane_json(spec, plan.split->lane, clients, requests);
    std::vector<std::string> ids;
    const std::vector<std::string> lanes = lane_ids_of(plan, spec);
    const auto samples = samples_of(text_at(section, "name"), section, lanes, requests, ids);
    // Every lane is compared with the experiment's first: without it (a partial merge) nothing
    // is compared, rather than another lane taking its place.
    const bool has_baseline = !lanes.empty() && !ids.empty() && ids.front() == lanes.front();
    if (!has_baseline && lanes.size() > 1) {
      notes.push_back("experiment " + text_at(section, "name") + ": its baseline lane " +
                      (lanes.empty() ? std::string() : lanes.front()) +
                      " is missing, so its lanes are not compared");
      section["not_compared"] = "the baseline lane's shard is missing";
    }
    if (has_baseline) run::add_lane_comparisons(run::kind_of(spec), ids, samples, section);
    if (has_baseline && run::kind_of(spec) == record::ExperimentKind::Regression)
      for (const std::string& why :
           run::judge_merged_regression(plan, spec, out_dir, section, notes)) {
        section["blockers"].push_back(why);
        blockers.push_back(why);
      }
    if (!spec.performance_gates.empty()) {
      run::GateJudgements judged =
          run::judge_performance_gates(spec.performance_gates, samples, false);
      section["performance_gates"] = std::move(judged.judged);
      for (const std::string& why : judged.blockers) {
        section["blockers"].push_back(why);
        blockers.push_back(why);
      }
    }
    summary["experiments"].push_back(std::move(section));
  }
  run["blockers"] = blockers;
  // A managed server that failed in a shard fails the merged run too, as it fails one process's.
  if (!server_failures.empty()) run["server_failures"] = server_failures;
  summary["run"] = std::move(run);
  summary["shards"] = shards_json(shards);
  if (!missing.empty())
    summary["run"]["partial"] = {{"missing_shards", missing},
                                 {"of", shards.empty() ? 0 : shards.front().count}};
  if (!swept.points.empty()) summary["sweeps"] = run::sweep_summary_json(swept, summary);
  out.blocked = !blockers.empty() || !server_failures.empty();
  return out;
}

json merged_environment(const std::vector<ShardFolder>& shards) {
  json out = shards.empty() ? json::object() : shards.front().environment;
  if (!out.is_object()) out = json::object();
  for (const ShardFolder& s : shards) {
    const json lanes = s.environment.is_object() ? s.environment.value("lanes", json()) : json();
    if (lanes.is_object())
      for (const auto& [id, lane] : lanes.items()) out["lanes"][id] = lane;
  }
  out["shards"] = shards_json(shards);
  return out;
}

}  // namespace lb::fleet
