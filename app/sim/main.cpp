// lanebench-sim: an OpenAI-compatible serving simulator on loopback (see sim/README.md).
//   lanebench-sim --demo                      bf16, fp8, fp8-mtp3, fp8-nocache on free ports
//   lanebench-sim --profile fp8 --port 8001   one lane
//   lanebench-sim --lane "fp8-mtp3?time_scale=0.1" --lane bf16
//   lanebench-sim --profile fp8-mtp3 --port 8001 --max-num-batched-tokens 8192   (vLLM flags)
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/server.h"
#include "sim/sim_config.h"
#include "sim/vllm_flags.h"

namespace {

struct Options {
  bool demo = false;
  std::string profile = "fp8";
  std::vector<std::string> lanes;
  uint16_t port = 0;
  double time_scale = 1.0;
  std::string trace;
  std::string fault = "none";
  double fault_rate = 1.0;
  double error_rate = 0.0;
  double retry_after_s = 1.0;
  double stall_ms = 600'000.0;
  double slow_first_byte_ms = 2'000.0;
  int fault_after_events = 3;
  bool flip_facts = false;
  std::vector<std::string> sets;
  lb::sim::VllmFlags vllm;
};

// vLLM's flags that change the modelled engine (sim/vllm_flags.h).
void add_vllm_flags(CLI::App& app, Options& o, bool& prefix_on, bool& prefix_off) {
  auto& v = o.vllm;
  app.add_option("--max-num-batched-tokens", v.max_num_batched_tokens,
                 "vLLM: prefill tokens per step (TTFT against decode)");
  app.add_option("--max-num-seqs", v.max_num_seqs, "vLLM: sequences admitted at once");
  app.add_option("--num-speculative-tokens", v.num_speculative_tokens,
                 "vLLM: MTP draft depth (acceptance against cost)");
  app.add_flag("--enable-prefix-caching", prefix_on, "vLLM: prefix caching on");
  app.add_flag("--no-enable-prefix-caching", prefix_off, "vLLM: prefix caching off");
  app.add_option("--kv-cache-dtype", v.kv_cache_dtype, "vLLM: auto, bfloat16, fp8, ...");
  app.add_option("--gpu-memory-utilization", v.gpu_memory_utilization,
                 "vLLM: GPU memory share; the KV cache gets what the weights leave");
  app.add_option("--limit-mm-per-prompt", v.limit_mm_per_prompt,
                 "vLLM: images and videos per prompt, e.g. '{\"image\": 2, \"video\": 0}'");
  app.add_flag("--language-model-only", v.language_model_only, "vLLM: no images or videos");
}

// Other vLLM arguments (a model name, --tensor-parallel-size 2, ...) are accepted with a
// warning, so that a vLLM command line runs the simulator unchanged.
void warn_unmodelled(const std::vector<std::string>& extras) {
  if (extras.empty()) return;
  std::string text;
  for (const auto& e : extras) text += " " + e;
  std::cerr << "lanebench-sim: warning: ignoring arguments it does not model:" << text << "\n";
}

// Builds the config of one lane: its spec, then the command-line flags, then --set overrides.
std::string make_config(const Options& o, const std::string& spec, size_t lane_index,
                        lb::sim::SimConfig& out) {
  auto parsed = lb::sim::parse_lane_spec(spec);
  if (auto* err = std::get_if<std::string>(&parsed)) return *err;
  out = std::get<lb::sim::SimConfig>(std::move(parsed));
  if (o.time_scale != 1.0) out.time_scale = o.time_scale;
  if (std::string err = lb::sim::apply_vllm_flags(out.profile, o.vllm); !err.empty()) return err;
  if (!lb::sim::parse_fault_kind(o.fault, out.faults.kind))
    return "unknown fault \"" + o.fault + "\"";
  out.faults.rate = o.fault_rate;
  out.faults.error_rate = o.error_rate;
  out.faults.retry_after_s = o.retry_after_s;
  out.faults.stall_ms = o.stall_ms;
  out.faults.slow_first_byte_ms = o.slow_first_byte_ms;
  out.faults.after_events = o.fault_after_events;
  out.flip_facts = out.flip_facts || o.flip_facts;
  if (!o.trace.empty()) {
    out.trace_path = lane_index == 0 ? o.trace : o.trace + "." + out.profile.name;
  }
  // vLLM's media fetch settings come from its environment; so do the simulator's.
  for (const auto& [env, key] : {std::pair{"VLLM_IMAGE_FETCH_TIMEOUT", "image_fetch_timeout_s"},
                                 {"VLLM_VIDEO_FETCH_TIMEOUT", "video_fetch_timeout_s"},
                                 {"VLLM_MAX_MEDIA_DOWNLOAD_SIZE_MB", "max_media_download_mb"}}) {
    const char* value = std::getenv(env);
    if (!value || !*value) continue;
    if (std::string err = lb::sim::apply_sim_option(out, key, value); !err.empty())
      return std::string(env) + ": " + err;
  }
  for (const auto& kv : o.sets) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) return "--set needs key=value, got \"" + kv + "\"";
    std::string err = lb::sim::apply_sim_option(out, kv.substr(0, eq), kv.substr(eq + 1));
    if (!err.empty()) return err;
  }
  return {};
}

