#pragma once
// The token-level evidence of one lane pair for the Review page: both lanes' per-token logprobs
// (logprobs/<lane>.jsonl) and, per prompt, where and why the outputs part. The run's own
// tokens.json is used when it covers the pair (baseline = the run's first lane), with any
// cross-scores it holds; otherwise the divergence is computed from the two files with the same
// analysis. Reading the files can take a while for long answers: call it off the GUI thread.
#include <QString>
#include <QStringList>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/logprobs/logprob_lines.h"

namespace lb::ui {

struct PromptTokens {
  logprobs::PromptLogprobs a, b;  // status "not_run" when the lane has no line for the prompt
  QString cause;                  // near_tie, confident_change, ... ("" = no evidence)
  QString reason;                 // the analysis' plain words
  int64_t token_index = -1;       // first divergent token
  double margin_nats = std::numeric_limits<double>::quiet_NaN();
  QString cross_scores;  // "top-1 agreement 0.98 · KL 0.0012 nats …"; "" when not scored
};

struct TokenEvidence {
  std::vector<PromptTokens> prompts;  // by prompt index; empty when neither lane has logprobs
  QString source;                     // "tokens.json", or "computed from the logprobs files"
  QString note;                       // why there is no evidence, or a file that could not be read
  QStringList damage;  // "damaged: logprobs/fp8.jsonl: …", "damaged: tokens.json: …"
  double near_tie_margin_nats = 0.5;
  int top_k = 0;
  const PromptTokens* at(size_t index) const {
    return index < prompts.size() ? &prompts[index] : nullptr;
  }
};

// `tokens_json` may be empty (no file covers the pair). Texts are the pair's outputs by prompt.
TokenEvidence load_token_evidence(const QString& logprobs_a, const QString& logprobs_b,
                                  const QString& tokens_json,
                                  const std::vector<std::string>& texts_a,
                                  const std::vector<std::string>& texts_b);

// "logprob −0.123 (p 0.884)" for tooltips and tables; "no usable logprob" when there is none.
QString logprob_text(double logprob);

}  // namespace lb::ui
