#pragma once
// tokens.json (tokens.<candidate>.json beside more than one candidate) as types: per prompt of a
// lane pair, where the greedy outputs part and why (compare/token_divergence.h writes it), and
// the teacher-forced cross-scores when the regression asked for them. Read tolerantly: a field
// of the wrong type is one "damaged: tokens.json: PATH ..." note (FileFields) and reads as absent.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/record/file_fields.h"

namespace lb::record {

// One direction of a pair's teacher-forced scores (or the pair's scores as one, in older files).
struct CrossDirection {
  bool scored = true;  // "status": "ok"; otherwise `reason` says why not
  std::string reason;
  std::optional<double> top1_agreement;
  std::optional<double> mean_kl_nats;  // "mean_kl_nats", or "kl" in older files
};

struct TokenPair {
  int64_t index = -1;        // the prompt's index in the prompt set; -1 when not a whole number
  std::string cause;         // "class": identical, near_tie, confident_change, length_change, ...
  std::string reason;        // the analysis' plain words
  int64_t token_index = -1;  // the first divergent token; -1 when none
  std::optional<double> baseline_margin_nats;
  // "cross_score": each direction when scored; `cross_whole` when the object names neither.
  std::optional<CrossDirection> candidate_under_baseline, baseline_under_candidate, cross_whole;
  CrossDirection flat;  // scores written on the pair itself (older files); usually empty
};

struct TokensFile {
  bool has_pairs = false;  // the file holds a "pairs" list (an analysis, not another file)
  std::optional<double> near_tie_margin_nats;
  std::optional<int64_t> top_k;
  std::vector<TokenPair> pairs;  // file order; entries that are not objects are left out
};

TokensFile read_tokens_file(const nlohmann::json& doc, FileFields& fields);
// From the file's text: a document that is not a JSON object is one note and an empty file.
TokensFile read_tokens_file_text(std::string_view text, FileFields& fields);

}  // namespace lb::record
