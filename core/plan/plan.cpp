#include "core/plan/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/files/regular_file.h"
#include "core/plan/plan_validation.h"
#include "core/plan/prompt_set.h"
#include "core/plan/sharegpt_file.h"
#include "core/plan/trace_file.h"

namespace lb::plan {
namespace {

using nlohmann::json;

// nlohmann's message carries its own "[json.exception...] parse error at line L, column C: "
// prefix; keep only the reason and state the position ourselves from the byte offset.
PlanError json_syntax_error(std::string_view text, const json::parse_error& e) {
  const size_t byte = e.byte == 0 ? 0 : std::min<size_t>(e.byte - 1, text.size());
  size_t line = 1;
  size_t column = 1;
  for (size_t i = 0; i < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  std::string reason = e.what();
  if (const size_t col = reason.find("column"); col != std::string::npos) {
    if (const size_t colon = reason.find(": ", col); colon != std::string::npos) {
      reason = reason.substr(colon + 2);
    }
  }
  return {"", "invalid JSON at line " + std::to_string(line) + ", column " +
                  std::to_string(column) + ": " + reason};
}

const char* http_version_name(net::HttpVersion v) {
  switch (v) {
    case net::HttpVersion::Http1_1:
      return "1.1";
    case net::HttpVersion::Http2:
      return "2";
    case net::HttpVersion::Auto:
      return "auto";
  }
  return "auto";
}

json lane_json(const Lane& lane, SecretEnvValues secrets) {
  json notes = {{"weights", lane.notes.weights},
                {"kv_cache", lane.notes.kv_cache},
                {"spec", lane.notes.spec},
                {"engine_version", lane.notes.engine_version},
                {"text", lane.notes.text}};
  if (lane.notes.prefix_caching) {
    notes["prefix_caching"] = *lane.notes.prefix_caching;
  }
  json j = {{"id", lane.id},
            {"base_url", lane.base_url},
            {"model", lane.model},
            {"ca_bundle", lane.ca_bundle},
            {"insecure", lane.insecure},
            {"http_version", http_version_name(lane.http_version)},
            {"notes", notes}};
  if (!lane.api_key_env.empty()) {
    j["api_key_env"] = lane.api_key_env;  // the name, never a key
  }
  if (lane.allow_key_over_http) j["allow_key_over_http"] = true;
  if (lane.max_media_bytes != kDefaultMaxMediaBytes) j["max_media_bytes"] = lane.max_media_bytes;
  if (lane.cost_per_hour > 0) j["cost_per_hour"] = lane.cost_per_hour;
  if (lane.energy)
    j["energy"] = {{"metrics_url", lane.energy->metrics_url}, {"gpus", lane.energy->gpus}};
  if (lane.launch) j["launch"] = launch_json(*lane.launch, secrets);
  return j;
}

json slo_json(const SloThresholds& slo) {
  json j = json::object();
  if (slo.ttft_ms > 0) {
    j["ttft_ms"] = slo.ttft_ms;
  }
  if (slo.tpot_ms > 0) {
    j["tpot_ms"] = slo.tpot_ms;
  }
  if (slo.e2el_ms > 0) {
    j["e2el_ms"] = slo.e2el_ms;
  }
  return j;
}

struct ParamsJson {
  json& j;
  void operator()(const RegressionExperiment& e) {
    j.update({{"prompts", e.prompts},
              {"max_tokens", e.max_tokens},
              {"temperature", e.temperature},
              {"similarity_threshold", e.similarity_threshold},
              {"concurrency", e.concurrency},
              {"logprobs", e.logprobs},
              {"near_tie_margin_nats", e.near_tie_margin_nats},
              {"cross_score", e.cross_score}});
    if (e.min_top1_agreement >= 0) j["min_top1_agreement"] = e.min_top1_agreement;
    if (e.load_baseline_concurrency > 0) {
      j["load_baseline"] = {{"concurrency", e.load_baseline_concurrency}};
    }
    if (e.floor) {
      j["floor"] = {{"repeats", e.floor->repeats},
                    {"batch_concurrency", e.floor->batch_concurrency},
                    {"decode_load_streams", e.floor->decode_load_streams},
                    {"cache", e.floor->cache}};
    }
  }
  void operator()(const DeterminismExperiment& e) {
    j.update({{"prompts", e.prompts},
              {"max_tokens", e.max_tokens},
              {"repeats", e.repeats},
              {"batch_concurrency", e.batch_concurrency},
              {"decode_load_streams", e.decode_load_streams},
              {"cache", e.cache},
              {"logprobs", e.logprobs},
              {"near_tie_margin_nats", e.near_tie_margin_nats}});
  }
  void operator()(const SampledRegressionExperiment& e) {
    j.update({{"prompts", e.prompts},
              {"max_tokens", e.max_tokens},
              {"samples", e.samples},
              {"temperature", e.temperature},
              {"top_p", e.top_p},
              {"seed", e.seed},
              {"concurrency", e.concurrency},
              {"fdr", e.fdr},
              {"permutations", e.permutations}});
  }
  void operator()(const ThroughputExperiment& e) {
    if (e.request_rate > 0) {
      j.update({{"request_rate", e.request_rate}, {"burstiness", e.burstiness}});
      if (e.max_concurrency > 0) {
        j["max_concurrency"] = e.max_concurrency;
      }
    } else if (e.doubling) {
      j["concurrency_doubling"] = {{"start", e.doubling->start},
                                   {"max", e.doubling->max},
                                   {"min_gain", e.doubling->min_gain}};
    } else {
      j["concurrency"] = e.concurrency;
    }
    if (e.requests > 0) {
      j["requests"] = e.requests;
    }
    if (e.duration_s > 0) {
      j["duration_s"] = e.duration_s;
    }
    j.update({{"warmups", e.warmups},
              {"input_tokens", e.input_tokens},
              {"output_tokens", e.output_tokens},
              {"ignore_eos", e.ignore_eos},
              {"seed", e.seed},
              {"use_tokenize", e.use_tokenize}});
    if (const json slo = slo_json(e.slo); !slo.empty()) {
      j["slo"] = slo;
    }
  }
  void operator()(const ContextSweepExperiment& e) {
    j.update({{"prompt_tokens", e.prompt_tokens},
              {"needle", e.needle},
              {"needle_depth", e.needle_depth},
              {"output_tokens", e.output_tokens},
              {"repeat", e.repeat},
              {"use_tokenize", e.use_tokenize}});
  }
  void operator()(const PrefixCacheExperiment& e) {
    j.update({{"burst", e.burst},
              {"shared_prefix_tokens", e.shared_prefix_tokens},
              {"suffix_tokens", e.suffix_tokens},
              {"output_tokens", e.output_tokens},
              {"control", e.control},
              {"use_tokenize", e.use_tokenize}});
  }
  void operator()(const SpeculativeExperiment& e) {
    j.update({{"concurrency", e.concurrency},
              {"requests", e.requests},
              {"warmups", e.warmups},
              {"input_tokens", e.input_tokens},
              {"output_tokens", e.output_tokens},
              {"use_tokenize", e.use_tokenize}});
  }
  void operator()(const TraceExperiment& e) {
    j.update({{"path", e.path},
              {"format", e.format},
              {"speedup", e.speedup},
              {"skip_bad_rows", e.skip_bad_rows},
              {"ignore_eos", e.ignore_eos},
              {"use_tokenize", e.use_tokenize}});
    if (e.max_requests > 0) j["max_requests"] = e.max_requests;
    if (e.max_duration_s > 0) j["max_duration_s"] = e.max_duration_s;
    if (e.max_gap_s > 0) j["max_gap_s"] = e.max_gap_s;
  }
  void operator()(const SessionsExperiment& e) {
    if (!e.path.empty()) {
      j["path"] = e.path;
      if (e.max_turns > 0) j["max_turns"] = e.max_turns;
    } else {
      j.update({{"turns", e.turns},
                {"system_prompt_tokens", e.system_prompt_tokens},
                {"user_tokens_per_turn", e.user_tokens_per_turn},
                {"use_tokenize", e.use_tokenize}});
    }
    j.update({{"sessions", e.sessions},
              {"think_time_s", e.think_time_s},
              {"output_tokens", e.output_tokens},
              {"ignore_eos", e.ignore_eos}});
    if (e.total_sessions > 0) j["total_sessions"] = e.total_sessions;
  }
  void operator()(const CapacityExperiment& e) {
    json slo = json::object();
    if (e.ttft_p99_ms > 0) slo["ttft_p99_ms"] = e.ttft_p99_ms;
    if (e.tpot_p99_ms > 0) slo["tpot_p99_ms"] = e.tpot_p99_ms;
    j.update({{"slo", slo},
              {"load", e.load},
              {"start", e.start},
              {"max_load", e.effective_max_load()},
              {"resolution", e.effective_resolution()},
              {"max_probes", e.max_probes},
              {"max_duration_s", e.max_duration_s},
              {"requests", e.requests},
              {"warmups", e.warmups},
              {"input_tokens", e.input_tokens},
              {"output_tokens", e.output_tokens},
              {"ignore_eos", e.ignore_eos},
              {"use_tokenize", e.use_tokenize}});
  }
  void operator()(const GatesExperiment& e) {
    j.update({{"checks", e.checks}, {"repeat", e.repeat}});
    if (std::find(e.checks.begin(), e.checks.end(), "multimodal") != e.checks.end())
      j.update(
          {{"multimodal_prompts", e.multimodal_prompts}, {"multimodal_api", e.multimodal_api}});
  }
};

}  // namespace

namespace {

// A prompt set named by a plan is found beside the plan, as traces and ShareGPT files are, and
// must load: a regression that cannot read its prompts is an error of the plan, not an
// experiment skipped at run time with exit code 0.
void check_prompt_set(std::string& ref, const std::filesystem::path& plan_dir,
                      const std::string& field, std::vector<PlanError>& errors) {
  if (ref.rfind("builtin:", 0) == 0) return;  // compiled in; an unknown name fails at its run
  const std::filesystem::path p(ref);
  if (p.is_relative() && !plan_dir.empty()) ref = (plan_dir / p).lexically_normal().string();
  const PromptSetResult loaded = load_prompt_set(ref);
  if (!loaded.ok()) errors.push_back({field, loaded.error_text()});
}

std::string* prompt_set_of(Experiment& e, std::string* field) {
  if (auto* r = std::get_if<RegressionExperiment>(&e.params)) return &r->prompts;
  if (auto* s = std::get_if<SampledRegressionExperiment>(&e.params)) return &s->prompts;
  if (auto* d = std::get_if<DeterminismExperiment>(&e.params)) return &d->prompts;
  if (auto* g = std::get_if<GatesExperiment>(&e.params)) {
    if (std::find(g->checks.begin(), g->checks.end(), "multimodal") == g->checks.end())
      return nullptr;
    *field = "multimodal_prompts";
    return &g->multimodal_prompts;
  }
  return nullptr;
}

}  // namespace

std::vector<PlanError> check_plan_files(Plan& plan, const std::string& plan_folder) {
  const std::filesystem::path plan_dir(plan_folder);
  std::vector<PlanError> errors;
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    std::string field = "prompts";
    if (std::string* ref = prompt_set_of(plan.experiments[i], &field))
      check_prompt_set(*ref, plan_dir, "experiments[" + std::to_string(i) + "]." + field, errors);
  }
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    auto* t = std::get_if<TraceExperiment>(&plan.experiments[i].params);
    if (t == nullptr) continue;
    const std::filesystem::path p(t->path);
    if (p.is_relative() && !plan_dir.empty()) t->path = (plan_dir / p).lexically_normal().string();
    TraceReadResult read = read_trace_file(t->path, trace_read_options(*t));
    for (const auto& e : read.errors) {
      errors.push_back({"experiments[" + std::to_string(i) + "].path", e});
    }
    t->rows = read.ok() ? std::make_shared<const Trace>(std::move(*read.trace)) : nullptr;
  }
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    auto* s = std::get_if<SessionsExperiment>(&plan.experiments[i].params);
    if (s == nullptr || s->path.empty()) continue;
    const std::filesystem::path p(s->path);
    if (p.is_relative() && !plan_dir.empty()) s->path = (plan_dir / p).lexically_normal().string();
    auto read = std::make_shared<const ConversationReadResult>(
        read_sharegpt_file(s->path, s->total_sessions));
    for (const auto& e : read->errors) {
      errors.push_back({"experiments[" + std::to_string(i) + "].path", e});
    }
    s->conversations = std::move(read);
  }
  return errors;
}

