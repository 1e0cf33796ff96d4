#pragma once
// AnswerBook: decides what a simulated lane says. In order of precedence:
//   1. tool results in the last turn -> an answer that uses them;
//   2. tools offered (tool_choice not "none") -> tool calls with arguments valid for each
//      tool's schema, several in parallel when several tools (or several places) fit;
//   3. json_schema / json_object response formats -> a JSON value matching the schema;
//   4. a needle question -> the needle's value when it lies inside the retrieval window;
//   5. a built-in regression prompt -> its reference answer, with the FP8 drift model applied
//      (at temperature > 0, a sample of its distribution: sampled_answer.h);
//   6. anything else -> deterministic filler text seeded by the prompt (sampled: reworded).
// Reasoning text is added when reasoning_effort is set (length grows with the effort).
#include <cstdint>
#include <map>
#include <string>

#include "gen_request.h"
#include "output_script.h"

namespace lb::sim {

struct AnswerContext {
  std::string weights_dtype = "bf16";  // "fp8" applies the drift model
  bool flip_facts = false;             // allow the drift model to change a fact
  uint64_t seed = 0;
  int64_t retrieval_window_tokens = 262'144;  // needle found only within the last N tokens
  bool variants = false;  // fill AnswerPlan's reference and variants (logprobs were asked for)
  // Sampling (temperature > 0): see sampled_answer.h. The sample seed comes from the request's
  // seed and the prompt, so a sample does not depend on the lane.
  double temperature = 0;
  double top_p = 1;
  uint64_t sample_seed = 0;
  // Chance that batching resolves the prompt's near-tie the other way (batch_flip_probability).
  double batch_flip = 0.0;
  // Chance that a prefix-cache hit resolves the prompt's near-tie the other way (0 when the
  // request's prefix is not cached).
  double cache_flip = 0.0;
};

// Batch variance: with `variance` v (0-1) a request joining a batch of `batch` sequences (itself
// included) has its near-tie flipped with probability v * (1 - 1/batch); alone it never flips.
double batch_flip_probability(double variance, int batch);

struct ReferenceAnswer {
  std::string id;
  std::string answer;   // what BF16 says
  std::string drift;    // same facts, different wording
  std::string flipped;  // one fact changed
};

enum class DriftKind { Identical, Wording, FlippedFact };

class AnswerBook {
 public:
  AnswerBook() = default;
  // Joins a prompt set (JSONL with id + prompt) with its answers (JSONL with id + variants).
  static AnswerBook from_jsonl(const std::string& prompts_jsonl, const std::string& answers_jsonl);
  // The regression-20 set and resources/sim answers compiled into the library.
  static const AnswerBook& builtin();

  AnswerPlan answer(const GenRequest& request, const AnswerContext& context) const;
  const ReferenceAnswer* find(const std::string& prompt_text) const;
  size_t size() const { return by_prompt_.size(); }

  // Which variant a prompt gets on a lane: seeded by the prompt id and the lane seed.
  static DriftKind drift_kind(const std::string& id, const AnswerContext& context);
  // Whether batching flips the prompt's near-tie: a draw fixed by the prompt id and the lane
  // seed, under context.batch_flip (so a bigger batch flips a superset of prompts).
  static bool batch_flips(const std::string& id, const AnswerContext& context);
  // Whether a prefix-cache hit flips the prompt's near-tie: a draw of its own, fixed by the
  // prompt id and the lane seed, under context.cache_flip.
  static bool cache_flips(const std::string& id, const AnswerContext& context);

 private:
  std::map<std::string, ReferenceAnswer> by_prompt_;
};

// Needle format: a sentence "The secret <thing> is <VALUE>." (thing: 1-3 words; VALUE: letters,
// digits, '-'), asked for by a last user turn mentioning "secret <thing>".
struct NeedleAnswer {
  bool asked = false;
  bool found = false;
  std::string text;
};
NeedleAnswer answer_needle(const GenRequest& request, int64_t retrieval_window_tokens);

}  // namespace lb::sim
