// delta() and the JSON forms of ServerCounters / CounterDelta (declared in server_counters.h).
#include <cmath>

#include "core/metrics/server_counters.h"

namespace lb::metrics {
namespace {

class Differ {
 public:
  explicit Differ(CounterDelta& out) : out_(out) {}

  // after - before for a monotonic counter; a decrease means the server restarted in between.
  std::optional<double> counter(const char* name, const std::optional<double>& before,
                                const std::optional<double>& after) {
    if (!before || !after) {
      return std::nullopt;
    }
    if (*after < *before) {
      out_.reset_counters.emplace_back(name);
      return std::nullopt;
    }
    return *after - *before;
  }

  std::vector<double> positions(const std::vector<double>& before,
                                const std::vector<double>& after) {
    std::vector<double> d;
    if (before.size() != after.size()) {
      if (!before.empty() && !after.empty()) {
        out_.reset_counters.emplace_back("spec_accepted_per_position");
      }
      return d;
    }
    for (size_t i = 0; i < after.size(); ++i) {
      if (after[i] < before[i]) {
        out_.reset_counters.emplace_back("spec_accepted_per_position");
        return {};
      }
      d.push_back(after[i] - before[i]);
    }
    return d;
  }

  // Bucket-wise difference; bounds must match (same server configuration).
  PromHistogram histogram(const char* name, const PromHistogram& before,
                          const PromHistogram& after) {
    PromHistogram d;
    if (before.empty() || after.empty()) {
      return d;
    }
    if (before.buckets.size() != after.buckets.size()) {
      return d;
    }
    for (size_t i = 0; i < after.buckets.size(); ++i) {
      const auto& [le_a, n_a] = after.buckets[i];
      const auto& [le_b, n_b] = before.buckets[i];
      if (le_a != le_b) {
        return {};
      }
      if (n_a < n_b) {
        out_.reset_counters.emplace_back(name);
        return {};
      }
      d.buckets.emplace_back(le_a, n_a - n_b);
    }
    d.sum = counter(name, before.sum, after.sum);
    d.count = counter(name, before.count, after.count);
    return d;
  }