json lane_to_json(const Lane& lane, SecretEnvValues secrets) { return lane_json(lane, secrets); }

TraceReadOptions trace_read_options(const TraceExperiment& e) {
  TraceReadOptions o;
  o.format = trace_format_from_string(e.format).value_or(TraceFormat::Auto);
  o.skip_bad_rows = e.skip_bad_rows;
  o.max_gap_s = e.max_gap_s;
  o.max_requests = e.max_requests;
  if (e.max_duration_s > 0) o.max_offset_ns = std::llround(e.max_duration_s * e.speedup * 1e9);
  return o;
}

const std::vector<std::string>& all_gate_checks() {
  static const std::vector<std::string> checks = {
      "json", "streaming", "tools", "tool_continuation", "responses", "session", "reasoning"};
  return checks;
}

const std::vector<std::string>& optional_gate_checks() {
  static const std::vector<std::string> checks = {"multimodal"};
  return checks;
}

const Lane* Plan::lane(std::string_view id) const {
  for (const auto& l : lanes) {
    if (l.id == id) {
      return &l;
    }
  }
  return nullptr;
}

bool Plan::launches_servers() const {
  return std::any_of(lanes.begin(), lanes.end(),
                     [](const Lane& l) { return l.launch.has_value(); });
}

std::string PlanError::to_string(std::string_view source_name) const {
  std::string out(source_name);
  if (!path.empty()) {
    out += ": " + path;
  }
  return out + ": " + message;
}

