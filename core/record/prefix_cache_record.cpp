#include "core/record/prefix_cache_record.h"

#include "core/record/json_member.h"

namespace lb::record {

const PrefixPassRecord* PrefixCacheRecord::pass(const std::string& name) const {
  for (const PrefixPassRecord& p : passes)
    if (p.name == name) return &p;
  return nullptr;
}

std::optional<PrefixCacheRecord> read_prefix_cache(const nlohmann::json& prefix_cache) {
  if (!prefix_cache.is_object()) return std::nullopt;
  PrefixCacheRecord r;
  const nlohmann::json& passes = member(prefix_cache, "passes");
  for (const char* name : {"cold", "warm", "control"}) {
    const nlohmann::json& p = member(passes, name);
    if (!p.is_object()) continue;
    PrefixPassRecord pass;
    pass.name = name;
    pass.median_ttft_ms = member_figure(p, "median_ttft_ms");
    pass.output_tok_s = member_figure(p, "output_tok_s");
    pass.effective_prefill_tok_s = member_figure(p, "effective_prefill_tok_s");
    pass.prompt_tokens = member_figure(p, "prompt_tokens");
    pass.cached_tokens = member_figure(p, "cached_tokens");
    pass.cached_provenance = member_text(member(p, "cached_tokens"), "provenance");
    pass.failed = member_figure(p, "failed");
    r.passes.push_back(std::move(pass));
  }
  const nlohmann::json& evidence = member(prefix_cache, "evidence");
  r.reuse_detected = member_optional_flag(evidence, "reuse_detected");
  r.reuse_basis = member_text(evidence, "reuse_basis");
  r.warning = member_text(evidence, "warning");
  r.cached_tokens_ratio = member_figure(evidence, "cached_tokens_ratio");
  r.counter_hit_rate = member_figure(evidence, "counter_hit_rate");
  r.ttft_ratio_cold_over_warm = member_figure(evidence, "ttft_ratio_cold_over_warm");
  return r;
}

}  // namespace lb::record
