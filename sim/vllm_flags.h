#pragma once
// vLLM's serving flags that change what the simulator models, so that a launch command written
// for `vllm serve` can run the simulator with the same flags (sim/README.md, "vLLM flags"):
//   --max-num-batched-tokens  prefill chunk ceiling: larger chunks cut the per-step overhead of
//                             prefill (lower TTFT) but slow every decode step that shares a step
//                             with a chunk (higher TPOT/ITL)
//   --max-num-seqs            admission limit
//   --num-speculative-tokens  MTP depth: deeper drafts yield more tokens per step, with
//                             acceptance falling per position, at a verification cost per token
//   --[no-]enable-prefix-caching
//   --kv-cache-dtype          fp8 holds twice the tokens of bf16/auto in the same memory
//   --gpu-memory-utilization  the KV cache grows and shrinks with the memory left after weights
//   --limit-mm-per-prompt     images and videos a prompt may carry ('{"image": 2, "video": 0}'
//                             or image=2,video=0; a modality left out has no limit)
//   --language-model-only     no media at all (every limit 0)
#include <cstdint>
#include <optional>
#include <string>

#include "profile.h"

namespace lb::sim {

struct VllmFlags {
  std::optional<int64_t> max_num_batched_tokens;
  std::optional<int> max_num_seqs;
  std::optional<int> num_speculative_tokens;
  std::optional<bool> enable_prefix_caching;
  std::optional<std::string> kv_cache_dtype;
  std::optional<double> gpu_memory_utilization;
  std::optional<std::string> limit_mm_per_prompt;
  bool language_model_only = false;
};

// Changes `profile` as the flags would change the served engine; returns an error naming the
// flag (the server then refuses to start, as vLLM does), or "".
std::string apply_vllm_flags(Profile& profile, const VllmFlags& flags);

}  // namespace lb::sim
