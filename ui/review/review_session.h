#pragma once
// The regression review of one run folder: which lanes have outputs, the prompt set they answered,
// and for a chosen lane pair the comparison with any verdicts already given. Loading a pair reads
// files and compares every prompt, so it runs off the GUI thread (load_pair is pure).
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/compare/review_record.h"
#include "core/plan/prompt_set.h"
#include "models/review_pair.h"
#include "ui/review/token_evidence.h"

namespace lb::ui {

struct ReviewSource {
  QString run_dir;
  QStringList lanes;  // lanes with texts/<lane>.texts.json, in plan order
  std::optional<plan::PromptSet> prompts;
  std::string prompt_set_ref;  // "builtin:regression-20"
  double threshold = compare::kDefaultNearIdenticalThreshold;
  QString warning;  // e.g. the prompt set could not be loaded (checks then not shown)
  // "damaged: plan.json: experiments[0].kind is a list, not a string": what of the run's files
  // could not be read as written (the rest of the run is still reviewed).
  QStringList damage;
  // Lanes of other runs, named "RUN:lane" (RUN the other folder's name), and their texts files.
  std::vector<std::pair<QString, QString>> other_runs;
  // Per lane, the prompts whose answers changed under load (summary.json's regression
  // lanes.<id>.load_baseline.batch_variant); absent for lanes without a load baseline.
  std::map<QString, std::set<size_t>> batch_variant;
  QString texts_path(const QString& lane) const;
};

// Adds the lanes of another run that has regression outputs for the same prompt set as lanes
// "RUN:lane", so that a lane of this run is reviewed against a baseline of that one. Returns the
// names added; empty with *error when the run has none or answered another prompt set.
QStringList add_other_run(ReviewSource& source, const QString& other_run_dir, QString* error);

struct LoadedPair {
  QString lane_a, lane_b;
  std::vector<std::string> texts_a, texts_b;
  compare::ReviewRecord record;
  QString path;          // where verdicts are saved
  TokenEvidence tokens;  // per-token logprobs and why each pair parts, when the run has them
  QStringList damage;    // review.json, tokens.json or logprobs that could not be read
};

// Reads plan.json and the texts folder. False with *error when there is nothing to review (and
// source->damage saying what of the files could not be read).
bool open_review_source(const QString& run_dir, ReviewSource* source, QString* error);
// Compares lanes a and b prompt by prompt and carries over verdicts saved earlier.
bool load_pair(const ReviewSource& source, const QString& a, const QString& b, LoadedPair* out,
               QString* error);
// The one file that holds the pair's review record (compare::review_file_for_pair): the run's
// own review file for its pairs, review.<a>.<b>.json for any other pair.
QString review_path_for(const QString& run_dir, const QString& a, const QString& b);
// logprobs/<lane>.jsonl of a lane ("RUN:lane" in its own run), and the run's tokens.json that
// covers the pair (baseline = the run's first lane), "" when none does.
QString logprobs_path_for(const ReviewSource& source, const QString& lane);
QString tokens_json_for(const ReviewSource& source, const QString& a, const QString& b);

std::vector<models::ReviewPair> review_rows(const LoadedPair& pair, const ReviewSource& source);
models::ReviewPair review_row(const compare::PairReview& review, const ReviewSource& source);

}  // namespace lb::ui
