#pragma once
// One prompt size of a context sweep on one lane, as summary.json records it ("context_sweep" in
// the lane's section, docs/metrics.md): the medians of the size's requests and, with a needle,
// whether every request retrieved it. Read tolerantly: a member of another type reads as absent
// (NaN, "" or nullopt), never a throw.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct ContextSizeRecord {
  std::string status;  // "measured", or "skipped" (then `reason` says why)
  std::string reason;
  double target_tokens = NAN;
  double sized_tokens = NAN;     // the prompt as built, counted by the server or estimated
  std::string sized_provenance;  // "server", "estimated"
  double prompt_tokens = NAN;    // as the server reported them
  double completed = NAN;
  double ttft_ms = NAN;
  double effective_prefill_tok_s = NAN;
  double decode_tok_s = NAN;
  double e2el_ms = NAN;
  std::optional<bool> retrieval_pass;  // with a needle: every request retrieved it
  double retrieval_passed = NAN, retrieval_attempts = NAN;
  double needle_depth = NAN;  // with a needle: where in the prompt it sits, 0 (start) to 1 (end)

  bool measured() const { return status == "measured"; }
};

// A lane's "context_sweep" list; entries that are not objects are left out.
std::vector<ContextSizeRecord> read_context_sweep(const nlohmann::json& rows);
// A skipped size as its status, reason and target; a measured one with its figures (null where
// there is none) and, with a needle, its retrieval.
nlohmann::json to_json(const ContextSizeRecord& size);
nlohmann::json to_json(const std::vector<ContextSizeRecord>& sizes);

}  // namespace lb::record
