#include "core/metrics/server_counters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace lb::metrics {
namespace {

// Sample names per engine. Counters are listed by their exposed sample name (with _total).
struct EngineNames {
  const char* running;
  const char* waiting;
  std::vector<const char*> kv_usage;  // first present wins (current name, then deprecated)
  const char* prompt_tokens;
  const char* generation_tokens;
  std::vector<const char*> prefix_queries;
  std::vector<const char*> prefix_hits;
  const char* spec_drafts;
  const char* spec_draft_tokens;
  const char* spec_accepted;
  const char* spec_accepted_per_pos;
  std::vector<const char*> ttft_hist;
  std::vector<const char*> itl_hist;
  std::vector<const char*> e2el_hist;
};

const EngineNames& names_for(ServerKind kind) {
  static const EngineNames vllm{
      "vllm:num_requests_running",
      "vllm:num_requests_waiting",
      {"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"},
      "vllm:prompt_tokens_total",
      "vllm:generation_tokens_total",
      {"vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"},
      {"vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"},
      "vllm:spec_decode_num_drafts_total",
      "vllm:spec_decode_num_draft_tokens_total",
      "vllm:spec_decode_num_accepted_tokens_total",
      "vllm:spec_decode_num_accepted_tokens_per_pos_total",
      {"vllm:time_to_first_token_seconds"},
      {"vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds"},
      {"vllm:e2e_request_latency_seconds"}};
  // SGLang's prefix-cache counter form (newer builds) is cached tokens against prompt tokens.
  static const EngineNames sglang{
      "sglang:num_running_reqs",
      "sglang:num_queue_reqs",
      {"sglang:token_usage"},
      "sglang:prompt_tokens_total",
      "sglang:generation_tokens_total",
      {},
      {"sglang:cached_tokens_total"},
      "",
      "",
      "",
      "",
      {"sglang:time_to_first_token_seconds"},
      {"sglang:inter_token_latency_seconds", "sglang:time_per_output_token_seconds"},
      {"sglang:e2e_request_latency_seconds"}};
  static const EngineNames llamacpp{"llamacpp:requests_processing",
                                    "llamacpp:requests_deferred",
                                    {"llamacpp:kv_cache_usage_ratio"},
                                    "llamacpp:prompt_tokens_total",
                                    "llamacpp:tokens_predicted_total",
                                    {},
                                    {},
                                    "",
                                    "llamacpp:spec_decode_num_draft_tokens_total",
                                    "llamacpp:spec_decode_num_accepted_tokens_total",
                                    "",
                                    {},
                                    {},
                                    {}};
  static const EngineNames none{};
  switch (kind) {
    case ServerKind::Vllm:
      return vllm;
    case ServerKind::Sglang:
      return sglang;
    case ServerKind::LlamaCpp:
      return llamacpp;
    case ServerKind::Tgi:  // TGI, Ollama and the simulator name no counters of their own
    case ServerKind::Ollama:
    case ServerKind::LanebenchSim:
    case ServerKind::Unknown:
      break;
  }
  return none;
}

ServerKind detect_kind(const PrometheusSnapshot& snap) {
  for (const auto& s : snap.samples) {
    if (s.name.rfind("vllm:", 0) == 0) {
      return ServerKind::Vllm;
    }
    if (s.name.rfind("sglang:", 0) == 0) {
      return ServerKind::Sglang;
    }
    if (s.name.rfind("llamacpp:", 0) == 0) {
      return ServerKind::LlamaCpp;
    }
  }
  return ServerKind::Unknown;
}

std::optional<double> sum_of(const PrometheusSnapshot& snap, const char* name) {
  if (name == nullptr || *name == '\0') {
    return std::nullopt;
  }
  return snap.sum(name);
}

std::optional<double> first_sum(const PrometheusSnapshot& snap,
                                const std::vector<const char*>& names) {
  for (const char* n : names) {
    if (auto v = sum_of(snap, n)) {
      return v;
    }
  }
  return std::nullopt;
}

// A ratio gauge reported per engine/rank: their mean.
std::optional<double> mean_of(const PrometheusSnapshot& snap,
                              const std::vector<const char*>& names) {
  for (const char* n : names) {
    const auto found = snap.find(n);
    if (found.empty()) {
      continue;
    }
    double total = 0;
    for (const auto* s : found) {
      total += s->value;
    }
    return total / static_cast<double>(found.size());
  }
  return std::nullopt;
}

std::optional<double> parse_double(const std::string* text) {
  if (text == nullptr) {
    return std::nullopt;
  }
  if (*text == "+Inf" || *text == "Inf") {
    return INFINITY;
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size()) {
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> parse_int(const std::string* text) {
  if (text == nullptr) {
    return std::nullopt;
  }
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size()) {
    return std::nullopt;
  }
  return v;
}

PromHistogram histogram_of(const PrometheusSnapshot& snap, const std::vector<const char*>& names) {
  PromHistogram h;
  for (const char* base : names) {
    const std::string name(base);
    std::map<double, double> by_le;  // summed over label sets
    for (const auto* s : snap.find(name + "_bucket")) {
      if (auto le = parse_double(s->label("le"))) {
        by_le[*le] += s->value;
      }
    }
    h.sum = snap.sum(name + "_sum");
    h.count = snap.sum(name + "_count");
    if (by_le.empty() && !h.count) {
      continue;
    }
    h.buckets.assign(by_le.begin(), by_le.end());
    return h;
  }
  return h;
}

std::vector<double> per_position(const PrometheusSnapshot& snap, const char* name) {
  std::vector<double> out;
  if (name == nullptr || *name == '\0') {
    return out;
  }
  for (const auto* s : snap.find(name)) {
    const auto pos = parse_int(s->label("position"));
    if (!pos || *pos < 0 || *pos > 1024) {
      continue;
    }
    if (out.size() <= size_t(*pos)) {
      out.resize(size_t(*pos) + 1, 0.0);
    }
    out[size_t(*pos)] += s->value;
  }
  return out;
}

void read_cache_config(const PrometheusSnapshot& snap, ServerCounters& c) {
  // Every engine of a data-parallel server reports its own (identical) cache; capacity is per
  // engine, which is what bounds one request.
  const auto info = snap.find("vllm:cache_config_info");
  if (!info.empty()) {
    const PromSample& s = *info.front();
    c.num_gpu_blocks = parse_int(s.label("num_gpu_blocks"));
    c.block_size = parse_int(s.label("block_size"));
    if (const auto* dtype = s.label("cache_dtype")) {
      c.cache_dtype = *dtype;
    }
    if (const auto* pc = s.label("enable_prefix_caching")) {
      if (*pc == "True" || *pc == "true") {
        c.prefix_caching_enabled = true;
      }
      if (*pc == "False" || *pc == "false") {
        c.prefix_caching_enabled = false;
      }
    }
    if (c.num_gpu_blocks && c.block_size) {
      c.kv_capacity_tokens = *c.num_gpu_blocks * *c.block_size;
    }
  }
  const auto sglang_max = snap.find("sglang:max_total_num_tokens");
  if (!sglang_max.empty()) {
    c.kv_capacity_tokens = static_cast<int64_t>(sglang_max.front()->value);
  }
}

}  // namespace

ServerCounters extract_server_counters(const PrometheusSnapshot& snap) {
  ServerCounters c;
  c.kind = detect_kind(snap);
  const EngineNames& n = names_for(c.kind);
  c.running = sum_of(snap, n.running);
  c.waiting = sum_of(snap, n.waiting);
  c.kv_cache_usage = mean_of(snap, n.kv_usage);
  c.prompt_tokens = sum_of(snap, n.prompt_tokens);
  c.generation_tokens = sum_of(snap, n.generation_tokens);
  c.prefix_cache_queries = first_sum(snap, n.prefix_queries);
  c.prefix_cache_hits = first_sum(snap, n.prefix_hits);
  if (c.kind == ServerKind::Sglang && c.prefix_cache_hits) {
    c.prefix_cache_queries = c.prompt_tokens;
  }
  c.spec_num_drafts = sum_of(snap, n.spec_drafts);
  c.spec_num_draft_tokens = sum_of(snap, n.spec_draft_tokens);
  c.spec_num_accepted_tokens = sum_of(snap, n.spec_accepted);
  c.spec_accepted_per_position = per_position(snap, n.spec_accepted_per_pos);
  if (c.kind == ServerKind::Sglang) {
    c.prefix_cache_hit_rate_gauge = mean_of(snap, {"sglang:cache_hit_rate"});
    c.spec_accept_length_gauge = mean_of(snap, {"sglang:spec_accept_length"});
    c.spec_accept_rate_gauge = mean_of(snap, {"sglang:spec_accept_rate"});
  }
  read_cache_config(snap, c);
  c.ttft_s = histogram_of(snap, n.ttft_hist);
  c.itl_s = histogram_of(snap, n.itl_hist);
  c.e2el_s = histogram_of(snap, n.e2el_hist);
  return c;
}

std::optional<double> histogram_quantile(const PromHistogram& h, double q) {
  if (h.buckets.empty() || q < 0 || q > 1) {
    return std::nullopt;
  }
  const double total = h.buckets.back().second;
  if (!(total > 0)) {
    return std::nullopt;
  }
  const double rank = q * total;
  double lower_bound = 0;
  double lower_count = 0;
  for (const auto& [le, count] : h.buckets) {
    if (count >= rank) {
      if (std::isinf(le)) {
        return lower_bound;
      }
      if (count == lower_count) {
        return le;
      }
      return lower_bound + (le - lower_bound) * (rank - lower_count) / (count - lower_count);
    }
    lower_bound = le;
    lower_count = count;
  }
  return lower_bound;
}

std::optional<double> histogram_mean(const PromHistogram& h) {
  if (!h.sum || !h.count || !(*h.count > 0)) {
    return std::nullopt;
  }
  return *h.sum / *h.count;
}

std::optional<double> kv_windows(const ServerCounters& counters, int64_t max_model_len) {
  if (!counters.kv_capacity_tokens || max_model_len <= 0) {
    return std::nullopt;
  }
  return static_cast<double>(*counters.kv_capacity_tokens) / static_cast<double>(max_model_len);
}

}  // namespace lb::metrics
