#pragma once
// A run's sampled review, read back for the Review page: each prompt's result and the ratio of
// every sample pair (sampled.json), the lanes' samples (texts/<lane>.samples.json) and the
// verdicts (sampled-review.json). Pure file reading, so it can run off the GUI thread.
#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "core/compare/sampled_review.h"
#include "core/compare/sampled_verdicts.h"

namespace lb::ui {

enum class SampleDistribution { WithinA = 0, WithinB = 1, Cross = 2 };

struct SampledPromptView {
  size_t index = 0;
  QString id;
  QString result;  // "indistinguishable", "shifted", "untested"
  double q_value = 1;
  QString fact_loss;         // "fact lost in 3/16 fp8 samples vs 0/16 bf16"; empty without checks
  QString fact_loss_counts;  // the same, short: "3/16 vs 0/16" (candidate first); empty likewise
  std::vector<compare::SamplePair> pairs[3];  // by SampleDistribution
};

struct SampledReviewData {
  QString lane_a, lane_b;
  QString review_path;                                         // where verdicts are saved
  std::vector<std::vector<std::string>> samples_a, samples_b;  // [prompt][sample]
  std::vector<SampledPromptView> prompts;
  compare::SampledReviewRecord record;
  // "damaged: sampled.json: prompts[3].q_value is a string, not a number": what could not be read
  // as written (the rest is shown).
  QStringList damage;
  // The two texts of a pair of a prompt's distribution, A's (or the first sample's) first.
  std::pair<std::string, std::string> texts(size_t prompt, SampleDistribution d,
                                            const compare::SamplePair& pair) const;
};

// sampled.json, sampled.<lane>.json: one file per candidate; empty when the run has none.
QStringList sampled_review_files(const QString& run_dir);
// False with *error naming the file when something cannot be read.
bool load_sampled_review_data(const QString& run_dir, const QString& file, SampledReviewData* out,
                              QString* error);

}  // namespace lb::ui
