#include "core/run/folder/run_append.h"

#include <filesystem>
#include <set>

#include "core/files/regular_file.h"
#include "core/run/lanes/environment_info.h"

namespace lb::run {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxRunJsonBytes = 256 * files::kMiB;

std::optional<nlohmann::json> read_json_file(const fs::path& path, std::string* why) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    *why = path.filename().string() + " is missing";
    return std::nullopt;
  }
  const auto text = files::read_regular_file(path.string(), kMaxRunJsonBytes, why);
  if (!text) return std::nullopt;
  auto value = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded() || !value.is_object()) {
    *why = path.filename().string() + " is not a JSON object";
    return std::nullopt;
  }
  return value;
}

std::string string_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const nlohmann::json* lane_in(const nlohmann::json& plan_json, const std::string& id) {
  const auto lanes = plan_json.find("lanes");
  if (lanes == plan_json.end() || !lanes->is_array()) return nullptr;
  for (const auto& lane : *lanes)
    if (lane.is_object() && string_field(lane, "id") == id) return &lane;
  return nullptr;
}

std::set<std::string> experiment_names(const ExistingRun& run) {
  std::set<std::string> names;
  for (const nlohmann::json* source : {&run.plan, &run.summary}) {
    const auto list = source->find("experiments");
    if (list == source->end() || !list->is_array()) continue;
    for (const auto& e : *list)
      if (e.is_object()) names.insert(string_field(e, "name"));
  }
  names.erase(std::string());
  return names;
}

}  // namespace

std::optional<ExistingRun> read_existing_run(const std::string& dir, std::string* why) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *why = dir + " is not a run folder (it does not exist or is not a folder)";
    return std::nullopt;
  }
  ExistingRun run;
  run.dir = dir;
  std::string file_why;
  auto plan = read_json_file(fs::path(dir) / "plan.json", &file_why);
  if (!plan) {
    *why = dir + " is not a run folder LaneBench can add to: " + file_why;
    return std::nullopt;
  }
  auto summary = read_json_file(fs::path(dir) / "summary.json", &file_why);
  if (!summary) {
    *why = dir + " is not a run folder LaneBench can add to: " + file_why;
    return std::nullopt;
  }
  run.plan = std::move(*plan);
  run.summary = std::move(*summary);
  auto environment = read_json_file(fs::path(dir) / "environment.json", &file_why);
  run.environment = environment ? std::move(*environment) : nlohmann::json::object();
  return run;
}

bool fit_plan_into_run(plan::Plan& plan, const ExistingRun& run, std::vector<std::string>* notes,
                       std::string* why) {
  for (const plan::Lane& lane : plan.lanes) {
    const nlohmann::json* known = lane_in(run.plan, lane.id);
    if (!known) continue;
    if (string_field(*known, "base_url") != lane.base_url ||
        string_field(*known, "model") != lane.model) {
      *why = "lane " + lane.id + " of this run is model " + string_field(*known, "model") + " at " +
             string_field(*known, "base_url") + "; the one to add is model " + lane.model + " at " +
             lane.base_url + ": give it another id";
      return false;
    }
  }
  const auto kept = run.plan.find("experiments");
  for (const plan::Experiment& e : plan.experiments) {
    if (!record::is_reviewable(kind_of(e))) continue;
    if (kept == run.plan.end() || !kept->is_array()) break;
    for (const auto& old : *kept)
      if (old.is_object() && string_field(old, "kind") == e.kind) {
        *why = "the run already has a " + e.kind +
               " experiment; a second one would overwrite its texts and review file: run it "
               "into a new run folder";
        return false;
      }
  }
  std::set<std::string> taken = experiment_names(run);
  for (plan::Experiment& e : plan.experiments) {
    std::string name = e.name_or_kind();
    if (taken.count(name)) {
      std::string renamed;
      for (int n = 2; renamed.empty() || taken.count(renamed); ++n)
        renamed = name + "-" + std::to_string(n);
      if (notes)
        notes->push_back("the run already has an experiment named " + name + "; this one is " +
                         renamed);
      name = renamed;
    }
    e.name = name;
    taken.insert(name);
  }
  return true;
}

nlohmann::json appended_plan_json(const ExistingRun& run, const plan::Plan& plan) {
  nlohmann::json merged = run.plan;
  const nlohmann::json added = plan::resolved_plan_json(plan);
  if (!merged["lanes"].is_array()) merged["lanes"] = nlohmann::json::array();
  for (const auto& lane : added["lanes"])
    if (!lane_in(merged, string_field(lane, "id"))) merged["lanes"].push_back(lane);
  if (!merged["experiments"].is_array()) merged["experiments"] = nlohmann::json::array();
  for (const auto& e : added["experiments"]) merged["experiments"].push_back(e);
  return merged;
}

nlohmann::json appended_environment_json(const ExistingRun& run, const nlohmann::json& now,
                                         const std::vector<std::string>& experiments) {
  nlohmann::json merged = run.environment.is_object() ? run.environment : now;
  if (!merged["lanes"].is_object()) merged["lanes"] = nlohmann::json::object();
  const auto lanes = now.find("lanes");
  if (lanes != now.end() && lanes->is_object())
    for (const auto& [id, lane] : lanes->items())
      if (!merged["lanes"].contains(id)) merged["lanes"][id] = lane;
  if (!merged["additions"].is_array()) merged["additions"] = nlohmann::json::array();
  merged["additions"].push_back({{"at", utc_now_iso8601()},
                                 {"experiments", experiments},
                                 {"client", now.value("client", nlohmann::json())}});
  return merged;
}

}  // namespace lb::run
