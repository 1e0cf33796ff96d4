#include "core/record/pair_outcome.h"

#include <algorithm>
#include <iterator>

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {
namespace {

using nlohmann::json;

// The members a pair outcome types; the others stay in its `more`.
constexpr const char* kTypedKeys[] = {
    "baseline",          "candidate",           "pairs",
    "identical",         "near_identical",      "divergent",
    "review_required",   "flipped_facts",       "fact_checks_failed",
    "failed_requests",   "unsupported_by_lane", "answered_by_both",
    "differing_answers", "review_outcome",      "review_file",
    "batch_variant",     "floor_verdict"};

std::vector<PairPrompt> read_prompts(const json& list) {
  std::vector<PairPrompt> out;
  if (!list.is_array()) return out;
  for (const json& p : list) {
    PairPrompt prompt{member_count(p, "index", -1), member_text(p, "id"), {}};
    const json& lanes = member(p, "lanes");
    if (lanes.is_array())
      for (const json& lane : lanes)
        if (lane.is_string()) prompt.lanes.push_back(lane.get<std::string>());
    out.push_back(std::move(prompt));
  }
  return out;
}

json prompts_json(const std::vector<PairPrompt>& prompts, bool with_lanes) {
  json out = json::array();
  for (const PairPrompt& p : prompts) {
    json one = {{"index", p.index}, {"id", p.id}};
    if (with_lanes) one["lanes"] = p.lanes;
    out.push_back(std::move(one));
  }
  return out;
}

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
  r.test = member_text(v, "test");
  r.p_value = member_number(v, "p_value");
  r.alpha = member_number(v, "alpha");
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
    p.flipped = read_prompts(member(c, "flipped_facts"));
    if (const json& failed = member(c, "fact_checks_failed"); failed.is_object())
      for (const auto& [lane, n] : failed.items())
        p.fact_checks_failed[lane] = member_count(failed, lane.c_str());
    if (const json& failed = member(c, "failed_requests"); failed.is_array())
      for (const json& i : failed)
        if (i.is_number_integer()) p.failed_requests.push_back(i.get<int64_t>());
    p.unsupported_by_lane = member_count(c, "unsupported_by_lane");
    p.answered_by_both = member_count(c, "answered_by_both", -1);
    p.differing_answers = member_count(c, "differing_answers", -1);
    p.review_outcome = member_text(c, "review_outcome");
    p.review_file = member_text(c, "review_file");
    if (member(c, "batch_variant").is_array()) p.batch_variant = read_prompts(c["batch_variant"]);
    p.floor_verdict = read_floor_verdict(c);
    p.tokens = read_token_evidence(c);
    for (const auto& [key, value] : c.items())
      if (std::find(std::begin(kTypedKeys), std::end(kTypedKeys), key) == std::end(kTypedKeys))
        p.more[key] = value;
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

json to_json(const FloorVerdictRecord& v) {
  json out = {{"verdict", v.verdict},
              {"text", v.text},
              {"differing", count_or_null(v.differing)},
              {"compared", count_or_null(v.compared)},
              {"floor_flips", count_or_null(v.floor_flips)},
              {"floor_compared", count_or_null(v.floor_compared)},
              {"p_value", number_or_null(v.p_value)}};
  if (!v.test.empty()) out["test"] = v.test;
  if (std::isfinite(v.alpha)) out["alpha"] = v.alpha;
  return out;
}

json to_json(const PairOutcome& p) {
  json out = p.more;
  out["baseline"] = p.baseline;
  out["candidate"] = p.candidate;
  out["pairs"] = p.pairs;
  out["identical"] = p.identical;
  out["near_identical"] = p.near_identical;
  out["divergent"] = p.divergent;
  out["review_required"] = p.review_required;
  out["flipped_facts"] = prompts_json(p.flipped, false);
  if (!p.fact_checks_failed.empty()) out["fact_checks_failed"] = p.fact_checks_failed;
  out["failed_requests"] = p.failed_requests;
  out["unsupported_by_lane"] = p.unsupported_by_lane;
  if (p.answered_by_both >= 0) out["answered_by_both"] = p.answered_by_both;
  if (p.differing_answers >= 0) out["differing_answers"] = p.differing_answers;
  out["review_outcome"] = p.review_outcome;
  if (!p.review_file.empty()) out["review_file"] = p.review_file;
  if (p.batch_variant) out["batch_variant"] = prompts_json(*p.batch_variant, true);
  if (p.floor_verdict) out["floor_verdict"] = to_json(*p.floor_verdict);
  return out;
}

}  // namespace lb::record
