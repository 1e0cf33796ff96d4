#include "core/record/prefix_cache_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {
namespace {

using nlohmann::json;

constexpr const char* kPassNames[] = {"cold", "warm", "control"};

PrefixPassRecord read_pass(const char* name, const json& p) {
  PrefixPassRecord pass;
  pass.name = name;
  pass.median_ttft_ms = member_figure(p, "median_ttft_ms");
  pass.output_tok_s = member_figure(p, "output_tok_s");
  pass.effective_prefill_tok_s = member_figure(p, "effective_prefill_tok_s");
  pass.prompt_tokens = member_figure(p, "prompt_tokens");
  pass.cached_tokens = member_figure(p, "cached_tokens");
  pass.cached_provenance = member_text(member(p, "cached_tokens"), "provenance");
  pass.failed = member_figure(p, "failed");
  pass.counters_read = p.contains("prefix_cache_hits") || p.contains("prefix_cache_queries");
  pass.prefix_cache_hits = member_number(p, "prefix_cache_hits");
  pass.prefix_cache_queries = member_number(p, "prefix_cache_queries");
  return pass;
}

json to_json(const PrefixPassRecord& p) {
  json j = {{"median_ttft_ms", figure_or_null(p.median_ttft_ms)},
            {"output_tok_s", figure_or_null(p.output_tok_s)},
            {"effective_prefill_tok_s", figure_or_null(p.effective_prefill_tok_s)},
            {"prompt_tokens", count_or_null(p.prompt_tokens)},
            {"failed", count_or_null(p.failed)}};
  j["cached_tokens"] =
      labelled(count_or_null(p.cached_tokens),
               p.cached_provenance.empty() ? "server" : p.cached_provenance.c_str());
  if (p.counters_read) {
    j["prefix_cache_hits"] = number_or_null(p.prefix_cache_hits);
    j["prefix_cache_queries"] = number_or_null(p.prefix_cache_queries);
  }
  return j;
}

}  // namespace

const PrefixPassRecord* PrefixCacheRecord::pass(const std::string& name) const {
  for (const PrefixPassRecord& p : passes)
    if (p.name == name) return &p;
  return nullptr;
}

std::optional<PrefixCacheRecord> read_prefix_cache(const json& prefix_cache) {
  if (!prefix_cache.is_object()) return std::nullopt;
  PrefixCacheRecord r;
  r.burst = member_count(prefix_cache, "burst");
  r.shared_prefix_tokens = member_count(prefix_cache, "shared_prefix_tokens");
  r.suffix_tokens = member_count(prefix_cache, "suffix_tokens");
  r.output_tokens = member_count(prefix_cache, "output_tokens");
  const json& passes = member(prefix_cache, "passes");
  for (const char* name : kPassNames)
    if (const json& p = member(passes, name); p.is_object()) r.passes.push_back(read_pass(name, p));
  r.ttft_ratio_control_over_warm = member_figure(prefix_cache, "ttft_ratio_control_over_warm");
  const json& evidence = member(prefix_cache, "evidence");
  r.reuse_detected = member_optional_flag(evidence, "reuse_detected");
  r.reuse_basis = member_text(evidence, "reuse_basis");
  r.warning = member_text(evidence, "warning");
  r.cached_tokens_ratio = member_figure(evidence, "cached_tokens_ratio");
  r.counter_hit_rate = member_figure(evidence, "counter_hit_rate");
  r.ttft_ratio_cold_over_warm = member_figure(evidence, "ttft_ratio_cold_over_warm");
  const json& caching = member(evidence, "server_prefix_caching");
  r.server_prefix_caching = member_optional_flag(caching, "value");
  return r;
}

json to_json(const PrefixCacheRecord& r) {
  json j = {{"burst", r.burst},
            {"shared_prefix_tokens", r.shared_prefix_tokens},
            {"suffix_tokens", r.suffix_tokens},
            {"output_tokens", r.output_tokens}};
  for (const PrefixPassRecord& p : r.passes) j["passes"][p.name] = to_json(p);
  if (std::isfinite(r.ttft_ratio_control_over_warm))
    j["ttft_ratio_control_over_warm"] = labelled(r.ttft_ratio_control_over_warm, "estimated");
  json e = {{"cached_tokens_ratio", labelled(number_or_null(r.cached_tokens_ratio), "server")},
            {"counter_hit_rate", labelled(number_or_null(r.counter_hit_rate), "server")},
            {"ttft_ratio_cold_over_warm",
             labelled(number_or_null(r.ttft_ratio_cold_over_warm), "estimated")},
            {"reuse_basis", r.reuse_basis}};
  if (r.reuse_detected) e["reuse_detected"] = *r.reuse_detected;
  if (r.server_prefix_caching)
    e["server_prefix_caching"] = labelled(*r.server_prefix_caching, "server");
  if (!r.warning.empty()) e["warning"] = r.warning;
  j["evidence"] = std::move(e);
  return j;
}

}  // namespace lb::record