int wait_for_signal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  int sig = 0;
  sigwait(&set, &sig);
  return sig;
}

}  // namespace

int main(int argc, char** argv) {
  // Block the stop signals before any lane thread exists so only sigwait() receives them.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  Options o;
  CLI::App app{"lanebench-sim: a vLLM-compatible serving simulator on 127.0.0.1"};
  app.set_version_flag("--version", std::string("lanebench-sim ") + LANEBENCH_VERSION);
  app.add_flag("--demo", o.demo, "start the demo lanes: bf16, fp8, fp8-mtp3, fp8-nocache");
  app.add_option("--profile", o.profile, "profile of the single lane")->capture_default_str();
  app.add_option("--lane", o.lanes, "lane spec PROFILE[?key=value&...]; repeatable");
  app.add_option("--port", o.port, "port of the single (or first) lane; 0 = any free port");
  app.add_option("--time-scale", o.time_scale, "real duration = model duration * scale")
      ->check(CLI::PositiveNumber);
  app.add_option("--trace", o.trace, "write one JSON line per sent event to FILE");
  app.add_option("--fault", o.fault,
                 "fault for a fraction of requests: 429, 500, midstream_error, drop, stall, "
                 "malformed, slow_first_byte");
  app.add_option("--fault-rate", o.fault_rate, "fraction of requests given --fault")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--error-rate", o.error_rate, "fraction of requests answered 500")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--retry-after-s", o.retry_after_s, "Retry-After of 429 answers");
  app.add_option("--stall-ms", o.stall_ms, "how long a stalled stream is held open (model ms)");
  app.add_option("--slow-first-byte-ms", o.slow_first_byte_ms, "first-byte delay (model ms)");
  app.add_option("--fault-after-events", o.fault_after_events,
                 "token events sent before a mid-stream fault strikes");
  app.add_flag("--flip-facts", o.flip_facts, "let the FP8 drift model flip facts");
  app.add_option("--set", o.sets, "override any option or profile field: key=value; repeatable");
  bool prefix_on = false, prefix_off = false;
  add_vllm_flags(app, o, prefix_on, prefix_off);
  app.allow_extras();
  CLI11_PARSE(app, argc, argv);
  warn_unmodelled(app.remaining());
  if (prefix_on && prefix_off) {
    std::cerr << "lanebench-sim: --enable-prefix-caching and --no-enable-prefix-caching "
                 "contradict each other\n";
    return 2;
  }
  if (prefix_on || prefix_off) o.vllm.enable_prefix_caching = prefix_on;

  std::vector<std::string> specs = o.lanes;
  if (o.demo) {
    for (const char* p : {"bf16", "fp8", "fp8-mtp3", "fp8-nocache"}) specs.emplace_back(p);
  }
  if (specs.empty()) specs.push_back(o.profile);

  std::vector<std::unique_ptr<lb::sim::Server>> servers;
  for (size_t i = 0; i < specs.size(); ++i) {
    lb::sim::SimConfig config;
    const std::string err = make_config(o, specs[i], i, config);
    if (!err.empty()) {
      std::cerr << "lanebench-sim: " << err << "\n";
      return 2;
    }
    auto server = std::make_unique<lb::sim::Server>(std::move(config));
    try {
      server->start(i == 0 ? o.port : 0);
    } catch (const std::exception& e) {
      std::cerr << "lanebench-sim: " << e.what() << "\n";
      return 1;
    }
    std::cout << server->config().profile.name << " " << server->base_url() << std::endl;
    servers.push_back(std::move(server));
  }
  const int sig = wait_for_signal();
  std::cerr << "lanebench-sim: signal " << sig << ", stopping\n";
  for (auto& s : servers) s->stop();
  return 0;
}
