// The report's "Token fidelity" tables: for each regression candidate, how its pairs with the
// baseline part at the token level (core/run/experiments/regression_triage.cpp), and every
// confident change with both tokens, their logprobs and the baseline's margin there.
#include <algorithm>
#include <cstdio>

#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

std::string logprob_text(const json& v) {
  if (!v.is_number()) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v.get<double>());
  return buf;
}

std::string count_of(const json& counts, const char* key) {
  const auto it = counts.find(key);
  return it != counts.end() && it->is_number_integer() ? std::to_string(it->get<int64_t>()) : "0";
}

// A token as a reader sees it: quoted, with a space shown as such.
std::string token_text(const json& v) {
  return v.is_string() ? "\"" + v.get<std::string>() + "\"" : std::string("–");
}

std::string fixed(const json& v, const char* format) {
  if (!v.is_number()) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v.get<double>());
  return buf;
}

// One row per direction of a pair's teacher-forced cross-scores.
void add_cross_rows(ReportTable& table, const json& cross) {
  for (const char* dir : {"candidate_under_baseline", "baseline_under_candidate"}) {
    const json& d = json_at(cross, {dir});
    if (!d.is_object()) continue;
    const std::string reader = string_at(d, {"scorer"}), answers = string_at(d, {"answer_of"});
    if (string_at(d, {"status"}) != "ok") {
      table.rows.push_back({answers, reader, string_at(d, {"reason"}), "–", "–", "–", "–"});
      continue;
    }
    const json& m = json_at(d, {"most_surprising"});
    const std::string surprise =
        m.is_object() ? token_text(json_at(m, {"token"})) + " in " + string_at(m, {"id"}) +
                            " at token " + std::to_string(m.value("token_index", -1)) + " (" +
                            logprob_text(json_at(m, {"scorer_logprob"})) + ")"
                      : "–";
    table.rows.push_back({answers, reader, fixed(json_at(d, {"top1_agreement"}), "%.4f"),
                          fixed(json_at(d, {"mean_abs_dlogprob_nats"}), "%.4f"),
                          fixed(json_at(d, {"p95_abs_dlogprob_nats"}), "%.4f"),
                          fixed(json_at(d, {"mean_kl_nats"}), "%.5f"), surprise});
  }
}

// Both lanes' top-K where a confident change parts them, rank by rank.
ReportTable top_k_table(const std::string& cand, const json& change) {
  ReportTable t{
      "Top-K at " + cand + "'s confident change in " + string_at(change, {"id"}) + " (token " +
          std::to_string(change.value("token_index", -1)) + ")",
      {"rank", "baseline token", "baseline logprob", "candidate token", "candidate logprob"},
      {},
      ""};
  const json& a = json_at(change, {"top_baseline"});
  const json& b = json_at(change, {"top_candidate"});
  const size_t n = std::max(a.is_array() ? a.size() : 0, b.is_array() ? b.size() : 0);
  const auto cell = [](const json& list, size_t i, size_t part) -> std::string {
    if (!list.is_array() || i >= list.size() || !list[i].is_array() || list[i].size() < 2)
      return "–";
    return part == 0 ? token_text(list[i][0]) : logprob_text(list[i][1]);
  };
  for (size_t i = 0; i < n; ++i)
    t.rows.push_back(
        {std::to_string(i + 1), cell(a, i, 0), cell(a, i, 1), cell(b, i, 0), cell(b, i, 1)});
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
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Regression))
    for (const json& c : json_at(*e, {"comparisons"})) {
      const json& td = json_at(c, {"token_divergence"});
      if (!td.is_object()) continue;
      const json& n = json_at(td, {"counts"});
      const std::string cand = string_at(c, {"candidate"});
      counts.rows.push_back({cand, string_at(c, {"baseline"}), count_of(n, "identical"),
                             count_of(n, "near_tie"), count_of(n, "confident_change"),
                             count_of(n, "length_change"), count_of(n, "tokenizer_mismatch"),
                             count_of(n, "no_logprobs"),
                             logprob_text(json_at(td, {"near_tie_margin_nats"}))});
      // Lanes of different tokenizers are compared as text: the reader is told so plainly.
      if (string_at(td, {"tokenizers", "match"}) == "different")
        counts.note += " " + cand + " and " + string_at(c, {"baseline"}) +
                       ": the tokenizers differ (" + string_at(td, {"tokenizers", "reason"}) +
                       "), so their pairs are compared as text, not token by token, and are not "
                       "cross-scored.";
      if (json_at(td, {"cross_score"}).is_object())
        add_cross_rows(cross, json_at(td, {"cross_score"}));
      for (const json& p : json_at(td, {"confident_changes"}))
        if (json_at(p, {"top_baseline"}).is_array()) top_tables.push_back(top_k_table(cand, p));
      for (const json& p : json_at(td, {"confident_changes"}))
        changes.rows.push_back({cand, string_at(p, {"id"}),
                                std::to_string(p.value("token_index", -1)),
                                token_text(json_at(p, {"token_baseline"})) + " (" +
                                    logprob_text(json_at(p, {"logprob_baseline"})) + ")",
                                token_text(json_at(p, {"token_candidate"})) + " (" +
                                    logprob_text(json_at(p, {"logprob_candidate"})) + ")",
                                logprob_text(json_at(p, {"baseline_margin_nats"})),
                                logprob_text(json_at(p, {"baseline_logprob_of_candidate_token"}))});
    }
  std::vector<ReportTable> tables;
  if (!counts.rows.empty()) tables.push_back(std::move(counts));
  if (!cross.rows.empty()) tables.push_back(std::move(cross));
  if (!changes.rows.empty()) tables.push_back(std::move(changes));
  for (auto& t : top_tables) tables.push_back(std::move(t));
  return tables;
}

}  // namespace lb::report
