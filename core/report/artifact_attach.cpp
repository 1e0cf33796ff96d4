#include "core/report/artifact_attach.h"

#include <filesystem>
#include <fstream>
#include <vector>

#include "core/files/confined_write.h"
#include "core/report/artifact_records.h"

namespace lb::report {

namespace fs = std::filesystem;

namespace {

// The lane ids of RUN_DIR's plan.json, in plan order; false with ERROR when RUN_DIR is not a run
// folder (no readable plan.json).
bool run_lane_ids(const std::string& run_dir, std::vector<std::string>& lanes, std::string* error) {
  lanes.clear();
  std::ifstream in(fs::path(run_dir) / "plan.json");
  const auto plan = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
  if (!plan.is_object()) {
    if (error) *error = run_dir + " is not a run folder (no readable plan.json)";
    return false;
  }
  const auto list = plan.find("lanes");
  if (list != plan.end() && list->is_array())
    for (const auto& lane : *list)
      if (lane.is_object() && lane.contains("id") && lane["id"].is_string())
        lanes.push_back(lane["id"].get<std::string>());
  return true;
}

}  // namespace

bool check_attach_target(const std::string& run_dir, const std::string& lane, std::string* error) {
  std::vector<std::string> lanes;
  if (!run_lane_ids(run_dir, lanes, error)) return false;
  std::string known;
  for (const auto& id : lanes) {
    if (id == lane) return true;
    known += (known.empty() ? "" : ", ") + id;
  }
  if (error) *error = run_dir + " has no lane '" + lane + "' (its lanes: " + known + ")";
  return false;
}

bool attach_verification(const std::string& run_dir, const std::string& lane,
                         const nlohmann::json& doc, std::string* path, std::string* error) {
  if (!check_attach_target(run_dir, lane, error)) return false;
  // The run folder may come from elsewhere: the file goes through its confined writer.
  const std::string name = artifact_file_name(lane);
  if (!files::write_confined(run_dir, name, doc.dump(2) + "\n", error)) return false;
  if (path) *path = (fs::path(run_dir) / name).string();
  return true;
}

}  // namespace lb::report
