#pragma once
// Profile: the constants of one modelled serving configuration. Defaults come from the seeds'
// measurements (sim/README.md explains each constant and the figure it was fitted to). Every
// field can be overridden by name through apply_option().
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::sim {

struct Profile {
  std::string name;
  std::string model_id;
  std::string weights_dtype;  // "bf16" or "fp8": selects the output drift model
  std::string cache_dtype;    // reported in vllm:cache_config_info

  // Prefill: cost_s = uncached/prefill_tok_s + attention_coeff * (L^e - cached^e)
  //                   + cached/cached_tok_s, e = attention_exponent, run in steps of
  //                   max_num_batched_tokens.
  double api_latency_s = 0.0;  // per request, before scheduling; holds no GPU time
  double prefill_tok_s = 0.0;
  double attention_coeff = 0.0;     // s per token^attention_exponent
  double attention_exponent = 2.0;  // 2 = textbook attention; fitted per profile
  double cached_tok_s = 1.0e6;
  int64_t max_num_batched_tokens = 4096;

  // Decode: single-stream rate, slowed by batch size, by prefill sharing the step, by context.
  double decode_tok_s = 0.0;          // c1 decode rate incl. speculation (1/TPOT)
  double batch_slowdown = 0.0;        // step time factor 1 + batch_slowdown * (n - 1)
  double prefill_interference = 0.0;  // step time factor 1 + this while a prefill runs
  double context_slowdown_per_100k = 0.0;
  double output_stagger_s = 50e-6;  // between the first tokens of prefills finished together

  // Speculative decoding (MTP): conditional acceptance of draft position i given i-1 accepted.
  int num_speculative_tokens = 0;
  std::vector<double> acceptance;

  // Capacity and admission.
  int64_t kv_tokens = 0;
  int block_size = 16;
  int64_t max_model_len = 262'144;
  int max_num_seqs = 256;
  bool prefix_caching = true;
  int64_t checkpoint_tokens = 8192;  // recurrent-state checkpoint spacing for cache reuse

  // Multimodal input (multimodal_prefill.h): more images or videos than the limit (-1 = no
  // limit; 0 = a text-only lane) are answered with vLLM's 400 for --limit-mm-per-prompt;
  // otherwise each medium adds one prompt token per vision patch and the vision encoder's
  // time before prefill.
  int image_limit = -1;
  int video_limit = -1;
  int vision_patch_px = 28;
  double vision_encoder_s_per_mpx = 0.02;

  // Energy (power_model.h): board power of the lane's GPUs, split evenly over `gpus` on /metrics
  // as DCGM's energy counter; energy_counter false leaves the counter out.
  double idle_watts = 90;
  double busy_watts = 700;
  int gpus = 1;
  bool energy_counter = true;

  int64_t num_gpu_blocks() const { return kv_tokens / block_size; }
  // Expected tokens per decode step: 1 + sum over positions of P(all drafts up to it accepted).
  double expected_tokens_per_step() const;
};

// Built-in profiles: bf16, fp8, fp8-mtp3, fp8-nocache, fp8-bf16kv.
std::vector<std::string> profile_names();
std::optional<Profile> builtin_profile(std::string_view name);

// Sets one field by its option name (the names in option_names()). Returns an error message
// naming the option, or an empty string.
std::string apply_option(Profile& profile, std::string_view key, std::string_view value);
std::vector<std::string> profile_option_names();

}  // namespace lb::sim
