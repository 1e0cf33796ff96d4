#pragma once
// A prefix-cache experiment on one lane, as summary.json records it ("prefix_cache" in the lane's
// section, docs/metrics.md): the cold, warm and control passes and the evidence of reuse. Read
// tolerantly: a member of another type reads as absent (NaN, "" or nullopt), never a throw.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct PrefixPassRecord {
  std::string name;  // "cold", "warm" or "control"
  double median_ttft_ms = NAN;
  double output_tok_s = NAN;
  double effective_prefill_tok_s = NAN;
  double prompt_tokens = NAN;
  double cached_tokens = NAN;     // as the server's usage reported them
  std::string cached_provenance;  // "server"; "" when not reported
  double failed = NAN;
  // The server's prefix-cache counters around the pass, when it was read (NaN: it had none).
  bool counters_read = false;
  double prefix_cache_hits = NAN;
  double prefix_cache_queries = NAN;
};

struct PrefixCacheRecord {
  // The burst as the plan asked for it.
  int64_t burst = 0;
  int64_t shared_prefix_tokens = 0;
  int64_t suffix_tokens = 0;
  int64_t output_tokens = 0;
  std::vector<PrefixPassRecord> passes;  // cold, warm, control: those the lane ran
  std::optional<bool> reuse_detected;
  std::string reuse_basis;  // "server counters", "usage cached_tokens", "timing (estimated)", ...
  std::string warning;      // set when reuse could only be inferred from timing
  double cached_tokens_ratio = NAN;
  double counter_hit_rate = NAN;
  double ttft_ratio_cold_over_warm = NAN;
  double ttft_ratio_control_over_warm = NAN;
  std::optional<bool> server_prefix_caching;  // the cache config the lane exposed

  const PrefixPassRecord* pass(const std::string& name) const;
};

// A lane's "prefix_cache" object; nullopt when it is not an object.
std::optional<PrefixCacheRecord> read_prefix_cache(const nlohmann::json& prefix_cache);
// Each figure with where it comes from: the server's usage and counters ("server"), or timing
// ("estimated"); null where there is none.
nlohmann::json to_json(const PrefixCacheRecord& prefix_cache);

}  // namespace lb::record
