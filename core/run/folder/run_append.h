#pragma once
// Adding experiments to a run folder that already holds a finished (or stopped) run, so that one
// qualification can grow one experiment at a time and still be one run: one plan.json, one
// summary.json, one requests.jsonl. The run's earlier experiments, requests and files are kept
// as they are; the new experiments are appended, renamed when their name is already taken.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/plan/plan.h"

namespace lb::run {

struct ExistingRun {
  std::string dir;
  nlohmann::json plan;         // plan.json as written
  nlohmann::json summary;      // summary.json as written
  nlohmann::json environment;  // environment.json (an empty object when missing)
};

// Reads DIR's plan.json and summary.json. Fills *why when DIR is not a run folder LaneBench can
// add to: missing, not a folder, or without a readable plan.json and summary.json.
std::optional<ExistingRun> read_existing_run(const std::string& dir, std::string* why);

// Makes PLAN fit into RUN: a lane id both know must name the same server and model (else
// *why); an experiment whose name the run already uses is renamed NAME-2, NAME-3, ... and each
// rename is described in *notes. Returns false with *why when the plan cannot be added.
bool fit_plan_into_run(plan::Plan& plan, const ExistingRun& run, std::vector<std::string>* notes,
                       std::string* why);

// The run's plan.json with PLAN's new lanes and its experiments appended.
nlohmann::json appended_plan_json(const ExistingRun& run, const plan::Plan& plan);
// The run's environment.json with the lanes it did not know yet, and a record of this addition.
nlohmann::json appended_environment_json(const ExistingRun& run, const nlohmann::json& now,
                                         const std::vector<std::string>& experiments);

}  // namespace lb::run
