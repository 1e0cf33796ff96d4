#include "vllm_flags.h"

#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

namespace lb::sim {
namespace {

// The profiles' constants were fitted with vLLM's defaults: a 4096-token prefill budget per step
// and --gpu-memory-utilization 0.9.
constexpr double kFittedMemoryUtilization = 0.9;
// Share of a step's prefill time that is per-step overhead at the fitted budget (scheduling,
// kernel launches): it is paid once per chunk, so smaller chunks pay it more often.
constexpr double kPrefillStepOverheadShare = 0.15;
// Share of GPU memory taken by weights and activations; the rest up to the utilization is KV.
constexpr double kWeightsMemoryShare = 0.5;
// Decode step cost per draft token, relative to a step without speculation: fitted to the fp8
// and fp8-mtp3 profiles (20.9 ms and 31.4 ms per step, 3 draft tokens).
constexpr double kDraftTokenCost = 0.168;
// Batch slowdown added per draft token (fp8: 0.3, fp8-mtp3: 0.65).
constexpr double kDraftBatchSlowdown = 0.117;
// Conditional acceptance of draft position i given i-1: MTP's measured first three, then each
// next position keeps this share of the one before.
constexpr double kDefaultAcceptance[] = {0.9, 0.75, 0.6};
constexpr double kAcceptanceDecay = 0.8;

bool is_fp8_dtype(const std::string& d) { return d.rfind("fp8", 0) == 0; }

void apply_batched_tokens(Profile& p, int64_t budget) {
  const double fitted = static_cast<double>(p.max_num_batched_tokens);
  const double ratio = static_cast<double>(budget) / fitted;
  // Per-token prefill time: the fitted one, with its overhead share rescaled to the new chunk.
  const double per_token_s =
      (1.0 - kPrefillStepOverheadShare + kPrefillStepOverheadShare / ratio) / p.prefill_tok_s;
  p.prefill_tok_s = 1.0 / per_token_s;
  // A decode step that shares a step with a chunk waits for the whole chunk.
  p.prefill_interference *= ratio;
  p.max_num_batched_tokens = budget;
}

void apply_speculative_depth(Profile& p, int depth) {
  const int old_depth = p.num_speculative_tokens;
  const double old_step_s = p.expected_tokens_per_step() / p.decode_tok_s;
  std::vector<double> acceptance = p.acceptance;
  if (acceptance.empty())
    acceptance.assign(std::begin(kDefaultAcceptance), std::end(kDefaultAcceptance));
  while (static_cast<int>(acceptance.size()) < depth)
    acceptance.push_back(acceptance.back() * kAcceptanceDecay);
  acceptance.resize(static_cast<size_t>(depth));
  p.acceptance = acceptance;
  p.num_speculative_tokens = depth;
  const double step_s =
      old_step_s * (1.0 + kDraftTokenCost * depth) / (1.0 + kDraftTokenCost * old_depth);
  p.decode_tok_s = p.expected_tokens_per_step() / step_s;
  p.batch_slowdown = std::max(0.0, p.batch_slowdown + kDraftBatchSlowdown * (depth - old_depth));
}

// '{"image": 2, "video": 0}' (vLLM's JSON form) or "image=2,video=0" (its older form).
std::optional<std::map<std::string, int>> parse_mm_limits(const std::string& text) {
  std::map<std::string, int> limits;
  const auto json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_discarded()) {
    if (!json.is_object()) return std::nullopt;
    for (const auto& [key, value] : json.items()) {
      if (!value.is_number_integer() || value.get<int64_t>() < 0 ||
          value.get<int64_t>() > 1'000'000)
        return std::nullopt;
      limits[key] = value.get<int>();
    }
    return limits;
  }
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size() ||
        item.find_first_not_of("0123456789", eq + 1) != std::string::npos || item.size() - eq > 8)
      return std::nullopt;
    limits[item.substr(0, eq)] = std::stoi(item.substr(eq + 1));
    pos = end + 1;
  }
  return limits;
}

std::string apply_mm_limits(Profile& p, const VllmFlags& f) {
  if (f.limit_mm_per_prompt) {
    const auto limits = parse_mm_limits(*f.limit_mm_per_prompt);
    if (!limits)
      return "--limit-mm-per-prompt expects a JSON object such as '{\"image\": 2, \"video\": "
             "0}' (got " +
             *f.limit_mm_per_prompt + ")";
    const auto get = [&](const char* key) {
      const auto it = limits->find(key);
      return it == limits->end() ? -1 : it->second;
    };
    p.image_limit = get("image");
    p.video_limit = get("video");
  }
  if (f.language_model_only) p.image_limit = p.video_limit = 0;
  return {};
}

}  // namespace

std::string apply_vllm_flags(Profile& p, const VllmFlags& f) {
  if (f.max_num_batched_tokens) {
    if (*f.max_num_batched_tokens < 16) return "--max-num-batched-tokens must be at least 16";
    apply_batched_tokens(p, *f.max_num_batched_tokens);
  }
  if (f.max_num_seqs) {
    if (*f.max_num_seqs < 1) return "--max-num-seqs must be at least 1";
    p.max_num_seqs = *f.max_num_seqs;
  }
  if (f.num_speculative_tokens) {
    if (*f.num_speculative_tokens < 0 || *f.num_speculative_tokens > 8)
      return "--num-speculative-tokens must be 0-8";
    apply_speculative_depth(p, *f.num_speculative_tokens);
  }
  if (f.enable_prefix_caching) p.prefix_caching = *f.enable_prefix_caching;
  if (f.kv_cache_dtype) {
    const std::string& d = *f.kv_cache_dtype;
    if (d != "auto" && d != "bfloat16" && d != "float16" && d != "fp8" && d != "fp8_e4m3" &&
        d != "fp8_e5m2")
      return "--kv-cache-dtype must be auto, bfloat16, float16, fp8, fp8_e4m3 or fp8_e5m2 (got " +
             d + ")";
    const double old_bytes = is_fp8_dtype(p.cache_dtype) ? 1 : 2;
    const double new_bytes = is_fp8_dtype(d) ? 1 : 2;
    p.kv_tokens = static_cast<int64_t>(static_cast<double>(p.kv_tokens) * old_bytes / new_bytes);
    p.cache_dtype = d;
  }
  if (f.gpu_memory_utilization) {
    const double u = *f.gpu_memory_utilization;
    if (!(u > 0 && u <= 1)) return "--gpu-memory-utilization must be in (0, 1]";
    if (u <= kWeightsMemoryShare)
      return "--gpu-memory-utilization " + std::to_string(u).substr(0, 4) +
             " leaves no memory for the KV cache (weights and activations take about " +
             std::to_string(kWeightsMemoryShare).substr(0, 4) + " of the GPU)";
    const double scale =
        (u - kWeightsMemoryShare) / (kFittedMemoryUtilization - kWeightsMemoryShare);
    p.kv_tokens = static_cast<int64_t>(std::llround(static_cast<double>(p.kv_tokens) * scale));
  }
  return apply_mm_limits(p, f);
}

}  // namespace lb::sim
