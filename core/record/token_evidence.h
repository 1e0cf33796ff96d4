#pragma once
// A regression pair's token-level evidence in detail, as summary.json records it
// ("token_divergence" of each comparison, docs/compare.md): how many pairs part where and why,
// each confident change with both lanes' tokens and top-K, and each direction of the
// teacher-forced cross-score. Read tolerantly: a member of another type reads as absent (NaN,
// -1, "" or nullopt), never a throw.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// One entry of a top-K list ([token, logprob]); a token that is not text reads as nullopt.
struct RankedToken {
  std::optional<std::string> token;
  double logprob = NAN;
};

struct ConfidentChangeRecord {
  std::string id;            // the prompt's id
  int64_t token_index = -1;  // where the answers part
  std::optional<std::string> token_baseline, token_candidate;
  double logprob_baseline = NAN, logprob_candidate = NAN;
  double baseline_margin_nats = NAN;
  double baseline_logprob_of_candidate_token = NAN;
  bool has_top_k = false;  // both lanes' top-K where they part were recorded
  std::vector<RankedToken> top_baseline, top_candidate;
};

// One direction of the cross-score: SCORER read the answers of ANSWER_OF under teacher forcing.
struct CrossReadingRecord {
  std::string scorer, answer_of;
  std::string status;  // "ok", or why not in `reason`
  std::string reason;
  double top1_agreement = NAN;
  double mean_abs_dlogprob_nats = NAN, p95_abs_dlogprob_nats = NAN;
  double mean_kl_nats = NAN;
  struct Surprise {
    std::optional<std::string> token;
    std::string id;
    int64_t token_index = -1;
    double scorer_logprob = NAN;
  };
  std::optional<Surprise> most_surprising;  // the scorer's least expected token
  bool scored() const { return status == "ok"; }
};

struct TokenFidelityDetail {
  std::map<std::string, int64_t> counts;  // by class: "identical", "near_tie", ...; whole numbers
  double near_tie_margin_nats = NAN;
  std::string tokenizers_match;  // "different" when the lanes' tokenizers differ
  std::string tokenizers_reason;
  std::vector<ConfidentChangeRecord> changes;  // in the file's order; non-objects left out
  // Each direction of the cross-score, when scored or refused; in this order.
  std::optional<CrossReadingRecord> candidate_under_baseline, baseline_under_candidate;
};

// A comparison's "token_divergence" object read in detail.
TokenFidelityDetail read_token_fidelity(const nlohmann::json& evidence);

}  // namespace lb::record