std::string PlanParseResult::error_text() const {
  std::string out;
  for (const auto& e : errors) {
    out += e.to_string(source_name) + "\n";
  }
  return out;
}

PlanParseResult parse_plan(std::string_view json_text, std::string_view source_name) {
  PlanParseResult result;
  result.source_name = std::string(source_name);
  json doc;
  try {
    doc = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    result.errors.push_back(json_syntax_error(json_text, e));
    return result;
  } catch (const json::exception& e) {  // out_of_range: a number too large, e.g. 1e999
    const std::string what = e.what();
    const size_t tag_end = what.find("] ");
    result.errors.push_back(
        {"", "invalid JSON: " + (tag_end == std::string::npos ? what : what.substr(tag_end + 2))});
    return result;
  }
  detail::ErrorList errors;
  detail::find_duplicate_keys(json_text, errors);
  detail::ObjectReader top(doc, "", errors);
  Plan plan;
  if (top.is_object()) {
    if (top.string("name", plan.name, true) && plan.name.empty()) {
      top.error("name", "must not be empty");
    }
    top.string("description", plan.description);
    top.number("request_timeout_s", plan.request_timeout_s, 0, kMaxRequestTimeoutS, true);
    if (const json* lanes = top.member("lanes", json::value_t::array, true)) {
      plan.lanes = detail::read_lanes(*lanes, errors);
    }
    if (const json* exps = top.member("experiments", json::value_t::array, true)) {
      plan.experiments = detail::read_experiments(*exps, plan.lanes, errors);
      for (size_t i = 0; i < plan.experiments.size(); ++i)
        if (!(*exps)[i].contains("request_timeout_s"))
          plan.experiments[i].request_timeout_s = plan.request_timeout_s;
    }
    detail::read_sweep(doc, top, plan, errors);
    detail::read_split(top, plan, errors);
    top.finish();
  }
  result.errors = errors.errors();
  if (result.errors.empty()) {
    result.plan = std::move(plan);
  }
  return result;
}

