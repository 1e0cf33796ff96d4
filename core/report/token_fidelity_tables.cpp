// The report's "Token fidelity" tables: for each regression candidate, how its pairs with the
// baseline part at the token level (core/run/experiments/regression_triage.cpp), and every
// confident change with both tokens, their logprobs and the baseline's margin there.
#include <algorithm>
#include <cstdio>

#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

// V with FORMAT; "–" when the file did not give it.
std::string fixed(double v, const char* format) {
  if (std::isnan(v)) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string logprob_text(double v) { return fixed(v, "%.3f"); }

std::string count_of(const std::map<std::string, int64_t>& counts, const char* key) {
  const auto it = counts.find(key);
  return it != counts.end() ? std::to_string(it->second) : "0";
}

// A token as a reader sees it: quoted, with a space shown as such.
std::string token_text(const std::optional<std::string>& v) {
  return v ? "\"" + *v + "\"" : std::string("–");
}

// One row per direction of a pair's teacher-forced cross-scores.
void add_cross_rows(ReportTable& table, const record::TokenFidelityDetail& d) {
  for (const auto* reading : {&d.candidate_under_baseline, &d.baseline_under_candidate}) {
    if (!*reading) continue;
    const record::CrossReadingRecord& r = **reading;
    if (!r.scored()) {
      table.rows.push_back({r.answer_of, r.scorer, r.reason, "–", "–", "–", "–"});
      continue;
    }
    const auto& m = r.most_surprising;
    const std::string surprise = m ? token_text(m->token) + " in " + m->id + " at token " +
                                         std::to_string(m->token_index) + " (" +
                                         logprob_text(m->scorer_logprob) + ")"
                                   : "–";
    table.rows.push_back({r.answer_of, r.scorer, fixed(r.top1_agreement, "%.4f"),
                          fixed(r.mean_abs_dlogprob_nats, "%.4f"),
                          fixed(r.p95_abs_dlogprob_nats, "%.4f"), fixed(r.mean_kl_nats, "%.5f"),
                          surprise});
  }
}

// Both lanes' top-K where a confident change parts them, rank by rank.
ReportTable top_k_table(const std::string& cand, const record::ConfidentChangeRecord& change) {
  ReportTable t{
      "Top-K at " + cand + "'s confident change in " + change.id + " (token " +
          std::to_string(change.token_index) + ")",
      {"rank", "baseline token", "baseline logprob", "candidate token", "candidate logprob"},
      {},
      ""};
  const auto& a = change.top_baseline;
  const auto& b = change.top_candidate;
  const size_t n = std::max(a.size(), b.size());
  const auto token = [](const std::vector<record::RankedToken>& list, size_t i) {
    return i < list.size() ? token_text(list[i].token) : "–";
  };
  const auto logprob = [](const std::vector<record::RankedToken>& list, size_t i) {
    return i < list.size() ? logprob_text(list[i].logprob) : "–";
  };
  for (size_t i = 0; i < n; ++i)
    t.rows.push_back(
        {std::to_string(i + 1), token(a, i), logprob(a, i), token(b, i), logprob(b, i)});
  return t;
}

}  // namespace

std::vector<ReportTable> token_fidelity_tables(const RunFolder& folder) {
  ReportTable counts{"Token fidelity",
                     {"candidate", "baseline", "identical", "near tie", "confident change",
                      "length change", "tokenizer mismatch", "no logprobs", "near-tie margin"},
                     {},
                     "Where each non-identical pair first parts, judged from the lanes' own "
                     "per-token logprobs (docs/compare.md): a near tie is a token both lanes rank "
                     "in each other's top-K where the baseline was almost undecided; a confident "
                     "change is one the baseline did not expect."};
  ReportTable changes{
      "Confident changes",
      {"candidate", "prompt", "token #", "baseline token (logprob)", "candidate token (logprob)",
       "baseline margin (nats)", "baseline logprob of the candidate token"},
      {},
      "Each needs a reviewer's verdict before the token-fidelity gate passes."};
  ReportTable cross{
      "Cross-scores (teacher forcing)",
      {"answers of", "read by", "top-1 agreement", "mean |Δlogprob| (nats)",
       "p95 |Δlogprob| (nats)", "truncated KL (nats/token)", "most surprising token (logprob)"},
      {},
      "Each lane's whole answers read by the other lane (docs/compare.md): the "
      "share of tokens that are the reader's top-1, how far the two lanes' logprobs "
      "of each token are apart, and KL(baseline || candidate) over the union of "
      "both top-K lists plus one tail bucket for the remaining mass."};
  std::vector<ReportTable> top_tables;
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Regression))
    for (const record::PairOutcome& pair : e->pair_outcomes()) {
      if (!pair.tokens) continue;
      const record::TokenFidelityDetail& td = pair.tokens->detail;
      const std::string& cand = pair.candidate;
      counts.rows.push_back(
          {cand, pair.baseline, count_of(td.counts, "identical"), count_of(td.counts, "near_tie"),
           count_of(td.counts, "confident_change"), count_of(td.counts, "length_change"),
           count_of(td.counts, "tokenizer_mismatch"), count_of(td.counts, "no_logprobs"),
           logprob_text(td.near_tie_margin_nats)});
      // Lanes of different tokenizers are compared as text: the reader is told so plainly.
      if (td.tokenizers_match == "different")
        counts.note += " " + cand + " and " + pair.baseline + ": the tokenizers differ (" +
                       td.tokenizers_reason +
                       "), so their pairs are compared as text, not token by token, and are not "
                       "cross-scored.";
      add_cross_rows(cross, td);
      for (const record::ConfidentChangeRecord& p : td.changes)
        if (p.has_top_k) top_tables.push_back(top_k_table(cand, p));
      for (const record::ConfidentChangeRecord& p : td.changes)
        changes.rows.push_back(
            {cand, p.id, std::to_string(p.token_index),
             token_text(p.token_baseline) + " (" + logprob_text(p.logprob_baseline) + ")",
             token_text(p.token_candidate) + " (" + logprob_text(p.logprob_candidate) + ")",
             logprob_text(p.baseline_margin_nats),
             logprob_text(p.baseline_logprob_of_candidate_token)});
    }
  std::vector<ReportTable> tables;
  if (!counts.rows.empty()) tables.push_back(std::move(counts));
  if (!cross.rows.empty()) tables.push_back(std::move(cross));
  if (!changes.rows.empty()) tables.push_back(std::move(changes));
  for (auto& t : top_tables) tables.push_back(std::move(t));
  return tables;
}

}  // namespace lb::report
