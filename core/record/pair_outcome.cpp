#include "core/record/pair_outcome.h"

#include "core/record/json_member.h"

namespace lb::record {
namespace {

using nlohmann::json;

int64_t list_size(const json& object, const char* key) {
  const json& list = member(object, key);
  return list.is_array() ? static_cast<int64_t>(list.size()) : 0;
}

std::optional<SimilaritySpread> read_spread(const json& d) {
  if (!d.is_object()) return std::nullopt;
  return SimilaritySpread{member_count(d, "n"), member_number(d, "median"), member_number(d, "q1"),
                          member_number(d, "q3")};
}

std::optional<FactLossRecord> read_fact_loss(const json& p) {
  if (!p.is_object()) return std::nullopt;
  return FactLossRecord{member_count(p, "lost"), member_count(p, "samples"), member_number(p, "lo"),
                        member_number(p, "hi")};
}

SampledPromptOutcome read_sampled_prompt(const json& p, const std::string& baseline,
                                         const std::string& candidate) {
  SampledPromptOutcome r;
  r.index = member_count(p, "index", -1);
  r.id = member_text(p, "id");
  r.result = member_text(p, "result");
  r.q_value = member_number(p, "q_value");
  r.within_baseline = read_spread(member(p, "within_a"));
  r.within_candidate = read_spread(member(p, "within_b"));
  r.cross = read_spread(member(p, "cross"));
  const json& lost = member(p, "fact_lost");
  r.fact_lost_baseline = read_fact_loss(member(lost, baseline.c_str()));
  r.fact_lost_candidate = read_fact_loss(member(lost, candidate.c_str()));
  return r;
}

std::optional<FloorVerdictRecord> read_floor_verdict(const json& pair) {
  const json& v = member(pair, "floor_verdict");
  if (!v.is_object()) return std::nullopt;
  FloorVerdictRecord r;
  r.baseline = member_text(pair, "baseline");
  r.candidate = member_text(pair, "candidate");
  r.verdict = member_text(v, "verdict");
  r.text = member_text(v, "text");
  r.p_value = member_number(v, "p_value");
  r.differing = member_number(v, "differing");
  r.compared = member_number(v, "compared");
  r.floor_flips = member_number(v, "floor_flips");
  r.floor_compared = member_number(v, "floor_compared");
  return r;
}

std::optional<CrossScoreRecord> read_cross_score(const json& evidence) {
  const json& cross = member(evidence, "cross_score");
  if (!cross.is_object()) return std::nullopt;
  const json& reading = member(cross, "candidate_under_baseline");
  CrossScoreRecord r;
  r.min_top1_agreement = member_number(cross, "min_top1_agreement");
  r.status = member_text(reading, "status");
  r.top1_agreement = member_number(reading, "top1_agreement");
  r.reason = member_text(reading, "reason");
  return r;
}

std::optional<TokenEvidenceRecord> read_token_evidence(const json& pair) {
  const json& evidence = member(pair, "token_divergence");
  if (!evidence.is_object()) return std::nullopt;
  TokenEvidenceRecord r;
  const json& changes = member(evidence, "confident_changes");
  if (changes.is_array())
    for (const json& change : changes)
      r.confident_changes.push_back(member_count(change, "index", -1));
  r.cross_score = read_cross_score(evidence);
  r.detail = read_token_fidelity(evidence);
  return r;
}

}  // namespace

std::vector<PairOutcome> read_pair_outcomes(const json& comparisons) {
  std::vector<PairOutcome> out;
  if (!comparisons.is_array()) return out;
  for (const json& c : comparisons) {
    if (!c.is_object()) continue;
    PairOutcome p;
    p.baseline = member_text(c, "baseline");
    p.candidate = member_text(c, "candidate");
    p.pairs = member_count(c, "pairs");
    p.identical = member_count(c, "identical");
    p.near_identical = member_count(c, "near_identical");
    p.divergent = member_count(c, "divergent");
    p.review_required = member_count(c, "review_required");
    p.flipped_facts = list_size(c, "flipped_facts");
    p.unsupported_by_lane = member_count(c, "unsupported_by_lane");
    p.review_outcome = member_text(c, "review_outcome");
    p.floor_verdict = read_floor_verdict(c);
    p.tokens = read_token_evidence(c);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<SampledOutcome> read_sampled_outcomes(const json& comparisons) {
  std::vector<SampledOutcome> out;
  if (!comparisons.is_array()) return out;
  for (const json& c : comparisons) {
    if (!c.is_object()) continue;
    SampledOutcome o{member_text(c, "baseline"), member_text(c, "candidate"),
                     list_size(c, "prompts"), member_count(c, "shifted"),
                     member_count(c, "indistinguishable")};
    o.permutations = member_number(member(c, "test"), "permutations");
    o.fdr = member_number(member(c, "test"), "fdr");
    const json& prompts = member(c, "prompts");
    if (prompts.is_array())
      for (const json& p : prompts)
        if (p.is_object()) o.per_prompt.push_back(read_sampled_prompt(p, o.baseline, o.candidate));
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace lb::record
