#include "core/record/regression_inputs.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/record/experiment_kind.h"
#include "core/record/file_fields.h"
#include "core/record/json_object_file.h"

namespace lb::record {
namespace {

using nlohmann::json;

// The text of DIR/NAME; nullopt when it does not exist (a run without a summary yet is not
// damaged), and noted when it cannot be read.
std::optional<std::string> read_text(const std::string& dir, const char* name, FileFields& f) {
  std::string error;
  auto text = read_run_file(dir, name, &error);
  if (!error.empty()) f.note({}, "cannot be read (" + error + ")");
  return text;
}

void read_regression(const json& plan, FileFields& f, RegressionPlanInputs& out) {
  const json& experiments = f.array(plan, "", "experiments");
  for (size_t i = 0; i < experiments.size(); ++i) {
    const std::string path = FileFields::item_path("", "experiments", i);
    const json& e = experiments[i];
    if (!f.expect_object(e, path) ||
        experiment_kind_from(f.string(e, path, "kind", {}, true)) != ExperimentKind::Regression)
      continue;
    if (!out.prompt_set_ref.empty()) continue;  // the first regression is the one reviewed
    out.prompt_set_ref = f.string(e, path, "prompts", "builtin:regression-20");
    const double threshold = f.number(e, path, "similarity_threshold", NAN);
    if (!std::isnan(threshold)) out.similarity_threshold = threshold;
  }
}

void read_load_baseline(const json& lanes, const std::string& path, FileFields& f,
                        std::map<std::string, std::set<size_t>>& out) {
  for (const auto& [lane, section] : lanes.items()) {
    const std::string at = path + ".lanes." + lane;
    if (!f.expect_object(section, at)) continue;
    const json& baseline = f.object(section, at, "load_baseline");
    if (!baseline.contains("batch_variant")) continue;
    auto& indexes = out[lane];
    for (const auto& v : f.array(baseline, at + ".load_baseline", "batch_variant"))
      if (v.is_object() && v.contains("index") && v["index"].is_number_unsigned())
        indexes.insert(v["index"].get<size_t>());
  }
}

}  // namespace

RegressionPlanInputs read_regression_plan_inputs(const std::string& dir, const std::string& label) {
  RegressionPlanInputs out;
  FileFields f(label);
  if (const auto text = read_text(dir, "plan.json", f)) {
    const json plan = f.parse_object(*text);
    const json& lanes = f.array(plan, "", "lanes");
    for (size_t i = 0; i < lanes.size(); ++i) {
      const std::string path = FileFields::item_path("", "lanes", i);
      if (!f.expect_object(lanes[i], path)) continue;
      const std::string id = f.string(lanes[i], path, "id", {}, true);
      if (!id.empty()) out.lanes.push_back(id);
    }
    read_regression(plan, f, out);
  }
  out.damage = f.damage();
  return out;
}

std::map<std::string, std::set<size_t>> read_batch_variant_prompts(
    const std::string& dir, std::vector<std::string>& damage) {
  std::map<std::string, std::set<size_t>> out;
  FileFields f("summary.json");
  if (const auto text = read_text(dir, "summary.json", f)) {
    const json summary = f.parse_object(*text);
    const json& experiments = f.array(summary, "", "experiments");
    for (size_t i = 0; i < experiments.size(); ++i) {
      const std::string path = FileFields::item_path("", "experiments", i);
      const json& e = experiments[i];
      if (!f.expect_object(e, path) ||
          experiment_kind_from(f.string(e, path, "kind")) != ExperimentKind::Regression)
        continue;
      read_load_baseline(f.object(e, path, "lanes"), path, f, out);
      break;
    }
  }
  damage.insert(damage.end(), f.damage().begin(), f.damage().end());
  return out;
}

}  // namespace lb::record
