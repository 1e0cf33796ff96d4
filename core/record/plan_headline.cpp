#include "core/record/plan_headline.h"

#include <nlohmann/json.hpp>

#include "core/record/experiment_kind.h"
#include "core/record/json_member.h"
#include "core/record/json_object_file.h"
#include "core/record/scalar_text.h"

namespace lb::record {
namespace {

using nlohmann::json;

void note(std::vector<std::string>* problems, std::string what) {
  if (problems) problems->push_back("plan.json: " + std::move(what));
}

const json* list_of(const json& plan, const char* key, std::vector<std::string>* problems) {
  const auto it = plan.find(key);
  if (it == plan.end()) return nullptr;
  if (!it->is_array()) {
    note(problems, std::string(key) + " is not a list");
    return nullptr;
  }
  return &*it;
}

// ITEM[KEY] when it is a string, else nullptr and a problem naming LIST[INDEX].KEY.
const std::string* string_at(const json& item, const char* list, size_t index, const char* key,
                             std::vector<std::string>* problems) {
  if (item.is_object()) {
    const auto it = item.find(key);
    if (it != item.end() && it->is_string()) return &it->get_ref<const std::string&>();
  }
  note(problems, std::string(list) + "[" + std::to_string(index) + "]." + key + " is not a string");
  return nullptr;
}

double number_or_none(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : -1.0;
}

CapacityPlanSlo capacity_slo_of(const json& experiment) {
  CapacityPlanSlo out;
  const auto slo = experiment.find("slo");
  if (slo != experiment.end() && slo->is_object()) {
    out.ttft_p99_ms = number_or_none(*slo, "ttft_p99_ms");
    out.tpot_p99_ms = number_or_none(*slo, "tpot_p99_ms");
  }
  const auto load = experiment.find("load");
  out.by_rate = load != experiment.end() && *load == "rate";
  return out;
}

PlannedLane planned_lane(const std::string& id, const json& lane) {
  PlannedLane out{id, member_text(lane, "base_url"), member_text(lane, "api_key_env"), {}};
  if (const json& notes = member(lane, "notes"); notes.is_object())
    out.notes = scalar_members(notes);
  return out;
}

void read_experiments(const json& list, PlanHeadline& out, std::vector<std::string>* problems) {
  for (size_t i = 0; i < list.size(); ++i) {
    const json& e = list[i];
    const std::string* kind = string_at(e, "experiments", i, "kind", problems);
    if (!kind) continue;
    const auto name = e.find("name");
    const bool named =
        name != e.end() && name->is_string() && !name->get_ref<const std::string&>().empty();
    out.experiments.push_back({named ? name->get<std::string>() : *kind, *kind});
    if (!out.capacity && experiment_kind_from(*kind) == ExperimentKind::Capacity)
      out.capacity = capacity_slo_of(e);
  }
}

}  // namespace

PlanHeadline plan_headline_of(const json& plan, std::vector<std::string>* problems) {
  PlanHeadline out;
  if (!plan.is_object()) return out;
  if (const auto name = plan.find("name"); name != plan.end()) {
    if (name->is_string()) {
      out.name = name->get<std::string>();
    } else {
      note(problems, "name is not a string");
    }
  }
  if (const json* lanes = list_of(plan, "lanes", problems))
    for (size_t i = 0; i < lanes->size(); ++i)
      if (const std::string* id = string_at((*lanes)[i], "lanes", i, "id", problems)) {
        out.lanes.push_back(*id);
        out.lane_details.push_back(planned_lane(*id, (*lanes)[i]));
      }
  if (const json* experiments = list_of(plan, "experiments", problems))
    read_experiments(*experiments, out, problems);
  return out;
}

std::optional<PlanHeadline> read_plan_headline(const std::string& dir,
                                               std::vector<std::string>* problems) {
  std::vector<std::string> ignored;
  const json plan = read_json_object_file(dir, "plan.json", problems ? *problems : ignored);
  if (plan.is_null()) return std::nullopt;
  return plan_headline_of(plan, problems);
}

}  // namespace lb::record
