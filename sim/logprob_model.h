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

// A token of a given text scored under a lane (teacher forcing).
struct ForcedToken {
  TokenChoice token;             // the text's token with this lane's logprob for it
  int rank = 0;                  // 1 = the lane's top-1; past the listed top-20 when unlisted
  std::vector<TokenChoice> top;  // the lane's top-k there, best first
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
  static constexpr const char* kEndOfTurn = "<|im_end|>";  // what a lane that stopped says next
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
  // Teacher forcing: this lane's distribution at position c of a text it is made to read
  // (seq[0, c) as context; c < seq.size()). While seq is the lane's own output it is what the
  // lane said there; once seq leaves it, the lane reads seq as the unperturbed model does (the
  // reference while seq follows it, else seq's own wording), with this lane's perturbation.
  // Where the lane itself stopped, its end-of-turn token (<|im_end|>) is its top-1.
  ForcedToken forced(const std::vector<std::string>& seq, int64_t c, int k) const;

 private:
  struct Logit {
    std::string text;
    double z = 0;
  };
  std::vector<Logit> logits(int64_t c) const;  // kMaxTopK entries, chosen first
  std::vector<Logit> unperturbed(int64_t c) const;
  std::vector<Logit> own_context(const std::vector<std::string>& seq, int64_t c) const;
  void perturb(std::vector<Logit>& z, int64_t c) const;  // fp8: the logit perturbation
  static double log_normalizer(const std::vector<Logit>& z);

  std::vector<std::string> content_, reference_, near_tie_, confident_;
  std::vector<int64_t> content_before_;  // per script index
  int64_t near_tie_at_ = -1, confident_at_ = -1;
  double near_tie_margin_ = 0;
  uint64_t seed_ = 0;
  bool fp8_ = false;
  bool ended_ = false;  // the lane's answer ended by itself (not cut at max_tokens)
  FlipTruth flip_;
};

}  // namespace lb::sim
