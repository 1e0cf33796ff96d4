// The report's "Sampled review" tables: for each candidate of a sampled_regression, one row per
// prompt with the three similarity distributions (median [q1, q3]), the permutation test's
// adjusted p-value and result, each lane's fact loss with its interval, and the verdict given.
#include <cstdio>

#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string distribution_text(const json& d) {
  if (!d.is_object() || d.value("n", 0) == 0) return "–";
  return fixed(d.value("median", 0.0), 3) + " [" + fixed(d.value("q1", 0.0), 3) + ", " +
         fixed(d.value("q3", 0.0), 3) + "]";
}

std::string loss_text(const json& p) {
  if (!p.is_object()) return "–";
  return std::to_string(p.value("lost", 0)) + "/" + std::to_string(p.value("samples", 0)) + " [" +
         fixed(100 * p.value("lo", 0.0), 0) + "–" + fixed(100 * p.value("hi", 1.0), 0) + " %]";
}

std::string verdict_of(const RunFolder& folder, const std::string& base, const std::string& cand,
                       size_t index) {
  for (const auto& r : folder.sampled_reviews) {
    if (r.lane_a != base || r.lane_b != cand) continue;
    for (const auto& p : r.prompts)
      if (p.index == index) return compare::verdict_name(p.verdict);
  }
  return "unreviewed";
}

ReportTable comparison_table(const RunFolder& folder, const json& e, const json& c) {
  const std::string base = string_at(c, {"baseline"}), cand = string_at(c, {"candidate"});
  const json& test = json_at(c, {"test"});
  ReportTable t{
      "Sampled review: " + cand + " vs " + base,
      {"prompt", "result", "q-value", "within " + base, "within " + cand,
       "cross (" + base + " vs " + cand + ")", "fact lost " + base, "fact lost " + cand, "verdict"},
      {},
      ""};
  t.note = std::to_string(e.value("samples", 0)) +
           " samples per prompt and lane; similarity is the difflib ratio, shown as median "
           "[q1, q3]. A prompt is shifted when its cross-lane similarity is lower than "
           "within-lane by a permutation test (" +
           std::to_string(test.value("permutations", 0)) +
           " permutations, fixed seed), Benjamini–Hochberg across prompts at a false discovery "
           "rate of " +
           fixed(100 * test.value("fdr", 0.05), 0) +
           " %. Fact loss: samples failing a fact check, with a 95 % Wilson interval. Every "
           "shifted prompt needs a verdict before the sampled review's gate passes.";
  for (const json& p : json_at(c, {"prompts"})) {
    const bool shifted = p.value("result", "") == "shifted";
    const size_t index = p.value("index", size_t{0});
    t.rows.push_back(
        {string_at(p, {"id"}), p.value("result", ""), fixed(p.value("q_value", 1.0), 4),
         distribution_text(json_at(p, {"within_a"})), distribution_text(json_at(p, {"within_b"})),
         distribution_text(json_at(p, {"cross"})),
         loss_text(json_at(p, {"fact_lost", base.c_str()})),
         loss_text(json_at(p, {"fact_lost", cand.c_str()})),
         shifted ? verdict_of(folder, base, cand, index) : "–"});
  }
  return t;
}

}  // namespace

std::vector<ReportTable> sampled_review_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::SampledRegression))
    for (const json& c : json_at(*e, {"comparisons"}))
      tables.push_back(comparison_table(folder, *e, c));
  return tables;
}

}  // namespace lb::report
