#include "metrics_registry.h"

#include <cstdio>

namespace lb::sim {
namespace {

// Prometheus' float formatting as prometheus_client prints it (repr of a Python float).
std::string num(double v) {
  char buf[64];
  if (v == static_cast<double>(static_cast<int64_t>(v)) && v < 1e15 && v > -1e15) {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return buf;
}

void header(std::string& out, const std::string& name, const char* help, const char* type) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

void sample(std::string& out, const std::string& name, const std::string& labels, double v) {
  out += name + "{" + labels + "} " + num(v) + "\n";
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void Histogram::observe(double value) {
  size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i]) ++i;
  ++counts_[i];
  sum_ += value;
  ++count_;
}

void Histogram::render(std::string& out, const std::string& name, const std::string& labels) const {
  int64_t cumulative = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    cumulative += counts_[i];
    const std::string le = i < bounds_.size() ? num(bounds_[i]) : "+Inf";
    sample(out, name + "_bucket", labels + ",le=\"" + le + "\"", static_cast<double>(cumulative));
  }
  sample(out, name + "_count", labels, static_cast<double>(count_));
  sample(out, name + "_sum", labels, sum_);
}

MetricsRegistry::MetricsRegistry(const Profile& profile)
    : profile_(profile),
      ttft_({0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
             1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}),
      itl_({0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
            20.0, 40.0, 80.0}),
      e2e_({0.3,  0.5,  0.8,  1.0,  1.5,   2.0,   2.5,   5.0,   10.0,   15.0,  20.0,
            30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}) {}

std::string MetricsRegistry::render(const EngineSnapshot& e) const {
  const std::string l = "model_name=\"" + profile_.model_id + "\",engine=\"0\"";
  const EngineCounters& c = e.counters;
  std::string out;
  header(out, "vllm:num_requests_running", "Number of requests in model execution batches.",
         "gauge");
  sample(out, "vllm:num_requests_running", l, e.running);
  header(out, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", "gauge");
  sample(out, "vllm:num_requests_waiting", l, e.waiting);
  header(out, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", "gauge");
  sample(out, "vllm:kv_cache_usage_perc", l, e.kv_cache_usage);
  header(out, "vllm:prefix_cache_queries",
         "Prefix cache queries, in terms of number of queried tokens.", "counter");
  sample(out, "vllm:prefix_cache_queries_total", l, static_cast<double>(c.prefix_cache_queries));
  header(out, "vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached tokens.",
         "counter");
  sample(out, "vllm:prefix_cache_hits_total", l, static_cast<double>(c.prefix_cache_hits));
  header(out, "vllm:prompt_tokens_total", "Number of prefill tokens processed.", "counter");
  sample(out, "vllm:prompt_tokens_total", l, static_cast<double>(c.prompt_tokens));
  header(out, "vllm:generation_tokens_total", "Number of generation tokens processed.", "counter");
  sample(out, "vllm:generation_tokens_total", l, static_cast<double>(c.generation_tokens));
  header(out, "vllm:num_preemptions_total", "Cumulative number of preemption from the engine.",
         "counter");
  sample(out, "vllm:num_preemptions_total", l, 0.0);
  header(out, "vllm:request_success_total", "Count of successfully processed requests.", "counter");
  for (const char* reason : {"stop", "length", "abort", "tool_calls"}) {
    auto it = finished_.find(reason);
    const double n = it == finished_.end() ? 0.0 : static_cast<double>(it->second);
    sample(out, "vllm:request_success_total", l + ",finished_reason=\"" + reason + "\"", n);
  }
  if (profile_.num_speculative_tokens > 0) {
    header(out, "vllm:spec_decode_num_drafts", "Number of spec decoding drafts.", "counter");
    sample(out, "vllm:spec_decode_num_drafts_total", l, static_cast<double>(c.spec_drafts));
    header(out, "vllm:spec_decode_num_draft_tokens", "Number of draft tokens.", "counter");
    sample(out, "vllm:spec_decode_num_draft_tokens_total", l,
           static_cast<double>(c.spec_draft_tokens));
    header(out, "vllm:spec_decode_num_accepted_tokens", "Number of accepted tokens.", "counter");
    sample(out, "vllm:spec_decode_num_accepted_tokens_total", l,
           static_cast<double>(c.spec_accepted_tokens));
    header(out, "vllm:spec_decode_num_accepted_tokens_per_pos",
           "Accepted tokens per draft position.", "counter");
    for (size_t i = 0; i < c.spec_accepted_per_pos.size(); ++i) {
      sample(out, "vllm:spec_decode_num_accepted_tokens_per_pos_total",
             l + ",position=\"" + std::to_string(i) + "\"",
             static_cast<double>(c.spec_accepted_per_pos[i]));
    }
  }
  header(out, "vllm:cache_config_info", "Information of the LLMEngine CacheConfig", "gauge");
  const std::string info =
      "block_size=\"" + std::to_string(profile_.block_size) +
      "\",gpu_memory_utilization=\"0.9\",swap_space=\"4\",cache_dtype=\"" + profile_.cache_dtype +
      "\",is_attention_free=\"False\",num_gpu_blocks_override=\"None\",sliding_window=\"None\","
      "enable_prefix_caching=\"" +
      (profile_.prefix_caching ? "True" : "False") +
      "\",prefix_caching_hash_algo=\"builtin\",cpu_offload_gb=\"0\",calculate_kv_scales=\"False\","
      "kv_sharing_fast_prefill=\"False\",mamba_page_size_padded=\"None\",num_gpu_blocks=\"" +
      std::to_string(profile_.num_gpu_blocks()) + "\",num_cpu_blocks=\"None\",engine=\"0\"";
  sample(out, "vllm:cache_config_info", info, 1.0);
  header(out, "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
         "histogram");
  ttft_.render(out, "vllm:time_to_first_token_seconds", l);
  header(out, "vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.",
         "histogram");
  itl_.render(out, "vllm:inter_token_latency_seconds", l);
  header(out, "vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.",
         "histogram");
  e2e_.render(out, "vllm:e2e_request_latency_seconds", l);
  return out;
}

}  // namespace lb::sim
