#include "core/report/qualification_summary.h"

#include "core/record/run_summary.h"
#include "core/report/json_access.h"

namespace lb::report {
namespace {

using nlohmann::json;

json figure(double value, const char* provenance) {
  if (value < 0) return nullptr;
  return {{"value", value}, {"provenance", provenance}};
}

// Copies only the named keys that exist.
json pick(const json& from, std::initializer_list<const char*> keys) {
  json out = json::object();
  for (const char* k : keys)
    if (from.is_object() && from.contains(k)) out[k] = from[k];
  return out;
}

json throughput_figures(const json& lane_section) {
  json levels = json::array();
  for (const auto& phase : record::phase_names_in_order(lane_section)) {
    json p = pick(json_at(lane_section, {"phases", phase.c_str()}),
                  {"completed", "failed", "duration", "output_throughput", "request_throughput",
                   "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms", "median_itl_ms",
                   "p50_e2el_ms", "p99_e2el_ms", "median_decode_tok_s", "max_concurrent_requests"});
    p["phase"] = phase;
    levels.push_back(std::move(p));
  }
  return levels;
}

json context_figures(const json& lane_section) {
  json rows = json::array();
  for (const auto& r : json_at(lane_section, {"context_sweep"}))
    rows.push_back(pick(r, {"status", "target_tokens", "sized_tokens", "prompt_tokens", "ttft_ms",
                            "effective_prefill_tok_s", "decode_tok_s", "e2el_ms", "retrieval_pass",
                            "retrieval_passed", "retrieval_attempts"}));
  return rows;
}

json prefix_figures(const json& pc) {
  json out = pick(json_at(pc, {"evidence"}), {"reuse_detected", "reuse_basis", "counter_hit_rate",
                                              "cached_tokens_ratio", "ttft_ratio_cold_over_warm"});
  for (const char* pass : {"cold", "warm", "control"})
    if (json_at(pc, {"passes", pass}).is_object())
      out[pass] = pick(pc["passes"][pass],
                       {"median_ttft_ms", "output_tok_s", "effective_prefill_tok_s", "failed"});
  return out;
}

json speculative_figures(const json& levels) {
  json out = json::object();
  for (const auto& [level, f] : levels.items())
    out[level] = {{"decode_tok_s_median", number_at(f, {"decode_tok_s", "median"})},
                  {"output_tok_s", number_at(f, {"output_tok_s"})},
                  {"acceptance_rate", number_at(f, {"acceptance", "acceptance_rate"})},
                  {"acceptance_length", number_at(f, {"acceptance", "acceptance_length"})},
                  {"decode_speedup", number_at(f, {"vs_baseline", "decode_speedup"})}};
  return out;
}

json lane_performance(const RunFolder& folder, const std::string& lane) {
  json perf = json::object();
  const char* id = lane.c_str();
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Throughput)) {
    const json& s = json_at(*e, {"lanes", id});
    if (!s.is_object()) continue;
    if (!perf.contains("c1_decode_tok_s")) {
      perf["c1_decode_tok_s"] =
          figure(number_at(s, {"phases", "c1", "median_decode_tok_s"}), "measured");
      perf["c1_e2el_p50_ms"] = figure(number_at(s, {"phases", "c1", "p50_e2el_ms"}), "measured");
      perf["c1_ttft_p50_ms"] = figure(number_at(s, {"phases", "c1", "p50_ttft_ms"}), "measured");
    }
    perf["throughput"] = throughput_figures(s);
  }
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::ContextSweep)) {
    perf["context_sweep"] = context_figures(json_at(*e, {"lanes", id}));
    perf["kv_capacity"] = json_at(*e, {"lanes", id, "kv_capacity"});
  }
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::PrefixCache))
    if (const json& pc = json_at(*e, {"lanes", id, "prefix_cache"}); pc.is_object())
      perf["prefix_cache"] = prefix_figures(pc);
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Speculative))
    if (const json& sp = json_at(*e, {"lanes", id, "speculative"}); sp.is_object())
      perf["speculative"] = speculative_figures(sp);
  return perf;
}

json lanes_json(const RunFolder& folder, const ReportModel& model) {
  json lanes = json::array();
  for (const auto& info : model.lanes) {
    json notes = json::object(), env = json::object();
    for (const auto& [k, v] : info.notes) notes[k] = v;
    for (const auto& [k, v] : info.environment) env[k] = v;
    lanes.push_back({{"id", info.id},
                     {"notes", notes},
                     {"environment", env},
                     {"performance", lane_performance(folder, info.id)}});
  }
  return lanes;
}

json regression_json(const RunFolder& folder) {
  json out = json::array();
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Regression))
    for (const auto& c : json_at(*e, {"comparisons"})) {
      json j = pick(c, {"baseline", "candidate", "pairs", "identical", "near_identical",
                        "divergent", "review_required", "review_outcome"});
      j["flipped_facts"] = c.contains("flipped_facts") ? c["flipped_facts"].size() : 0;
      j["prompt_set"] = string_at(*e, {"prompt_set"});
      out.push_back(std::move(j));
    }
  for (const auto& review : folder.reviews) {
    const auto outcome = review.outcome();
    out.push_back({{"baseline", review.lane_a},
                   {"candidate", review.lane_b},
                   {"review_passed", outcome.passed},
                   {"review_summary", outcome.summary}});
  }
  return out;
}

}  // namespace

json redact_json(const json& value, const PrivacyScrubber& scrubber) {
  if (value.is_string()) return scrubber.redact_private(value.get<std::string>());
  if (value.is_array()) {
    json out = json::array();
    for (const auto& v : value) out.push_back(redact_json(v, scrubber));
    return out;
  }
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [k, v] : value.items())
      out[scrubber.redact_private(k)] = redact_json(v, scrubber);
    return out;
  }
  return value;
}

json qualification_summary(const RunFolder& folder, const ReportModel& model,
                           const PrivacyScrubber& scrubber) {
  json j;
  j["format"] = kQualificationSummaryFormat;
  j["name"] = model.run_name;
  j["started_at"] = model.started_at;
  j["finished_at"] = model.finished_at;
  j["complete"] = folder.complete;
  j["interrupted"] = folder.interrupted;
  j["client_version"] = string_at(folder.environment, {"client", "version"});
  j["decision"] = model.decision ? json{{"decision", decision_name(model.decision->decision)},
                                        {"candidate", model.decision->candidate},
                                        {"baseline", model.decision->baseline},
                                        {"headline", decision_headline(*model.decision)},
                                        {"overridden_gates", model.decision->overridden_gates},
                                        {"rationale", model.decision->rationale},
                                        {"decided_at", model.decision->decided_at}}
                                 : json(nullptr);
  j["lanes"] = lanes_json(folder, model);
  j["gates"] = gate_table_to_json(model.gates);
  j["artifacts"] = artifacts_summary_json(model.artifacts);
  j["regression"] = regression_json(folder);
  j["caveats"] = model.caveats;
  j["requests"] = {{"recorded", folder.request_count}, {"torn_lines", folder.torn_lines}};
  return redact_json(j, scrubber);
}

std::optional<std::string> qualification_summary_text(const RunFolder& folder,
                                                      const ReportModel& model,
                                                      const PrivacyScrubber& scrubber,
                                                      std::string* error) {
  const std::string text = qualification_summary(folder, model, scrubber)
                               .dump(2, ' ', false, json::error_handler_t::replace) +
                           "\n";
  const auto found = scrubber.findings(text);
  if (!found.empty()) {
    if (error)
      *error = "qualification-summary.json not written: it would contain a " + found.front();
    return std::nullopt;
  }
  return text;
}

}  // namespace lb::report
