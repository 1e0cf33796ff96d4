// The report's "Token fidelity" tables: for each regression candidate, how its pairs with the
// baseline part at the token level (run/regression_triage.cpp), and every confident change with
// both tokens, their logprobs and the baseline's margin there.
#include <cstdio>

#include "report/json_access.h"
#include "report/report_model.h"

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
  for (const json* e : folder.experiments_of_kind("regression"))
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
  if (!changes.rows.empty()) tables.push_back(std::move(changes));
  return tables;
}

}  // namespace lb::report
