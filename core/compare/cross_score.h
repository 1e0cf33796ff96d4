#pragma once
// Teacher-forced cross-scoring: one lane's whole answer read under another lane. The scorer is
// given the producer's prompt and answer tokens, and its logprobs at each answer position (what
// it would have said after exactly that context) are set beside the producer's own. Per lane
// pair and direction:
//  - top-1 agreement: share of the answer's tokens that are the scorer's top-1;
//  - |Δlogprob|: |scorer's logprob − producer's logprob| of each answer token, mean and p95;
//  - truncated KL(baseline ‖ candidate) in nats per token, over the union of both top-K lists
//    plus one tail bucket (see truncated_kl_nats);
//  - the most surprising token: the answer token the scorer gave the lowest logprob.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/logprobs/token_logprobs.h"

namespace lb::compare {

// How the truncated KL treats the mass outside the listed tokens (recorded with results).
inline constexpr const char* kTruncatedKlRule =
    "KL(baseline || candidate) over the union of both lanes' top-K tokens plus one tail bucket: "
    "a lane's unlisted mass (1 - its listed probabilities) is shared evenly between the union's "
    "tokens it does not list (each capped at its smallest listed probability) and the tail "
    "bucket, which keeps the rest; probabilities are floored at 1e-12";

// KL(p ‖ q) in nats at one position, truncated as kTruncatedKlRule says. Each side is a token
// and its top-K; tokens are matched by id when `by_id`, else by bytes.
double truncated_kl_nats(const logprobs::TokenLogprob& p, const logprobs::TokenLogprob& q,
                         bool by_id);

struct SurprisingToken {
  int64_t prompt_index = -1;
  std::string prompt_id;
  int64_t token_index = -1;
  std::string token;
  double scorer_logprob = 0;          // nats
  std::optional<double> own_logprob;  // the producer's logprob of its own token
  std::optional<std::string> scorer_top1;
};

struct CrossScore {
  std::string scorer, producer;  // lane ids: the producer's answer read under the scorer
  std::string status = "ok";     // "ok", "unsupported", "failed"
  std::string reason;            // why not ok
  int64_t prompts = 0;           // prompts scored
  int64_t tokens = 0;            // answer tokens scored
  int64_t top1_agreeing = 0;
  std::optional<double> top1_agreement;          // top1_agreeing / tokens
  std::optional<double> mean_abs_dlogprob_nats;  // over tokens with both logprobs
  std::optional<double> p95_abs_dlogprob_nats;   // linear interpolation, as numpy.percentile
  std::optional<double> mean_kl_nats;            // truncated KL per token, mean
  std::optional<SurprisingToken> most_surprising;
};

// Folds answers into one CrossScore (one prompt, or every prompt of a lane pair).
class CrossScoreAccumulator {
 public:
  CrossScoreAccumulator(std::string scorer, std::string producer, bool scorer_is_baseline);
  // `own`: the producer's logprobs of its answer; `forced`: the scorer's at the same positions.
  // Returns "" or why the two cannot be set side by side (lengths or tokens differ).
  std::string add(int64_t prompt_index, const std::string& prompt_id,
                  const logprobs::TokenSeries& own, const logprobs::TokenSeries& forced);
  CrossScore result() const;

 private:
  std::string scorer_, producer_;
  bool scorer_is_baseline_;
  int64_t prompts_ = 0, tokens_ = 0, agreeing_ = 0;
  std::vector<double> abs_delta_;
  double kl_sum_ = 0;
  int64_t kl_n_ = 0;
  std::optional<SurprisingToken> surprising_;
};

nlohmann::json to_json(const CrossScore& s);

}  // namespace lb::compare
