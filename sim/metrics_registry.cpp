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

// DCGM's energy counter (mJ since the driver loaded, a whole number) and power gauge (W), one
// sample per GPU with dcgm-exporter's labels, the lane's energy split evenly over its GPUs.
void render_dcgm(std::string& out, const Profile& profile, double joules, double watts) {
  const std::string energy = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  const std::string power = "DCGM_FI_DEV_POWER_USAGE";
  std::string energy_lines = "# HELP " + energy +
                             " Total energy consumption since boot (in mJ).\n# TYPE " + energy +
                             " counter\n";
  std::string power_lines = "# HELP " + power + " Power draw (in W).\n# TYPE " + power + " gauge\n";
  for (int gpu = 0; gpu < profile.gpus; ++gpu) {
    const std::string id = std::to_string(gpu);
    const std::string labels = "gpu=\"" + id + "\",UUID=\"GPU-lanebench-sim-" + id +
                               "\",device=\"nvidia" + id +
                               "\",modelName=\"LaneBench simulator\",Hostname=\"localhost\"";
    char value[64];
    std::snprintf(value, sizeof value, "%.0f", joules * 1000.0 / profile.gpus);
    energy_lines += energy + "{" + labels + "} " + value + "\n";
    std::snprintf(value, sizeof value, "%.3f", watts / profile.gpus);
    power_lines += power + "{" + labels + "} " + value + "\n";
  }
  out += energy_lines + power_lines;
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

std::string MetricsRegistry::render(const EngineSnapshot& e, double time_scale) const {
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
  // Energy over the client's clock: a lane at time_scale s uses the modelled watts for s times the
  // model's seconds, so mean power reads true and energy per token scales like throughput does.
  if (profile_.energy_counter) render_dcgm(out, profile_, e.energy_j * time_scale, e.watts);
  return out;
}

}  // namespace lb::sim
