#include "core/run/shard_selection.h"

#include <algorithm>
#include <charconv>

#include "core/record/experiment_kind.h"

namespace lb::run {
namespace {

std::optional<int64_t> whole_number(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || at != end || text.empty()) return std::nullopt;
  return value;
}

// Kinds whose lanes' answers are compared with each other while the run goes: they need every
// lane in one process. (A regression's pairs are judged by the merge, from the shards' texts.)
bool compares_answers(const std::string& kind) {
  const auto k = record::experiment_kind_from(kind);
  if (!k) return false;
  switch (*k) {
    case record::ExperimentKind::SampledRegression:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::optional<ShardSpec> parse_shard_spec(std::string_view text, const plan::Environment& env,
                                          std::string* why) {
  const size_t slash = text.find('/');
  const auto count =
      slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!count || *count < 1) {
    *why = "--shard takes I/N or auto/N with N a whole number of at least 1, not \"" +
           std::string(text) + "\"";
    return std::nullopt;
  }
  const std::string_view head = text.substr(0, slash);
  std::optional<int64_t> index;
  if (head == "auto") {
    for (const char* name : {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"}) {
      const auto value = env.get(name);
      if (!value) continue;
      index = whole_number(*value);
      if (!index) {
        *why = std::string("--shard auto: ") + name + " is not a whole number";
        return std::nullopt;
      }
      break;
    }
    if (!index) {
      *why =
          "--shard auto: neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor "
          "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set";
      return std::nullopt;
    }
  } else {
    index = whole_number(head);
    if (!index) {
      *why = "--shard takes I/N or auto/N, not \"" + std::string(text) + "\"";
      return std::nullopt;
    }
  }
  if (*index < 0 || *index >= *count) {
    *why =
        "--shard: index " + std::to_string(*index) + " is not in 0.." + std::to_string(*count - 1);
    return std::nullopt;
  }
  return ShardSpec{*index, *count};
}

int64_t shard_count(const plan::Plan& plan) {
  const auto lanes = static_cast<int64_t>(plan.lanes.size());
  return plan.split ? lanes + plan.split->clients - 1 : lanes;
}

namespace {

// Shard INDEX's lane (its position in PLAN) and its client of a split lane (0 otherwise): the
// lanes in plan order, a split lane taking one index per client.
std::pair<size_t, int64_t> lane_of_shard(const plan::Plan& plan, int64_t index) {
  int64_t at = 0;
  for (size_t i = 0; i < plan.lanes.size(); ++i) {
    const int64_t clients =
        plan.split && plan.split->lane == plan.lanes[i].id ? plan.split->clients : 1;
    if (index < at + clients) return {i, index - at};
    at += clients;
  }
  return {plan.lanes.size(), 0};
}

void mark_split_client(plan::Plan& plan, const plan::Lane& kept, int64_t client) {
  if (!plan.split || plan.split->lane != kept.id) return;
  for (auto& e : plan.experiments) {
    if (!e.runs_on(kept.id)) continue;
    if (plan::splits_load(e))
      e.split_client = plan::Experiment::ShardClient{*plan.split, client};
    else
      e.skips_lane = client > 0;
  }
}

}  // namespace

bool keep_shard_lanes(plan::Plan& plan, const ShardSpec& spec, std::string* why) {
  std::string ignored;
  if (why == nullptr) why = &ignored;
  const int64_t count = shard_count(plan);
  if (spec.count != count) {
    *why = "this plan runs as " + std::to_string(count) + " shard" + (count == 1 ? "" : "s") +
           " (one per lane, each sweep value a lane of its own" +
           (plan.split ? ", one per client of the split lane" : "") + "), not " +
           std::to_string(spec.count);
    return false;
  }
  for (const auto& e : plan.experiments) {
    if (spec.count > 1 && compares_answers(e.kind)) {
      *why = "experiment \"" + (e.name_or_kind()) + "\" (" + e.kind +
             ") compares the lanes' answers while it runs, so all its lanes must run in one "
             "process; run it without --shard";
      return false;
    }
  }
  for (auto& e : plan.experiments) {
    e.shard_lanes.clear();
    for (const auto& lane : plan.lanes)
      if (e.runs_on(lane.id)) e.shard_lanes.push_back(lane.id);
  }
  const auto [at, client] = lane_of_shard(plan, spec.index);
  plan::Lane kept = plan.lanes[at];
  mark_split_client(plan, kept, client);
  plan.lanes = {std::move(kept)};
  return true;
}

std::optional<int64_t> split_client_of(const plan::Plan& shard_plan) {
  for (const auto& e : shard_plan.experiments)
    if (e.split_client) return e.split_client->client;
  if (shard_plan.split && shard_plan.lanes.size() == 1 &&
      shard_plan.lanes.front().id == shard_plan.split->lane)
    return 0;
  return std::nullopt;
}

nlohmann::json shard_json(const ShardSpec& spec, const plan::Plan& shard_plan) {
  nlohmann::json lanes = nlohmann::json::array();
  for (const auto& lane : shard_plan.lanes) lanes.push_back(lane.id);
  nlohmann::json out = {{"index", spec.index}, {"count", spec.count}, {"lanes", lanes}};
  if (const auto client = split_client_of(shard_plan))
    out["split"] = {{"lane", shard_plan.split->lane},
                    {"client", *client},
                    {"clients", shard_plan.split->clients}};
  return out;
}

}  // namespace lb::run
