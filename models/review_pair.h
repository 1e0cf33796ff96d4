#pragma once
// One prompt's pair of outputs as the review table shows it: triage from the comparer, the fact
// checks that failed on either side, and the human verdict.
#include <QString>
#include <QStringList>
#include <cstdint>
#include <limits>

namespace lb::models {

struct ReviewPair {
  int index = 0;              // prompt index in the set (texts order)
  QString prompt_id;          // "math-02"
  QString category;           // "math"
  QString prompt;             // the prompt text (shown above the panes)
  double ratio = 1.0;         // difflib-compatible similarity, 1.0 = identical
  QString triage;             // "identical", "similar", "divergent", "whitespace-only", ...
  bool flipped_fact = false;  // a check passes on the baseline and fails on the candidate
  QStringList failed_checks;  // "lane: check description"
  // Lanes whose own answer to this prompt changed under load (the regression's load baseline):
  // batching alone moves it, so a difference here is not the configuration's.
  QStringList batch_variant;
  QString verdict;  // "", "identical", "benign_drift", "material_difference", "blocker"
  QString note;
  // Token evidence (logprobs): why the outputs part, "" when the run has none for this pair:
  // near_tie, confident_change, tokenizer_mismatch, no_logprobs, length_change (or identical).
  QString cause;
  double margin_nats = std::numeric_limits<double>::quiet_NaN();  // baseline top-1 - top-2
  int64_t divergence_token = -1;  // first divergent token, -1 when none
};

// The four verdicts in shortcut order (keys 1-4) and how they read.
QStringList verdict_keys();
QString verdict_label(const QString& key);

}  // namespace lb::models
