#include "core/compare/token_divergence.h"

#include <cmath>

namespace lb::compare {
namespace {

using logprobs::PromptLogprobs;
using logprobs::TokenLogprob;

int64_t code_points(const std::string& s, size_t bytes) {
  int64_t n = 0;
  for (size_t i = 0; i < bytes && i < s.size(); ++i)
    n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

bool all_have_ids(const logprobs::TokenSeries& s) {
  for (const auto& t : s)
    if (t.id < 0) return false;
  return !s.empty();
}

std::string joined_from(const logprobs::TokenSeries& s, size_t from, size_t max_bytes) {
  std::string out;
  for (size_t i = from; i < s.size() && out.size() < max_bytes; ++i) out += s[i].token;
  return out.substr(0, std::min(out.size(), max_bytes));
}

std::optional<double> finite(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// Same text at position i, cut differently: one token is a prefix of the other and what
// follows spells the same bytes.
bool same_text_cut_differently(const logprobs::TokenSeries& a, const logprobs::TokenSeries& b,
                               size_t i) {
  const std::string& ta = a[i].token;
  const std::string& tb = b[i].token;
  if (ta.size() == tb.size()) return false;
  const size_t n = std::max(ta.size(), tb.size());
  const std::string ja = joined_from(a, i, n), jb = joined_from(b, i, n);
  return ja.size() == n && ja == jb;
}

void classify_at(const TokenLogprob& a, const TokenLogprob& b, bool by_ids,
                 const DivergenceThresholds& th, TokenDivergence& d) {
  d.logprob_a = finite(a.logprob);
  d.logprob_b = finite(b.logprob);
  if (!logprobs::usable(a) || !logprobs::usable(b)) {
    d.cls = DivergenceClass::NoLogprobs;
    d.reason = "unusable logprob at the divergence: baseline " + logprobs::describe_flags(a.flags) +
               ", candidate " + logprobs::describe_flags(b.flags);
    return;
  }
  if (a.top.empty() || b.top.empty()) {
    d.cls = DivergenceClass::NoLogprobs;
    d.reason = "no top-K alternatives at the divergence";
    return;
  }
  if (const auto* alt = logprobs::find_alternative(a, b.token, b.id, by_ids))
    d.a_logprob_of_b = finite(alt->logprob);
  if (const auto* alt = logprobs::find_alternative(b, a.token, a.id, by_ids))
    d.b_logprob_of_a = finite(alt->logprob);
  if (a.top.size() >= 2 && std::isfinite(a.top[0].logprob) && std::isfinite(a.top[1].logprob))
    d.baseline_margin_nats = a.top[0].logprob - a.top[1].logprob;
  const bool both_in_top = d.a_logprob_of_b && d.b_logprob_of_a;
  const bool close = d.baseline_margin_nats && *d.baseline_margin_nats <= th.near_tie_margin_nats;
  d.cls = both_in_top && close ? DivergenceClass::NearTie : DivergenceClass::ConfidentChange;
  if (d.cls == DivergenceClass::NearTie) {
    d.reason = "each lane's token is in the other's top-K and the baseline was nearly undecided";
  } else if (!d.a_logprob_of_b) {
    d.reason = "the baseline's top-K does not hold the candidate's token";
  } else if (!d.b_logprob_of_a) {
    d.reason = "the candidate's top-K does not hold the baseline's token";
  } else {
    d.reason = d.baseline_margin_nats ? "the baseline preferred its token by more than the margin"
                                      : "the baseline listed fewer than two alternatives";
  }
}

}  // namespace

const char* to_string(DivergenceClass c) {
  switch (c) {
    case DivergenceClass::Identical:
      return "identical";
    case DivergenceClass::NearTie:
      return "near_tie";
    case DivergenceClass::ConfidentChange:
      return "confident_change";
    case DivergenceClass::LengthChange:
      return "length_change";
    case DivergenceClass::TokenizerMismatch:
      return "tokenizer_mismatch";
    case DivergenceClass::NoLogprobs:
      return "no_logprobs";
  }
  return "no_logprobs";
}

TokenDivergence analyse_token_divergence(const PromptLogprobs* a, const PromptLogprobs* b,
                                         const std::string& text_a, const std::string& text_b,
                                         const DivergenceThresholds& th,
                                         const std::string& tokenizers_differ) {
  TokenDivergence d;
  if (a) d.prompt_index = a->index, d.prompt_id = a->prompt_id;
  if (text_a == text_b) {
    d.cls = DivergenceClass::Identical;
    d.reason = "the texts are identical";
    return d;
  }
  if (!tokenizers_differ.empty()) {
    // Byte alignment of the texts themselves, backed off to a whole character.
    size_t bytes = 0;
    while (bytes < text_a.size() && bytes < text_b.size() && text_a[bytes] == text_b[bytes])
      ++bytes;
    while (bytes > 0 && (static_cast<unsigned char>(text_a[bytes]) & 0xC0) == 0x80) --bytes;
    d.cls = DivergenceClass::TokenizerMismatch;
    d.aligned_by = "text";
    d.char_offset_a = d.char_offset_b = code_points(text_a, bytes);
    d.reason = "the lanes' tokenizers differ (" + tokenizers_differ +
               "): token positions and ids cannot be compared, so the texts are; they part at "
               "character " +
               std::to_string(d.char_offset_a);
    return d;
  }
  const std::pair<const char*, const PromptLogprobs*> lanes[] = {{"baseline", a}, {"candidate", b}};
  for (const auto& [lane, p] : lanes) {
    if (p && p->status == "ok" && !p->tokens.empty()) continue;
    d.cls = DivergenceClass::NoLogprobs;
    d.reason = std::string(lane) + " has no logprobs";
    if (p) d.reason += " (" + p->status + (p->note.empty() ? "" : ": " + p->note) + ")";
    return d;
  }
  const auto& sa = a->tokens;
  const auto& sb = b->tokens;
  const bool by_ids = all_have_ids(sa) && all_have_ids(sb);
  d.aligned_by = by_ids ? "ids" : "bytes";
  size_t i = 0, bytes = 0;
  for (; i < sa.size() && i < sb.size(); ++i) {
    const bool same_id = sa[i].id == sb[i].id, same_bytes = sa[i].token == sb[i].token;
    if (by_ids && same_id != same_bytes) {
      d.cls = DivergenceClass::TokenizerMismatch;
      d.token_index = static_cast<int64_t>(i);
      d.reason =
          "token " + std::to_string(i) +
          (same_id ? " has one id but different bytes" : " has the same bytes but ids differ") +
          ": the lanes' tokenizers differ; compare the texts";
      return d;
    }
    if (!(by_ids ? same_id : same_bytes)) break;
    bytes += sa[i].token.size();
  }
  d.token_index = static_cast<int64_t>(i);
  std::string prefix;
  for (size_t k = 0; k < i; ++k) prefix += sa[k].token;
  d.char_offset_a = d.char_offset_b = code_points(prefix, bytes);
  if (i == sa.size() || i == sb.size()) {
    if (i == sa.size() && i == sb.size()) {
      d.cls = DivergenceClass::Identical;
      d.reason = "the token sequences are identical (the texts differ outside them)";
      d.token_index = -1;
      return d;
    }
    d.cls = DivergenceClass::LengthChange;
    d.reason = std::string(i == sa.size() ? "the baseline" : "the candidate") +
               " stopped where the other lane went on";
    if (i < sa.size()) d.token_a = sa[i].token, d.logprob_a = finite(sa[i].logprob);
    if (i < sb.size()) d.token_b = sb[i].token, d.logprob_b = finite(sb[i].logprob);
    return d;
  }
  d.token_a = sa[i].token;
  d.token_b = sb[i].token;
  if (same_text_cut_differently(sa, sb, i)) {
    d.cls = DivergenceClass::TokenizerMismatch;
    d.reason = "the lanes cut the same text into different tokens; compare the texts";
    return d;
  }
  d.top_a = sa[i].top;
  d.top_b = sb[i].top;
  classify_at(sa[i], sb[i], by_ids, th, d);
  return d;
}

nlohmann::json to_json(const TokenDivergence& d) {
  const auto opt = [](const std::optional<double>& v) -> nlohmann::json {
    return v ? nlohmann::json(std::round(*v * 1e4) / 1e4) : nlohmann::json(nullptr);
  };
  nlohmann::json j = {{"index", d.prompt_index},
                      {"id", d.prompt_id},
                      {"class", to_string(d.cls)},
                      {"reason", d.reason}};
  if (d.cls == DivergenceClass::Identical) return j;
  if (d.token_index < 0) {
    if (d.aligned_by == "text")
      j.update({{"aligned_by", d.aligned_by},
                {"char_offset_baseline", d.char_offset_a},
                {"char_offset_candidate", d.char_offset_b}});
    return j;
  }
  j.update({{"aligned_by", d.aligned_by},
            {"token_index", d.token_index},
            {"char_offset_baseline", d.char_offset_a},
            {"char_offset_candidate", d.char_offset_b},
            {"token_baseline", logprobs::token_text_json(d.token_a)},
            {"token_candidate", logprobs::token_text_json(d.token_b)},
            {"logprob_baseline", opt(d.logprob_a)},
            {"logprob_candidate", opt(d.logprob_b)},
            {"baseline_logprob_of_candidate_token", opt(d.a_logprob_of_b)},
            {"candidate_logprob_of_baseline_token", opt(d.b_logprob_of_a)},
            {"baseline_margin_nats", opt(d.baseline_margin_nats)}});
  // [[token, logprob], ...] best first: both lanes' alternatives where they part.
  const auto top = [&opt](const std::vector<logprobs::Alternative>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& alt : list)
      out.push_back(
          {logprobs::token_text_json(alt.token),
           opt(std::isfinite(alt.logprob) ? std::optional<double>(alt.logprob) : std::nullopt)});
    return out;
  };
  if (!d.top_a.empty() || !d.top_b.empty()) {
    j["top_baseline"] = top(d.top_a);
    j["top_candidate"] = top(d.top_b);
  }
  return j;
}

nlohmann::json divergence_counts(const std::vector<TokenDivergence>& pairs) {
  nlohmann::json counts = nlohmann::json::object();
  for (auto c : {DivergenceClass::Identical, DivergenceClass::NearTie,
                 DivergenceClass::ConfidentChange, DivergenceClass::LengthChange,
                 DivergenceClass::TokenizerMismatch, DivergenceClass::NoLogprobs})
    counts[to_string(c)] = 0;
  for (const auto& p : pairs) counts[to_string(p.cls)] = counts[to_string(p.cls)].get<int>() + 1;
  return counts;
}

nlohmann::json divergence_report(const std::vector<TokenDivergence>& pairs,
                                 const DivergenceThresholds& th) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : pairs) list.push_back(to_json(p));
  return {{"thresholds",
           {{"near_tie_margin_nats", th.near_tie_margin_nats},
            {"top_k", th.top_k},
            {"rule",
             "near_tie: each token in the other's top-K and baseline margin <= "
             "near_tie_margin_nats"}}},
          {"counts", divergence_counts(pairs)},
          {"pairs", std::move(list)}};
}

}  // namespace lb::compare
