#pragma once
// Running a plan against in-process simulator lanes ("sim:PROFILE?...") and finding one
// experiment's section of the summary, for the experiment tests.
#include <QtTest>
#include <string>

#include "collecting_sink.h"
#include "plan/plan.h"
#include "run/plan_runner.h"
#include "run/sim_lane_registry.h"
#include "run_folder_reader.h"
#include "sim/sim_lane.h"

namespace lb::test {

inline void register_sim_starter() {
  lb::run::set_sim_lane_starter([](std::string_view spec) {
    lb::sim::LaneStart start = lb::sim::start_lane(spec);
    lb::run::SimLaneResult result;
    result.error = std::move(start.error);
    result.base_url = std::move(start.base_url);
    if (result.error.empty())
      result.handle = std::make_shared<lb::sim::LaneHandle>(std::move(start.handle));
    return result;
  });
}

struct SimRun {
  lb::run::RunResult result;
  nlohmann::json summary;                // summary.json as written
  std::vector<nlohmann::json> requests;  // requests.jsonl, one object per line
  std::shared_ptr<CollectingSink> sink = std::make_shared<CollectingSink>();
  // The section of the experiment with that name (or kind).
  nlohmann::json experiment(const std::string& name) const {
    for (const auto& e : summary["experiments"])
      if (e.value("name", "") == name) return e;
    return nullptr;
  }
};

inline SimRun run_sim_plan(const nlohmann::json& plan_json, const std::string& dir_name) {
  register_sim_starter();
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  const auto dir = fresh_dir(dir_name);
  SimRun run;
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, *run.sink);
  run.result = runner.run(stop);
  run.summary = read_json(dir / "summary.json");
  run.requests = read_jsonl(dir / "requests.jsonl");
  std::filesystem::remove_all(dir);
  return run;
}

}  // namespace lb::test