PlanParseResult load_plan_file(const std::string& path) {
  // A plan is a few KiB; a FIFO or device named as one is refused, not waited on.
  constexpr size_t kMaxPlanBytes = 64 * files::kMiB;
  std::string error;
  const auto text = files::read_regular_file(path, kMaxPlanBytes, &error);
  if (!text) {
    PlanParseResult result;
    result.source_name = path;
    std::error_code ec;
    const bool exists = std::filesystem::exists(path, ec);
    result.errors.push_back(
        {"", exists ? "cannot read the plan file: " + files::error_reason(error, path)
                    : std::string("cannot read the plan file")});
    return result;
  }
  PlanParseResult result = parse_plan(*text, path);
  if (result.ok()) {
    result.errors = check_plan_files(*result.plan, std::filesystem::path(path).parent_path());
    if (!result.errors.empty()) result.plan.reset();
  }
  return result;
}

json resolved_plan_json(const Plan& plan) {
  json lanes = json::array();
  for (const auto& l : plan.lanes) {
    lanes.push_back(lane_to_json(l, SecretEnvValues::Redacted));
  }
  json experiments = json::array();
  for (const auto& e : plan.experiments) {
    json j = {{"kind", e.kind}, {"name", e.name}};
    if (!e.lanes.empty()) {
      j["lanes"] = e.lanes;
    }
    std::visit(ParamsJson{j}, e.params);
    if (e.logprobs > 0) j["logprobs"] = e.logprobs;
    detail::add_trial_options_json(e, j);
    j["request_timeout_s"] = e.request_timeout_s;
    if (e.steady_state_fraction != 0.95) j["steady_state_fraction"] = e.steady_state_fraction;
    const auto& t = e.trim;
    if (t.warmup_s > 0 || t.cooldown_s > 0 || t.warmup_requests > 0 || t.cooldown_requests > 0)
      j["trim"] = {{"warmup_s", t.warmup_s},
                   {"cooldown_s", t.cooldown_s},
                   {"warmup_requests", t.warmup_requests},
                   {"cooldown_requests", t.cooldown_requests}};
    experiments.push_back(std::move(j));
  }
  json j = {{"name", plan.name},
            {"lanes", lanes},
            {"experiments", experiments},
            {"request_timeout_s", plan.request_timeout_s}};
  if (!plan.description.empty()) {
    j["description"] = plan.description;
  }
  if (!plan.sweep.axes.empty()) j["sweep"] = sweep_json(plan.sweep);
  if (!plan.sweep.axes.empty()) j["objective"] = objective_json(plan.objective);
  if (plan.split) j["split"] = split_json(*plan.split);
  return j;
}

}  // namespace lb::plan