 private:
  CounterDelta& out_;
};

std::optional<double> ratio(const std::optional<double>& num, const std::optional<double>& den) {
  if (!num || !den || *den <= 0) {
    return std::nullopt;
  }
  return *num / *den;
}

nlohmann::json opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json histogram_json(const PromHistogram& h) {
  if (h.empty()) {
    return nullptr;
  }
  nlohmann::json buckets = nlohmann::json::array();
  for (const auto& [le, n] : h.buckets) {
    buckets.push_back(
        {{"le", std::isinf(le) ? nlohmann::json("+Inf") : nlohmann::json(le)}, {"count", n}});
  }
  return {{"buckets", buckets}, {"sum", opt(h.sum)}, {"count", opt(h.count)}};
}

}  // namespace

CounterDelta delta(const ServerCounters& before, const ServerCounters& after) {
  CounterDelta d;
  d.kind = after.kind;
  Differ diff(d);
  d.prompt_tokens = diff.counter("prompt_tokens", before.prompt_tokens, after.prompt_tokens);
  d.generation_tokens =
      diff.counter("generation_tokens", before.generation_tokens, after.generation_tokens);
  d.prefix_cache_queries =
      diff.counter("prefix_cache_queries", before.prefix_cache_queries, after.prefix_cache_queries);
  d.prefix_cache_hits =
      diff.counter("prefix_cache_hits", before.prefix_cache_hits, after.prefix_cache_hits);
  d.prefix_cache_hit_rate = ratio(d.prefix_cache_hits, d.prefix_cache_queries);
  d.spec_num_drafts =
      diff.counter("spec_num_drafts", before.spec_num_drafts, after.spec_num_drafts);
  d.spec_num_draft_tokens = diff.counter("spec_num_draft_tokens", before.spec_num_draft_tokens,
                                         after.spec_num_draft_tokens);
  d.spec_num_accepted_tokens = diff.counter(
      "spec_num_accepted_tokens", before.spec_num_accepted_tokens, after.spec_num_accepted_tokens);
  d.spec_accepted_per_position =
      diff.positions(before.spec_accepted_per_position, after.spec_accepted_per_position);
  d.spec_acceptance_rate = ratio(d.spec_num_accepted_tokens, d.spec_num_draft_tokens);
  if (auto per_draft = ratio(d.spec_num_accepted_tokens, d.spec_num_drafts)) {
    d.spec_acceptance_length = 1.0 + *per_draft;
  }
  for (double accepted : d.spec_accepted_per_position) {
    if (auto r = ratio(accepted, d.spec_num_drafts)) {
      d.spec_acceptance_per_position.push_back(*r);
    }
  }
  d.ttft_s = diff.histogram("ttft_seconds", before.ttft_s, after.ttft_s);
  d.itl_s = diff.histogram("itl_seconds", before.itl_s, after.itl_s);
  d.e2el_s = diff.histogram("e2el_seconds", before.e2el_s, after.e2el_s);
  d.prefix_cache_hit_rate_gauge = after.prefix_cache_hit_rate_gauge;
  d.spec_accept_length_gauge = after.spec_accept_length_gauge;
  d.spec_accept_rate_gauge = after.spec_accept_rate_gauge;
  return d;
}

nlohmann::json to_json(const ServerCounters& c) {
  nlohmann::json per_pos = c.spec_accepted_per_position;
  return {
      {"server", to_string(c.kind)},
      {"provenance", to_string(Provenance::Server)},
      {"running", opt(c.running)},
      {"waiting", opt(c.waiting)},
      {"kv_cache_usage", opt(c.kv_cache_usage)},
      {"prompt_tokens", opt(c.prompt_tokens)},
      {"generation_tokens", opt(c.generation_tokens)},
      {"prefix_cache_queries", opt(c.prefix_cache_queries)},
      {"prefix_cache_hits", opt(c.prefix_cache_hits)},
      {"prefix_cache_hit_rate_gauge", opt(c.prefix_cache_hit_rate_gauge)},
      {"spec_num_drafts", opt(c.spec_num_drafts)},
      {"spec_num_draft_tokens", opt(c.spec_num_draft_tokens)},
      {"spec_num_accepted_tokens", opt(c.spec_num_accepted_tokens)},
      {"spec_accepted_per_position", per_pos},
      {"spec_accept_length_gauge", opt(c.spec_accept_length_gauge)},
      {"spec_accept_rate_gauge", opt(c.spec_accept_rate_gauge)},
      {"num_gpu_blocks", c.num_gpu_blocks ? nlohmann::json(*c.num_gpu_blocks) : nullptr},
      {"block_size", c.block_size ? nlohmann::json(*c.block_size) : nullptr},
      {"kv_capacity_tokens",
       c.kv_capacity_tokens ? nlohmann::json(*c.kv_capacity_tokens) : nullptr},
      {"cache_dtype",
       c.cache_dtype.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.cache_dtype)},
      {"prefix_caching_enabled",
       c.prefix_caching_enabled ? nlohmann::json(*c.prefix_caching_enabled) : nullptr},
      {"ttft_seconds", histogram_json(c.ttft_s)},
      {"itl_seconds", histogram_json(c.itl_s)},
      {"e2el_seconds", histogram_json(c.e2el_s)},
  };
}

nlohmann::json to_json(const CounterDelta& d) {
  return {
      {"server", to_string(d.kind)},
      {"provenance", to_string(d.provenance)},
      {"reset_counters", d.reset_counters},
      {"prompt_tokens", opt(d.prompt_tokens)},
      {"generation_tokens", opt(d.generation_tokens)},
      {"prefix_cache_queries", opt(d.prefix_cache_queries)},
      {"prefix_cache_hits", opt(d.prefix_cache_hits)},
      {"prefix_cache_hit_rate", opt(d.prefix_cache_hit_rate)},
      {"spec_num_drafts", opt(d.spec_num_drafts)},
      {"spec_num_draft_tokens", opt(d.spec_num_draft_tokens)},
      {"spec_num_accepted_tokens", opt(d.spec_num_accepted_tokens)},
      {"spec_accepted_per_position", d.spec_accepted_per_position},
      {"spec_acceptance_rate", opt(d.spec_acceptance_rate)},
      {"spec_acceptance_length", opt(d.spec_acceptance_length)},
      {"spec_acceptance_per_position", d.spec_acceptance_per_position},
      {"prefix_cache_hit_rate_gauge", opt(d.prefix_cache_hit_rate_gauge)},
      {"spec_accept_length_gauge", opt(d.spec_accept_length_gauge)},
      {"spec_accept_rate_gauge", opt(d.spec_accept_rate_gauge)},
      {"ttft_seconds", histogram_json(d.ttft_s)},
      {"itl_seconds", histogram_json(d.itl_s)},
      {"e2el_seconds", histogram_json(d.e2el_s)},
  };
}

}  // namespace lb::metrics
