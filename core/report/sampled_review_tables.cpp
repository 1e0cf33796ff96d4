// The report's "Sampled review" tables: for each candidate of a sampled_regression, one row per
// prompt with the three similarity distributions (median [q1, q3]), the permutation test's
// adjusted p-value and result, each lane's fact loss with its interval, and the verdict given.
#include <cstdio>

#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

// V with DIGITS decimals; "n/a" when the file did not give it.
std::string fixed(double v, int digits) {
  if (std::isnan(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string whole(double v) { return std::isnan(v) ? "n/a" : fixed(v, 0); }

std::string distribution_text(const std::optional<record::SimilaritySpread>& d) {
  if (!d || d->n == 0) return "–";
  return fixed(d->median, 3) + " [" + fixed(d->q1, 3) + ", " + fixed(d->q3, 3) + "]";
}

std::string loss_text(const std::optional<record::FactLossRecord>& p) {
  if (!p) return "–";
  return std::to_string(p->lost) + "/" + std::to_string(p->samples) + " [" + fixed(100 * p->lo, 0) +
         "–" + fixed(100 * p->hi, 0) + " %]";
}

std::string verdict_of(const RunFolder& folder, const std::string& base, const std::string& cand,
                       int64_t index) {
  for (const auto& r : folder.sampled_reviews) {
    if (r.lane_a != base || r.lane_b != cand) continue;
    for (const auto& p : r.prompts)
      if (static_cast<int64_t>(p.index) == index) return compare::verdict_name(p.verdict);
  }
  return "unreviewed";
}

ReportTable comparison_table(const RunFolder& folder, const record::SampledOutcome& c) {
  const std::string& base = c.baseline;
  const std::string& cand = c.candidate;
  ReportTable t{
      "Sampled review: " + cand + " vs " + base,
      {"prompt", "result", "q-value", "within " + base, "within " + cand,
       "cross (" + base + " vs " + cand + ")", "fact lost " + base, "fact lost " + cand, "verdict"},
      {},
      ""};
  t.note = whole(c.samples_per_prompt) +
           " samples per prompt and lane; similarity is the difflib ratio, shown as median "
           "[q1, q3]. A prompt is shifted when its cross-lane similarity is lower than "
           "within-lane by a permutation test (" +
           whole(c.permutations) +
           " permutations, fixed seed), Benjamini–Hochberg across prompts at a false discovery "
           "rate of " +
           fixed(100 * c.fdr, 0) +
           " %. Fact loss: samples failing a fact check, with a 95 % Wilson interval. Every "
           "shifted prompt needs a verdict before the sampled review's gate passes.";
  for (const record::SampledPromptOutcome& p : c.per_prompt) {
    const bool shifted = p.result == "shifted";
    t.rows.push_back({p.id, p.result, fixed(p.q_value, 4), distribution_text(p.within_baseline),
                      distribution_text(p.within_candidate), distribution_text(p.cross),
                      loss_text(p.fact_lost_baseline), loss_text(p.fact_lost_candidate),
                      shifted ? verdict_of(folder, base, cand, p.index) : "–"});
  }
  return t;
}

}  // namespace

std::vector<ReportTable> sampled_review_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::SampledRegression))
    for (const record::SampledOutcome& c : e->sampled_outcomes())
      tables.push_back(comparison_table(folder, c));
  return tables;
}

}  // namespace lb::report
