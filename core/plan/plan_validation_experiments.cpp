// Experiments of a plan: kind, optional name and lane subset, and each kind's parameters with
// the defaults of docs/plan-file.md.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/plan/plan_validation.h"
#include "core/plan/trace_file.h"

namespace lb::plan::detail {
namespace {

using nlohmann::json;

constexpr IntRange kCount{1, 10'000'000};
constexpr IntRange kTokens{1, 10'000'000};
constexpr IntRange kConcurrency{1, 100'000};
constexpr double kMaxDouble = 1e308;

const std::vector<std::string>& kinds() {
  static const std::vector<std::string> k = {
      "regression", "throughput",         "context_sweep", "prefix_cache", "speculative", "gates",
      "trace",      "sampled_regression", "sessions",      "capacity",     "determinism"};
  return k;
}

// "logprobs": true (5 alternatives), false (none) or a count, 0-20.
void read_logprobs(ObjectReader& r, int64_t& logprobs) {
  if (bool on = true; r.has_boolean("logprobs")) {
    r.boolean("logprobs", on);
    logprobs = on ? 5 : 0;
  } else {
    r.integer("logprobs", logprobs, IntRange{0, 20});
  }
}

// "load_baseline": {"concurrency": N}; {} takes the default of 32.
int64_t read_load_baseline(ObjectReader& parent, ErrorList& errors) {
  const json* v = parent.member("load_baseline", json::value_t::object);
  if (v == nullptr) {
    return 0;
  }
  ObjectReader r(*v, key_path(parent.path(), "load_baseline"), errors);
  int64_t concurrency = 32;
  r.integer("concurrency", concurrency, IntRange{2, kConcurrency.max});
  r.finish();
  return concurrency;
}

// "floor": true (the defaults), false, or {"repeats", "batch_concurrency", "decode_load_streams",
// "cache"}; the prompts, max_tokens and logprobs are the regression's own.
std::optional<DeterminismExperiment> read_floor(ObjectReader& parent, const RegressionExperiment& e,
                                                ErrorList& errors) {
  DeterminismExperiment floor;
  floor.prompts = e.prompts;
  floor.max_tokens = e.max_tokens;
  floor.logprobs = e.logprobs;
  floor.near_tie_margin_nats = e.near_tie_margin_nats;
  if (parent.has_boolean("floor")) {
    bool on = false;
    parent.boolean("floor", on);
    return on ? std::optional(floor) : std::nullopt;
  }
  const json* v = parent.member("floor", json::value_t::object);
  if (v == nullptr) return std::nullopt;
  ObjectReader r(*v, key_path(parent.path(), "floor"), errors);
  r.integer("repeats", floor.repeats, IntRange{2, 100});
  r.integer("batch_concurrency", floor.batch_concurrency, IntRange{0, kConcurrency.max});
  if (floor.batch_concurrency == 1)
    r.error("batch_concurrency", "must be 0 (no batch check) or at least 2");
  r.integer("decode_load_streams", floor.decode_load_streams, IntRange{0, kConcurrency.max});
  r.boolean("cache", floor.cache);
  r.finish();
  return floor;
}

RegressionExperiment read_regression(ObjectReader& r, ErrorList& errors) {
  RegressionExperiment e;
  if (r.string("prompts", e.prompts) && e.prompts.empty()) {
    r.error("prompts", "must not be empty");
  }
  r.integer("max_tokens", e.max_tokens, kTokens);
  r.number("temperature", e.temperature, 0, 2, false);
  r.number("similarity_threshold", e.similarity_threshold, 0, 1, false);
  r.integer("concurrency", e.concurrency, kConcurrency);
  read_logprobs(r, e.logprobs);
  r.number("near_tie_margin_nats", e.near_tie_margin_nats, 0, 100, false);
  r.boolean("cross_score", e.cross_score);
  r.number("min_top1_agreement", e.min_top1_agreement, 0, 1, false);
  if (e.cross_score && e.logprobs == 0)
    r.error("cross_score", "needs logprobs (the answers' token ids and top-K come from them)");
  if (e.min_top1_agreement >= 0 && !e.cross_score)
    r.error("min_top1_agreement", "needs \"cross_score\": true (agreement is measured by it)");
  e.load_baseline_concurrency = read_load_baseline(r, errors);
  e.floor = read_floor(r, e, errors);
  if (e.floor && e.temperature > 0)
    r.error("floor",
            "needs a greedy regression (temperature 0): the floor is measured greedy, "
            "and sampled answers would differ from it by sampling alone");
  if (e.load_baseline_concurrency > 0 && e.load_baseline_concurrency == e.concurrency) {
    r.error("load_baseline", "concurrency must differ from the regression's concurrency (" +
                                 std::to_string(e.concurrency) + ")");
  }
  return e;
}

DeterminismExperiment read_determinism(ObjectReader& r) {
  DeterminismExperiment e;
  if (r.string("prompts", e.prompts) && e.prompts.empty()) {
    r.error("prompts", "must not be empty");
  }
  r.integer("max_tokens", e.max_tokens, kTokens);
  r.integer("repeats", e.repeats, IntRange{2, 100});
  if (r.has("batch_concurrency")) {
    r.integer("batch_concurrency", e.batch_concurrency, IntRange{0, kConcurrency.max});
    if (e.batch_concurrency == 1)
      r.error("batch_concurrency",
              "must be 0 (no batch check) or at least 2: at 1 a prompt is "
              "alone, as in the repeatability passes");
  }
  r.integer("decode_load_streams", e.decode_load_streams, IntRange{0, kConcurrency.max});
  r.boolean("cache", e.cache);
  read_logprobs(r, e.logprobs);
  r.number("near_tie_margin_nats", e.near_tie_margin_nats, 0, 100, false);
  return e;
}

SampledRegressionExperiment read_sampled_regression(ObjectReader& r) {
  SampledRegressionExperiment e;
  if (r.string("prompts", e.prompts) && e.prompts.empty()) {
    r.error("prompts", "must not be empty");
  }
  r.integer("max_tokens", e.max_tokens, kTokens);
  r.integer("samples", e.samples, IntRange{2, 1000});
  // A greedy lane gives the same answer every time: there would be nothing to compare.
  r.number("temperature", e.temperature, 0, 2, true);
  r.number("top_p", e.top_p, 0, 1, true);
  r.integer("seed", e.seed, IntRange{0, INT32_MAX});
  r.integer("concurrency", e.concurrency, kConcurrency);
  r.number("fdr", e.fdr, 0, 0.5, true);
  r.integer("permutations", e.permutations, IntRange{99, 1'000'000});
  return e;
}

void read_slo(ObjectReader& parent, SloThresholds& slo, ErrorList& errors) {
  const json* v = parent.member("slo", json::value_t::object);
  if (v == nullptr) {
    return;
  }
  ObjectReader r(*v, key_path(parent.path(), "slo"), errors);
  r.number("ttft_ms", slo.ttft_ms, 0, kMaxDouble, true);
  r.number("tpot_ms", slo.tpot_ms, 0, kMaxDouble, true);
  r.number("e2el_ms", slo.e2el_ms, 0, kMaxDouble, true);
  r.finish();
}

// "concurrency_doubling": {"start": 1, "max": 1024, "min_gain": 0.05}; {} takes the defaults.
std::optional<ConcurrencyDoubling> read_doubling(ObjectReader& parent, ErrorList& errors) {
  const json* v = parent.member("concurrency_doubling", json::value_t::object);
  if (v == nullptr) {
    return std::nullopt;
  }
  ObjectReader r(*v, key_path(parent.path(), "concurrency_doubling"), errors);
  ConcurrencyDoubling d;
  r.integer("start", d.start, kConcurrency);
  r.integer("max", d.max, kConcurrency);
  r.number("min_gain", d.min_gain, 0, 1, false);
  if (d.max < d.start) {
    r.error("max",
            "must be >= start (" + std::to_string(d.start) + "), got " + std::to_string(d.max));
  }
  r.finish();
  return d;
}

ThroughputExperiment read_throughput(ObjectReader& r, ErrorList& errors) {
  ThroughputExperiment e;
  r.integer_list("concurrency", e.concurrency, kConcurrency, true);
  e.doubling = read_doubling(r, errors);
  r.number("request_rate", e.request_rate, 0, 1e6, true);
  const int load_shapes = (r.has("concurrency") ? 1 : 0) + (r.has("request_rate") ? 1 : 0) +
                          (r.has("concurrency_doubling") ? 1 : 0);
  if (load_shapes > 1) {
    r.error_here(
        "give one of 'concurrency' (closed-loop list), 'concurrency_doubling' (closed loop until "
        "throughput stops gaining) or 'request_rate' (open loop)");
  }
  for (const char* key : {"burstiness", "max_concurrency"}) {
    if (r.has(key) && !r.has("request_rate")) {
      r.error(key, "only applies with 'request_rate'");
    }
  }
  r.number("burstiness", e.burstiness, 0, 1e6, true);
  r.integer("max_concurrency", e.max_concurrency, kConcurrency);
  if (load_shapes == 0) {
    e.concurrency = {1};
  }
  r.integer("requests", e.requests, kCount);
  r.number("duration_s", e.duration_s, 0, 7 * 24 * 3600.0, true);
  if (!r.has("requests") && !r.has("duration_s")) {
    e.requests = 64;
  }
  r.integer("warmups", e.warmups, IntRange{0, 100'000});
  r.integer("input_tokens", e.input_tokens, kTokens);
  r.integer("output_tokens", e.output_tokens, kTokens);
  r.boolean("ignore_eos", e.ignore_eos);
  int64_t seed = 0;
  if (r.integer("seed", seed, IntRange{0, INT64_MAX})) {
    e.seed = static_cast<uint64_t>(seed);
  }
  read_slo(r, e.slo, errors);
  r.boolean("use_tokenize", e.use_tokenize);
  return e;
}

ContextSweepExperiment read_context_sweep(ObjectReader& r) {
  ContextSweepExperiment e;
  r.integer_list("prompt_tokens", e.prompt_tokens, kTokens, false, true);
  r.boolean("needle", e.needle);
  r.number("needle_depth", e.needle_depth, 0, 1, false);
  r.integer("output_tokens", e.output_tokens, kTokens);
  r.integer("repeat", e.repeat, IntRange{1, 1000});
  r.boolean("use_tokenize", e.use_tokenize);
  return e;
}

PrefixCacheExperiment read_prefix_cache(ObjectReader& r) {
  PrefixCacheExperiment e;
  r.integer("burst", e.burst, kConcurrency);
  r.integer("shared_prefix_tokens", e.shared_prefix_tokens, kTokens);
  r.integer("suffix_tokens", e.suffix_tokens, kTokens);
  r.integer("output_tokens", e.output_tokens, kTokens);
  r.boolean("control", e.control);
  r.boolean("use_tokenize", e.use_tokenize);
  return e;
}

SpeculativeExperiment read_speculative(ObjectReader& r) {
  SpeculativeExperiment e;
  r.integer_list("concurrency", e.concurrency, kConcurrency, true);
  r.integer("requests", e.requests, kCount);
  r.integer("warmups", e.warmups, IntRange{0, 100'000});
  r.integer("input_tokens", e.input_tokens, kTokens);
  r.integer("output_tokens", e.output_tokens, kTokens);
  r.boolean("use_tokenize", e.use_tokenize);
  return e;
}

GatesExperiment read_gates(ObjectReader& r, ErrorList& errors) {
  GatesExperiment e;
  e.checks = all_gate_checks();
  std::vector<std::string> checks;
  if (r.string_list("checks", checks)) {
    if (checks.empty()) {
      r.error("checks", "must not be empty (leave it out for every check)");
    }
    std::vector<std::string> all = all_gate_checks();
    for (const auto& optional : optional_gate_checks()) all.push_back(optional);
    for (size_t i = 0; i < checks.size(); ++i) {
      if (std::find(all.begin(), all.end(), checks[i]) == all.end()) {
        errors.add(index_path(key_path(r.path(), "checks"), i),
                   "unknown check '" + checks[i] + "'" + did_you_mean(checks[i], all));
      }
    }
    if (!checks.empty()) {
      e.checks = checks;
    }
  }
  r.integer("repeat", e.repeat, IntRange{1, 1000});
  if (r.string("multimodal_prompts", e.multimodal_prompts) && e.multimodal_prompts.empty())
    r.error("multimodal_prompts", "must name a prompt set (\"builtin:NAME\" or a file)");
  if (r.string("multimodal_api", e.multimodal_api) && e.multimodal_api != "chat" &&
      e.multimodal_api != "responses" && e.multimodal_api != "both")
    r.error("multimodal_api",
            "unknown API '" + e.multimodal_api + "'; one of chat, responses, both");
  return e;
}

TraceExperiment read_trace(ObjectReader& r, ErrorList& errors) {
  TraceExperiment e;
  if (r.string("path", e.path, true) && e.path.empty()) {
    r.error("path", "must not be empty");
  }
  if (r.string("format", e.format) && !trace_format_from_string(e.format)) {
    errors.add(key_path(r.path(), "format"), "unknown trace format '" + e.format + "'" +
                                                 did_you_mean(e.format, trace_format_names()) +
                                                 "; one of auto, mooncake, azure, burstgpt");
  }
  r.number("speedup", e.speedup, 0, 1e6, true);
  r.integer("max_requests", e.max_requests, kCount);
  r.number("max_duration_s", e.max_duration_s, 0, 7 * 24 * 3600.0, true);
  r.boolean("skip_bad_rows", e.skip_bad_rows);
  r.number("max_gap_s", e.max_gap_s, 0, kMaxDouble, true);
  r.boolean("ignore_eos", e.ignore_eos);
  r.boolean("use_tokenize", e.use_tokenize);
  return e;
}

SessionsExperiment read_sessions(ObjectReader& r) {
  SessionsExperiment e;
  if (r.string("path", e.path) && e.path.empty()) {
    r.error("path", "must not be empty (leave it out for synthetic sessions)");
  }
  const bool file = r.has("path");
  for (const char* key :
       {"turns", "system_prompt_tokens", "user_tokens_per_turn", "use_tokenize"}) {
    if (file && r.has(key)) {
      r.error(key, "only applies to synthetic sessions (without 'path')");
    }
  }
  if (!file && r.has("max_turns")) {
    r.error("max_turns", "only applies with 'path' (synthetic sessions take 'turns')");
  }
  r.integer("sessions", e.sessions, kConcurrency);
  r.integer("total_sessions", e.total_sessions, kCount);
  r.integer("turns", e.turns, IntRange{1, SessionsExperiment::kMaxTurns});
  r.integer("max_turns", e.max_turns, IntRange{1, SessionsExperiment::kMaxTurns});
  r.integer("system_prompt_tokens", e.system_prompt_tokens, IntRange{0, 10'000'000});
  r.integer("user_tokens_per_turn", e.user_tokens_per_turn, kTokens);
  r.number("think_time_s", e.think_time_s, 0, 24 * 3600.0, false);
  r.integer("output_tokens", e.output_tokens, kTokens);
  r.boolean("ignore_eos", e.ignore_eos);
  r.boolean("use_tokenize", e.use_tokenize);
  return e;
}

void read_capacity_slo(ObjectReader& parent, CapacityExperiment& e, ErrorList& errors) {
  const json* v = parent.member("slo", json::value_t::object, true);
  if (v == nullptr) {
    return;
  }
  ObjectReader r(*v, key_path(parent.path(), "slo"), errors);
  r.number("ttft_p99_ms", e.ttft_p99_ms, 0, kMaxDouble, true);
  r.number("tpot_p99_ms", e.tpot_p99_ms, 0, kMaxDouble, true);
  if (!r.has("ttft_p99_ms") && !r.has("tpot_p99_ms")) {
    r.error_here("must set ttft_p99_ms, tpot_p99_ms or both");
  }
  r.finish();
}

CapacityExperiment read_capacity(ObjectReader& r, ErrorList& errors) {
  CapacityExperiment e;
  read_capacity_slo(r, e, errors);
  if (r.string("load", e.load) && e.load != "concurrency" && e.load != "rate") {
    r.error("load", "must be 'concurrency' (closed loop) or 'rate' (open loop, req/s), got '" +
                        e.load + "'");
  }
  r.number("start", e.start, 0, 1e6, true);
  r.number("max_load", e.max_load, 0, 1e6, true);
  r.number("resolution", e.resolution, 0, 1e6, true);
  r.integer("max_probes", e.max_probes, IntRange{1, 1000});
  r.number("max_duration_s", e.max_duration_s, 0, 7 * 24 * 3600.0, true);
  r.integer("requests", e.requests, kCount);
  r.integer("warmups", e.warmups, IntRange{0, 100'000});
  r.integer("input_tokens", e.input_tokens, kTokens);
  r.integer("output_tokens", e.output_tokens, kTokens);
  r.boolean("ignore_eos", e.ignore_eos);
  r.boolean("use_tokenize", e.use_tokenize);
  if (!e.by_rate()) {
    const std::pair<const char*, double> loads[] = {
        {"start", e.start}, {"max_load", e.max_load}, {"resolution", e.resolution}};
    for (const auto& [key, v] : loads) {
      if (r.has(key) && v != std::floor(v)) {
        r.error(key, "must be a whole number with load 'concurrency'");
      }
    }
  }
  if (e.effective_max_load() < e.start) {
    r.error("max_load", "must be >= start");
  }
  return e;
}

ExperimentParams read_params(const std::string& kind, ObjectReader& r, ErrorList& errors) {
  if (kind == "regression") {
    return read_regression(r, errors);
  }
  if (kind == "throughput") {
    return read_throughput(r, errors);
  }
  if (kind == "context_sweep") {
    return read_context_sweep(r);
  }
  if (kind == "prefix_cache") {
    return read_prefix_cache(r);
  }
  if (kind == "speculative") {
    return read_speculative(r);
  }
  if (kind == "trace") {
    return read_trace(r, errors);
  }
  if (kind == "sampled_regression") {
    return read_sampled_regression(r);
  }
  if (kind == "determinism") {
    return read_determinism(r);
  }
  if (kind == "sessions") {
    return read_sessions(r);
  }
  if (kind == "capacity") {
    return read_capacity(r, errors);
  }
  return read_gates(r, errors);
}

void read_lane_subset(ObjectReader& r, Experiment& e, const std::vector<Lane>& lanes,
                      ErrorList& errors) {
  if (!r.string_list("lanes", e.lanes)) {
    return;
  }
  if (e.lanes.empty()) {
    r.error("lanes", "must not be empty (leave it out for every lane)");
  }
  std::vector<std::string> ids;
  ids.reserve(lanes.size());
  for (const auto& l : lanes) {
    ids.push_back(l.id);
  }
  for (size_t i = 0; i < e.lanes.size(); ++i) {
    if (std::find(ids.begin(), ids.end(), e.lanes[i]) == ids.end()) {
      errors.add(index_path(key_path(r.path(), "lanes"), i),
                 "unknown lane '" + e.lanes[i] + "'" + did_you_mean(e.lanes[i], ids));
    }
  }
}

// "trim": {"warmup_s", "cooldown_s", "warmup_requests", "cooldown_requests"}: an open-loop
// phase's steady window.
void read_trim(ObjectReader& parent, Experiment::Trim& trim, ErrorList& errors) {
  const json* v = parent.member("trim", json::value_t::object);
  if (v == nullptr) return;
  ObjectReader r(*v, key_path(parent.path(), "trim"), errors);
  r.number("warmup_s", trim.warmup_s, 0, 7 * 24 * 3600.0, false);
  r.number("cooldown_s", trim.cooldown_s, 0, 7 * 24 * 3600.0, false);
  r.integer("warmup_requests", trim.warmup_requests, IntRange{0, kCount.max});
  r.integer("cooldown_requests", trim.cooldown_requests, IntRange{0, kCount.max});
  r.finish();
}

std::optional<Experiment> read_experiment(const json& value, const std::string& path,
                                          const std::vector<Lane>& lanes, ErrorList& errors) {
  ObjectReader r(value, path, errors);
  if (!r.is_object()) {
    return std::nullopt;
  }
  Experiment e;
  if (!r.string("kind", e.kind, true)) {
    return std::nullopt;
  }
  if (std::find(kinds().begin(), kinds().end(), e.kind) == kinds().end()) {
    r.error("kind", "unknown experiment kind '" + e.kind + "'" + did_you_mean(e.kind, kinds()) +
                        "; one of regression, throughput, context_sweep, prefix_cache, "
                        "speculative, gates, trace, sampled_regression, sessions, capacity, "
                        "determinism");
    return std::nullopt;  // its other keys cannot be judged
  }
  r.string("name", e.name);
  read_lane_subset(r, e, lanes, errors);
  e.params = read_params(e.kind, r, errors);
  if (e.kind != "regression" && e.kind != "determinism" && r.has("logprobs")) {
    if (e.kind == "gates") {
      r.error("logprobs", "the gates kind checks functional answers and takes no logprobs");
    } else {
      read_logprobs(r, e.logprobs);
    }
  }
  read_trial_options(r, e, lanes, errors);
  r.number("request_timeout_s", e.request_timeout_s, 0, kMaxRequestTimeoutS, true);
  r.number("steady_state_fraction", e.steady_state_fraction, 0, 1, true);
  read_trim(r, e.trim, errors);
  r.finish();
  return e;
}

// Unnamed experiments are named by kind; a repeated kind gets "-2", "-3", ...
void assign_names(std::vector<Experiment>& experiments, ErrorList& errors) {
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < experiments.size(); ++i) {
    auto& e = experiments[i];
    if (!e.name.empty() && !seen.emplace(e.name, i).second) {
      errors.add(key_path(index_path("experiments", i), "name"),
                 "duplicate experiment name '" + e.name + "'");
    }
  }
  std::map<std::string, int> per_kind;
  for (auto& e : experiments) {
    if (!e.name.empty()) {
      continue;
    }
    int& n = per_kind[e.kind];
    std::string name;
    do {
      ++n;
      name = n == 1 ? e.kind : e.kind + "-" + std::to_string(n);
    } while (seen.count(name));
    seen.emplace(name, 0);
    e.name = name;
  }
}

// A regression writes texts/<lane>.texts.json and review.json, a sampled regression
// texts/<lane>.samples.json and sampled-review.json, a determinism floor determinism/<lane>.json:
// a second one of a kind in the same run would overwrite the first's.
void refuse_repeated_regressions(const std::vector<Experiment>& experiments, ErrorList& errors) {
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < experiments.size(); ++i) {
    const std::string& kind = experiments[i].kind;
    if (kind != "regression" && kind != "sampled_regression" && kind != "determinism") continue;
    const auto [it, inserted] = first.emplace(kind, i);
    // What the first one wrote and a second would write over, as each kind names its files.
    const char* files = kind == "determinism" ? "its answers and floors (determinism/)"
                                              : "its texts and review file";
    if (!inserted)
      errors.add(key_path(index_path("experiments", i), "kind"),
                 "a plan holds one " + kind + " (also experiments[" + std::to_string(it->second) +
                     "]): a second one would overwrite " + files +
                     "; run it from a plan of its own");
  }
}

}  // namespace

std::vector<Experiment> read_experiments(const json& experiments, const std::vector<Lane>& lanes,
                                         ErrorList& errors) {
  std::vector<Experiment> out;
  if (!experiments.is_array()) {
    errors.add("experiments", "must be an array of experiments");
    return out;
  }
  if (experiments.empty()) {
    errors.add("experiments", "must name at least one experiment");
  }
  for (size_t i = 0; i < experiments.size(); ++i) {
    if (auto e = read_experiment(experiments[i], index_path("experiments", i), lanes, errors)) {
      out.push_back(std::move(*e));
    }
  }
  assign_names(out, errors);
  refuse_repeated_regressions(out, errors);
  return out;
}

}  // namespace lb::plan::detail
