// A plan's "split" (plan/split_spec.h, docs/plan-file.md "A split lane").
#include <algorithm>
#include <variant>

#include "core/plan/plan.h"
#include "core/plan/plan_validation.h"

namespace lb::plan {

bool splits_load(const Experiment& e) {
  if (e.trials > 1) return false;
  if (const auto* t = std::get_if<ThroughputExperiment>(&e.params)) return !t->doubling;
  return std::holds_alternative<TraceExperiment>(e.params);
}

nlohmann::json split_json(const SplitSpec& split) {
  return {
      {"lane", split.lane}, {"clients", split.clients}, {"sync_timeout_s", split.sync_timeout_s}};
}

namespace detail {
namespace {

// A split experiment's every closed-loop level gives each client at least one request in flight.
void check_experiment(const Experiment& e, size_t i, const SplitSpec& split, ErrorList& errors) {
  const std::string at = "experiments[" + std::to_string(i) + "]";
  const auto* t = std::get_if<ThroughputExperiment>(&e.params);
  if (t == nullptr) return;
  if (t->doubling) {
    errors.add(at + ".concurrency",
               "a doubling sweep cannot run on the split lane \"" + split.lane +
                   "\": its clients would each stop at a level of their own; list the levels");
    return;
  }
  if (e.trials > 1) {
    errors.add(at + ".trials", "an experiment on the split lane \"" + split.lane +
                                   "\" runs one trial; repeat the run for more");
    return;
  }
  for (size_t k = 0; k < t->concurrency.size(); ++k)
    if (t->concurrency[k] < split.clients)
      errors.add(at + ".concurrency[" + std::to_string(k) + "]",
                 "must be at least the split lane's " + std::to_string(split.clients) +
                     " clients, each holding a share of it (got " +
                     std::to_string(t->concurrency[k]) + ")");
  if (t->request_rate > 0 && t->max_concurrency > 0 && t->max_concurrency < split.clients)
    errors.add(at + ".max_concurrency", "must be 0 or at least the split lane's " +
                                            std::to_string(split.clients) + " clients");
}

}  // namespace

void read_split(ObjectReader& top, Plan& plan, ErrorList& errors) {
  top.allow("split");
  const nlohmann::json* v = top.member("split", nlohmann::json::value_t::object);
  if (v == nullptr) return;
  ObjectReader r(*v, "split", errors);
  SplitSpec split;
  const bool named = r.string("lane", split.lane, true);
  const bool counted = r.integer("clients", split.clients, {2, kMaxSplitClients}, true);
  r.number("sync_timeout_s", split.sync_timeout_s, 0, 86400, true);
  r.finish();
  if (!named || !counted) return;
  const Lane* lane = plan.lane(split.lane);
  if (lane == nullptr) {
    errors.add("split.lane", "names no lane of the plan (\"" + split.lane + "\")");
    return;
  }
  // Every client must load the same server: one each would measure K servers, not one.
  if (lane->launch)
    errors.add("split.lane", "the split lane \"" + split.lane +
                                 "\" starts its own server (launch), so each client would start "
                                 "one; point it at one running server");
  else if (lane->is_sim())
    errors.add("split.lane", "the split lane \"" + split.lane +
                                 "\" is an in-process simulator, one per client; start "
                                 "lanebench-sim and give its http:// address");
  for (const auto& axis : plan.sweep.axes)
    if (axis.lane == split.lane)
      errors.add("split.lane", "the split lane \"" + split.lane +
                                   "\" is swept; split a lane with one configuration");
  for (size_t i = 0; i < plan.experiments.size(); ++i)
    if (plan.experiments[i].runs_on(split.lane))
      check_experiment(plan.experiments[i], i, split, errors);
  plan.split = std::move(split);
}

}  // namespace detail
}  // namespace lb::plan
