// Repeated trials, lane order and performance gates of an experiment (plan/trial_options.h).
#include <algorithm>

#include "core/plan/plan_validation.h"
#include "core/plan/trial_options.h"

namespace lb::plan {

const char* to_string(LaneOrder order) {
  switch (order) {
    case LaneOrder::Interleaved:
      return "interleaved";
    case LaneOrder::Parallel:
      return "parallel";
    case LaneOrder::Sequential:
      break;
  }
  return "sequential";
}

std::optional<LaneOrder> parse_lane_order(std::string_view name) {
  if (name == "sequential") return LaneOrder::Sequential;
  if (name == "interleaved") return LaneOrder::Interleaved;
  if (name == "parallel") return LaneOrder::Parallel;
  return std::nullopt;
}

namespace detail {
namespace {

using nlohmann::json;

constexpr IntRange kTrials{1, 1000};

bool takes_trials(const std::string& kind) {
  return kind == "throughput" || kind == "speculative" || kind == "context_sweep" ||
         kind == "prefix_cache";
}

bool takes_gates(const std::string& kind) { return takes_trials(kind) || kind == "trace"; }

// The figures a gate can name: those summary.json compares lanes on.
const std::vector<std::string>& gate_figures() {
  static const std::vector<std::string> f = {
      "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms",      "median_itl_ms",
      "median_e2el_ms", "p99_e2el_ms", "median_decode_tok_s", "output_throughput"};
  return f;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// The gate's lane must be one of the experiment's.
void check_gate_lane(ObjectReader& r, const char* key, const std::string& id, const Experiment& e,
                     const std::vector<Lane>& lanes) {
  std::vector<std::string> ids = e.lanes;
  if (ids.empty())
    for (const auto& l : lanes) ids.push_back(l.id);
  if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
    r.error(key, "'" + id + "' is not a lane of this experiment" + did_you_mean(id, ids));
}

PerformanceGate read_gate(const json& value, const std::string& path, const Experiment& e,
                          const std::vector<Lane>& lanes, ErrorList& errors) {
  PerformanceGate g;
  ObjectReader r(value, path, errors);
  if (!r.is_object()) return g;
  if (r.string("figure", g.figure, true) &&
      std::find(gate_figures().begin(), gate_figures().end(), g.figure) == gate_figures().end())
    r.error("figure", "unknown figure '" + g.figure + "'" + did_you_mean(g.figure, gate_figures()) +
                          "; one of " + joined(gate_figures()));
  if (r.string("candidate", g.candidate, true))
    check_gate_lane(r, "candidate", g.candidate, e, lanes);
  if (r.string("baseline", g.baseline, true)) check_gate_lane(r, "baseline", g.baseline, e, lanes);
  if (!g.candidate.empty() && g.candidate == g.baseline)
    r.error("baseline", "must differ from candidate (both are '" + g.candidate + "')");
  r.string("phase", g.phase);
  r.number("min_ratio", g.min_ratio, 0, 1e6, true);
  r.number("max_ratio", g.max_ratio, 0, 1e6, true);
  if (!r.has("min_ratio") && !r.has("max_ratio"))
    r.error_here("needs min_ratio (candidate / baseline at least) or max_ratio (at most)");
  else if (r.has("min_ratio") && r.has("max_ratio"))
    r.error_here("takes min_ratio or max_ratio, not both");
  r.finish();
  return g;
}

}  // namespace

void read_trial_options(ObjectReader& r, Experiment& e, const std::vector<Lane>& lanes,
                        ErrorList& errors) {
  const bool has_trials = r.has("trials"), has_order = r.has("lane_order");
  if ((has_trials || has_order) && !takes_trials(e.kind)) {
    r.error(has_trials ? "trials" : "lane_order",
            "applies to throughput, speculative, context_sweep and prefix_cache experiments, not " +
                e.kind);
    r.allow("trials");
    r.allow("lane_order");
  } else {
    r.integer("trials", e.trials, kTrials);
    e.lane_order = e.trials > 1 ? LaneOrder::Interleaved : LaneOrder::Sequential;
    std::string order;
    if (r.string("lane_order", order)) {
      if (auto parsed = parse_lane_order(order))
        e.lane_order = *parsed;
      else
        r.error("lane_order",
                "unknown lane order '" + order + "'; one of sequential, interleaved, parallel");
    }
  }
  const auto* tp = std::get_if<ThroughputExperiment>(&e.params);
  if (e.trials > 1 && tp && tp->doubling)
    r.error("trials",
            "cannot repeat a concurrency_doubling sweep: its levels depend on each trial's "
            "results; list the levels in concurrency instead");
  const json* gates = r.member("performance_gates", json::value_t::array);
  if (gates == nullptr) return;
  const std::string path = key_path(r.path(), "performance_gates");
  if (!takes_gates(e.kind)) {
    errors.add(path,
               "applies to throughput, speculative, context_sweep, prefix_cache and trace "
               "experiments, not " +
                   e.kind);
    return;
  }
  for (size_t i = 0; i < gates->size(); ++i)
    e.performance_gates.push_back(read_gate((*gates)[i], index_path(path, i), e, lanes, errors));
}

void add_trial_options_json(const Experiment& e, json& j) {
  if (!takes_trials(e.kind) && e.performance_gates.empty()) return;
  if (takes_trials(e.kind)) {
    j["trials"] = e.trials;
    j["lane_order"] = to_string(e.lane_order);
  }
  if (e.performance_gates.empty()) return;
  json gates = json::array();
  for (const auto& g : e.performance_gates) {
    json gj = {{"figure", g.figure}, {"candidate", g.candidate}, {"baseline", g.baseline}};
    if (!g.phase.empty()) gj["phase"] = g.phase;
    if (g.min_ratio > 0) gj["min_ratio"] = g.min_ratio;
    if (g.max_ratio > 0) gj["max_ratio"] = g.max_ratio;
    gates.push_back(std::move(gj));
  }
  j["performance_gates"] = std::move(gates);
}

}  // namespace detail
}  // namespace lb::plan
