#pragma once
// The serving engine's own counters read from a /metrics snapshot (vLLM `vllm:`, SGLang
// `sglang:`, llama.cpp `llamacpp:`), and the change between two snapshots taken before and after
// an experiment. Every figure here has Provenance::Server.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/prometheus_text.h"
#include "core/metrics/request_record.h"
#include "core/metrics/server_kind.h"

namespace lb::metrics {

// A cumulative histogram summed over label sets (e.g. engines). Bounds in the metric's unit
// (seconds for the latency histograms); the last bucket is +Inf.
struct PromHistogram {
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative count), ascending le
  std::optional<double> sum;
  std::optional<double> count;
  bool empty() const { return buckets.empty() && !count; }
};

struct ServerCounters {
  ServerKind kind = ServerKind::Unknown;
  // Gauges (summed over engines/ranks).
  std::optional<double> running;
  std::optional<double> waiting;
  std::optional<double> kv_cache_usage;  // 0..1 (vLLM kv_cache_usage_perc, SGLang token_usage)
  // Counters (monotonic).
  std::optional<double> prompt_tokens;
  std::optional<double> generation_tokens;
  std::optional<double> prefix_cache_queries;  // tokens queried (vLLM; SGLang prompt tokens when
                                               // its cached_tokens_total counter exists)
  std::optional<double> prefix_cache_hits;     // tokens hit
  std::optional<double> spec_num_drafts;
  std::optional<double> spec_num_draft_tokens;
  std::optional<double> spec_num_accepted_tokens;
  std::vector<double> spec_accepted_per_position;  // index = draft position
  // SGLang reports these per logging interval as gauges: sampled, not differenced.
  std::optional<double> prefix_cache_hit_rate_gauge;
  std::optional<double> spec_accept_length_gauge;
  std::optional<double> spec_accept_rate_gauge;
  // KV capacity: vLLM cache_config_info (num_gpu_blocks x block_size), SGLang
  // max_total_num_tokens.
  std::optional<int64_t> num_gpu_blocks;
  std::optional<int64_t> block_size;
  std::optional<int64_t> kv_capacity_tokens;
  std::string cache_dtype;                     // "auto", "fp8", ... when the server says
  std::optional<bool> prefix_caching_enabled;  // when the server says
  PromHistogram ttft_s;
  PromHistogram itl_s;
  PromHistogram e2el_s;
};

ServerCounters extract_server_counters(const PrometheusSnapshot& snapshot);

// Prometheus' histogram_quantile(): q in [0, 1], linear interpolation inside the bucket that
// holds the rank (the first bucket starts at 0); a rank in the +Inf bucket gives the highest
// finite bound. nullopt when the histogram holds no observations.
std::optional<double> histogram_quantile(const PromHistogram& histogram, double q);
// sum / count; nullopt without observations.
std::optional<double> histogram_mean(const PromHistogram& histogram);

// How many full-length requests fit in the KV cache: capacity / max_model_len.
std::optional<double> kv_windows(const ServerCounters& counters, int64_t max_model_len);

// after - before. A counter that went down (server restarted between the snapshots) has no
// delta: it is left unset and named in `reset_counters`, so no figure silently mixes epochs.
struct CounterDelta {
  Provenance provenance = Provenance::Server;
  ServerKind kind = ServerKind::Unknown;
  std::vector<std::string> reset_counters;
  std::optional<double> prompt_tokens;
  std::optional<double> generation_tokens;
  std::optional<double> prefix_cache_queries;
  std::optional<double> prefix_cache_hits;
  std::optional<double> prefix_cache_hit_rate;  // d hits / d queries
  std::optional<double> spec_num_drafts;
  std::optional<double> spec_num_draft_tokens;
  std::optional<double> spec_num_accepted_tokens;
  std::vector<double> spec_accepted_per_position;
  std::optional<double> spec_acceptance_rate;        // d accepted / d draft tokens
  std::optional<double> spec_acceptance_length;      // 1 + d accepted / d drafts
  std::vector<double> spec_acceptance_per_position;  // d accepted[pos] / d drafts
  PromHistogram ttft_s;
  PromHistogram itl_s;
  PromHistogram e2el_s;
  // Sampled gauges from the "after" snapshot (SGLang), for lack of counters.
  std::optional<double> prefix_cache_hit_rate_gauge;
  std::optional<double> spec_accept_length_gauge;
  std::optional<double> spec_accept_rate_gauge;
};

CounterDelta delta(const ServerCounters& before, const ServerCounters& after);

nlohmann::json to_json(const ServerCounters& counters);
nlohmann::json to_json(const CounterDelta& delta);

}  // namespace lb::metrics
