#include "core/record/token_evidence.h"

#include "core/record/json_member.h"

namespace lb::record {
namespace {

using nlohmann::json;

std::optional<std::string> token_of(const json& v) {
  return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
}

std::vector<RankedToken> ranked(const json& list) {
  std::vector<RankedToken> out;
  if (!list.is_array()) return out;
  for (const json& entry : list) {
    RankedToken t;
    if (entry.is_array() && entry.size() >= 2) {
      t.token = token_of(entry[0]);
      t.logprob = entry[1].is_number() ? entry[1].get<double>() : NAN;
    }
    out.push_back(std::move(t));
  }
  return out;
}

ConfidentChangeRecord read_change(const json& c) {
  ConfidentChangeRecord r;
  r.id = member_text(c, "id");
  r.token_index = member_count(c, "token_index", -1);
  r.token_baseline = token_of(member(c, "token_baseline"));
  r.token_candidate = token_of(member(c, "token_candidate"));
  r.logprob_baseline = member_number(c, "logprob_baseline");
  r.logprob_candidate = member_number(c, "logprob_candidate");
  r.baseline_margin_nats = member_number(c, "baseline_margin_nats");
  r.baseline_logprob_of_candidate_token = member_number(c, "baseline_logprob_of_candidate_token");
  r.has_top_k = member(c, "top_baseline").is_array();
  r.top_baseline = ranked(member(c, "top_baseline"));
  r.top_candidate = ranked(member(c, "top_candidate"));
  return r;
}

std::optional<CrossReadingRecord> read_reading(const json& d) {
  if (!d.is_object()) return std::nullopt;
  CrossReadingRecord r;
  r.scorer = member_text(d, "scorer");
  r.answer_of = member_text(d, "answer_of");
  r.status = member_text(d, "status");
  r.reason = member_text(d, "reason");
  r.top1_agreement = member_number(d, "top1_agreement");
  r.mean_abs_dlogprob_nats = member_number(d, "mean_abs_dlogprob_nats");
  r.p95_abs_dlogprob_nats = member_number(d, "p95_abs_dlogprob_nats");
  r.mean_kl_nats = member_number(d, "mean_kl_nats");
  if (const json& m = member(d, "most_surprising"); m.is_object())
    r.most_surprising = CrossReadingRecord::Surprise{
        token_of(member(m, "token")), member_text(m, "id"), member_count(m, "token_index", -1),
        member_number(m, "scorer_logprob")};
  return r;
}

}  // namespace

TokenFidelityDetail read_token_fidelity(const json& evidence) {
  TokenFidelityDetail t;
  if (const json& counts = member(evidence, "counts"); counts.is_object())
    for (const auto& [name, value] : counts.items())
      if (value.is_number_integer()) t.counts[name] = value.get<int64_t>();
  t.near_tie_margin_nats = member_number(evidence, "near_tie_margin_nats");
  t.tokenizers_match = member_text(member(evidence, "tokenizers"), "match");
  t.tokenizers_reason = member_text(member(evidence, "tokenizers"), "reason");
  if (const json& changes = member(evidence, "confident_changes"); changes.is_array())
    for (const json& c : changes)
      if (c.is_object()) t.changes.push_back(read_change(c));
  const json& cross = member(evidence, "cross_score");
  t.candidate_under_baseline = read_reading(member(cross, "candidate_under_baseline"));
  t.baseline_under_candidate = read_reading(member(cross, "baseline_under_candidate"));
  return t;
}

}  // namespace lb::record
