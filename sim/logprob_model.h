#pragma once
// LogprobModel: the distribution behind every generated content token, deterministic and
// consistent with what the lane says. The unperturbed model (what BF16 says) puts the reference
// answer's token first at each position; where the FP8 wording variant first departs from the
// reference it is a near-tie (the variant's token second, 0.08-0.45 nats behind); everywhere
// else the runner-up is 2-4 nats behind. FP8 perturbs the logits by at most 0.03 nats, which
// flips exactly the near-ties the drift model chooses to flip; a flipped fact is a confident
// change (the new token is not in the unperturbed top-20). After a lane's first departure its
// context is its own: its token stays first, with its own alternatives.
#include <cstdint>
#include <string>
#include <vector>

#include "output_script.h"
#include "tokenizer.h"

namespace lb::sim {

struct TokenChoice {
  std::string text;
  TokenId id = 0;
  double logprob = 0;  // nats
};

// The lane's first departure from the reference answer: ground truth for tests (traced).
struct FlipTruth {
  int64_t index = -1;                // content token index; -1 = no departure
  double baseline_margin_nats = -1;  // unperturbed top-1 minus top-2 there; -1 = none (ended)
  std::string cls;                   // "near_tie", "confident_change" or "length_change"
};

class LogprobModel {
 public:
  static constexpr int kMaxTopK = 20;
  // content: what this lane says; reference / near_tie / confident: the unperturbed answer and
  // the variants the drift model may choose (empty = none). prompt_seed must not depend on the
  // lane, so that lanes agree until they part. fp8: apply the logit perturbation.
  LogprobModel(const OutputScript& script, const std::string& reference,
               const std::string& near_tie, const std::string& confident, uint64_t prompt_seed,
               bool fp8);

  int64_t content_tokens() const { return static_cast<int64_t>(content_.size()); }
  // Content tokens among script tokens [0, script_index).
  int64_t content_before(int64_t script_index) const;
  // The chosen token and the top-k (best first; k <= kMaxTopK) at content index c.
  TokenChoice chosen(int64_t c) const;
  std::vector<TokenChoice> top(int64_t c, int k) const;
  const FlipTruth& flip() const { return flip_; }

 private:
  struct Logit {
    std::string text;
    double z = 0;
  };
  std::vector<Logit> logits(int64_t c) const;  // kMaxTopK entries, chosen first
  std::vector<Logit> unperturbed(int64_t c) const;

  std::vector<std::string> content_, reference_, near_tie_, confident_;
  std::vector<int64_t> content_before_;  // per script index
  int64_t near_tie_at_ = -1, confident_at_ = -1;
  double near_tie_margin_ = 0;
  uint64_t seed_ = 0;
  bool fp8_ = false;
  FlipTruth flip_;
};

}  // namespace lb::sim
