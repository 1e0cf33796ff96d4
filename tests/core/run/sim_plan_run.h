#pragma once
// Running a plan against in-process simulator lanes ("sim:PROFILE?...") and finding one
// experiment's section of the summary, for the experiment tests.
#include <QtTest>
#include <map>
#include <string>

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/run/launch/sim_lane_registry.h"
#include "core/run/plan_runner.h"
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
  nlohmann::json summary;                       // summary.json as written
  std::vector<nlohmann::json> requests;         // requests.jsonl, one object per line
  nlohmann::json tokens;                        // tokens.json when the run wrote one, else null
  std::map<std::string, nlohmann::json> texts;  // texts/<lane>.texts.json by lane
  std::shared_ptr<CollectingSink> sink = std::make_shared<CollectingSink>();
  // The section of the experiment with that name (or kind).
  nlohmann::json experiment(const std::string& name) const {
    for (const auto& e : summary["experiments"])
      if (e.value("name", "") == name) return e;
    return nullptr;
  }
};

// Runs a plan as parsed (or loaded from its file) on simulator lanes into a fresh folder.
inline SimRun run_sim_plan(const lb::plan::Plan& plan, const std::string& dir_name) {
  register_sim_starter();
  const auto dir = fresh_dir(dir_name);
  SimRun run;
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(plan, {dir.string(), "test", false}, *run.sink);
  run.result = runner.run(stop);
  run.summary = read_json(dir / "summary.json");
  run.requests = read_jsonl(dir / "requests.jsonl");
  if (std::filesystem::exists(dir / "tokens.json")) run.tokens = read_json(dir / "tokens.json");
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(dir / "texts", ec)) {
    const std::string name = f.path().filename().string();
    const std::string suffix = ".texts.json";
    if (name.size() > suffix.size() && name.ends_with(suffix) &&
        name.find(".load-c") == std::string::npos)
      run.texts[name.substr(0, name.size() - suffix.size())] = read_json(f.path());
  }
  std::filesystem::remove_all(dir);
  return run;
}

inline SimRun run_sim_plan(const nlohmann::json& plan_json, const std::string& dir_name) {
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  return run_sim_plan(*parsed.plan, dir_name);
}

}  // namespace lb::test
