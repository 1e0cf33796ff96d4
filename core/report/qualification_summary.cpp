#include "core/report/qualification_summary.h"

#include <cmath>
#include <variant>
#include "core/record/json_number.h"
#include "core/record/lane_extras.h"
#include "core/record/overloaded.h"
#include "core/record/run_summary.h"

namespace lb::report {
namespace {

using nlohmann::json;

json figure(double value, const char* provenance) {
  if (!(value >= 0)) return nullptr;
  return {{"value", value}, {"provenance", provenance}};
}

// A count (tokens, requests) written as a whole number, as the run folder wrote it; null when
// not known.
json count(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9.0e15)
    return json(static_cast<int64_t>(value));
  return record::number_or_null(value);
}

// Copies only the named keys that exist.
json pick(const json& from, std::initializer_list<const char*> keys) {
  json out = json::object();
  for (const char* k : keys)
    if (from.is_object() && from.contains(k)) out[k] = from[k];
  return out;
}

json throughput_figures(const record::LaneRecord& lane) {
  json levels = json::array();
  for (const record::PhaseRecord& phase : lane.phases) {
    json p = pick(metrics::to_json(phase.figures),
                  {"completed", "failed", "duration", "output_throughput", "request_throughput",
                   "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms", "median_itl_ms",
                   "p50_e2el_ms", "p99_e2el_ms", "median_decode_tok_s", "max_concurrent_requests"});
    p["phase"] = phase.name;
    levels.push_back(std::move(p));
  }
  return levels;
}

json context_figures(const std::vector<record::ContextSizeRecord>& sizes) {
  json rows = json::array();
  for (const record::ContextSizeRecord& r : sizes) {
    json row = {{"status", r.status},
                {"target_tokens", count(r.target_tokens)},
                {"sized_tokens",
                 r.sized_provenance.empty()
                     ? count(r.sized_tokens)
                     : json{{"value", count(r.sized_tokens)}, {"provenance", r.sized_provenance}}},
                {"prompt_tokens", count(r.prompt_tokens)},
                {"ttft_ms", record::number_or_null(r.ttft_ms)},
                {"effective_prefill_tok_s", record::number_or_null(r.effective_prefill_tok_s)},
                {"decode_tok_s", record::number_or_null(r.decode_tok_s)},
                {"e2el_ms", record::number_or_null(r.e2el_ms)}};
    if (r.retrieval_pass) row["retrieval_pass"] = *r.retrieval_pass;
    if (std::isfinite(r.retrieval_passed)) {
      row["retrieval_passed"] = count(r.retrieval_passed);
      row["retrieval_attempts"] = count(r.retrieval_attempts);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json kv_figures(const std::optional<record::KvCapacityRecord>& kv) {
  if (!kv) return nullptr;
  json out = {{"tokens", count(kv->tokens)}, {"provenance", kv->provenance}};
  if (!kv->cache_dtype.empty()) out["cache_dtype"] = kv->cache_dtype;
  if (std::isfinite(kv->full_context_windows)) {
    out["full_context_windows"] = kv->full_context_windows;
    out["max_model_len"] = count(kv->max_model_len);
  }
  if (!kv->reason.empty()) out["reason"] = kv->reason;
  return out;
}

json prefix_figures(const record::PrefixCacheRecord& pc) {
  json out = {{"reuse_basis", pc.reuse_basis},
              {"counter_hit_rate", figure(pc.counter_hit_rate, "server")},
              {"cached_tokens_ratio", figure(pc.cached_tokens_ratio, "server")},
              {"ttft_ratio_cold_over_warm", figure(pc.ttft_ratio_cold_over_warm, "estimated")}};
  out["reuse_detected"] = pc.reuse_detected ? json(*pc.reuse_detected) : json(nullptr);
  for (const record::PrefixPassRecord& pass : pc.passes)
    out[pass.name] = {
        {"median_ttft_ms", record::number_or_null(pass.median_ttft_ms)},
        {"output_tok_s", record::number_or_null(pass.output_tok_s)},
        {"effective_prefill_tok_s", record::number_or_null(pass.effective_prefill_tok_s)},
        {"failed", count(pass.failed)}};
  return out;
}

json speculative_figures(const std::vector<record::SpeculativeLevelRecord>& levels) {
  json out = json::object();
  for (const record::SpeculativeLevelRecord& f : levels)
    out[f.level] = {{"decode_tok_s_median", record::number_or_null(f.decode_tok_s_median())},
                    {"output_tok_s", record::number_or_null(f.output_tok_s)},
                    {"acceptance_rate", record::number_or_null(f.acceptance_rate())},
                    {"acceptance_length", record::number_or_null(f.acceptance_length())},
                    {"decode_speedup", record::number_or_null(f.decode_speedup)}};
  return out;
}

// The c1 level's headline figures of a throughput experiment's lane.
void put_c1_figures(const record::LaneRecord& lane, json& perf) {
  const record::PhaseRecord* c1 = lane.phase("c1");
  perf["c1_decode_tok_s"] = figure(c1 ? c1->figures.decode_tok_s.median : NAN, "measured");
  perf["c1_e2el_p50_ms"] = figure(c1 ? c1->figures.e2el_ms.p50 : NAN, "measured");
  perf["c1_ttft_p50_ms"] = figure(c1 ? c1->figures.ttft_ms.p50 : NAN, "measured");
}

// The lane's figures from every experiment it ran, each kind's under its own key; of two
// experiments of one kind the later one's (the c1 figures: the first throughput experiment's).
json lane_performance(const RunFolder& folder, const std::string& lane_id) {
  json perf = json::object();
  for (const record::ExperimentSection& e : folder.record.experiments) {
    const record::LaneRecord* lane = e.lane(lane_id);
    if (!lane) continue;
    std::visit(record::Overloaded{
                   [&](const record::ThroughputLane&) {
                     if (!perf.contains("c1_decode_tok_s")) put_c1_figures(*lane, perf);
                     perf["throughput"] = throughput_figures(*lane);
                   },
                   [&](const record::ContextSweepLane& c) {
                     perf["context_sweep"] = context_figures(c.sizes);
                     perf["kv_capacity"] = kv_figures(c.kv_capacity);
                   },
                   [&](const record::PrefixCacheLane& p) {
                     if (p.prefix_cache) perf["prefix_cache"] = prefix_figures(*p.prefix_cache);
                   },
                   [&](const record::SpeculativeLane& s) {
                     if (!s.levels.empty()) perf["speculative"] = speculative_figures(s.levels);
                   },
                   // Their outcomes are the summary's gates and regression parts.
                   [](const record::RegressionLane&) {},
                   [](const record::SampledRegressionLane&) {},
                   [](const record::GatesLane&) {},
                   // Not in this summary's figures (the report's tables have them).
                   [](const record::TraceLane&) {},
                   [](const record::SessionsLane&) {},
                   [](const record::CapacityLane&) {},
                   [](const record::DeterminismLane&) {},
                   [](const record::UnknownKindLane&) {},
               },
               record::lane_extras(e, *lane));
  }
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
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Regression))
    for (const record::PairOutcome& c : e->pair_outcomes())
      out.push_back({{"baseline", c.baseline},
                     {"candidate", c.candidate},
                     {"pairs", c.pairs},
                     {"identical", c.identical},
                     {"near_identical", c.near_identical},
                     {"divergent", c.divergent},
                     {"review_required", c.review_required},
                     {"review_outcome", c.review_outcome},
                     {"flipped_facts", c.flipped_facts()},
                     {"prompt_set", e->prompt_set()}});
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
  j["client_version"] = folder.environment.client_version;
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
