// The report's "Greedy A/A baseline under load" table: for each lane of a regression with a
// load_baseline, how many of its own greedy answers changed when the same prompts ran at the
// load concurrency (core/run/experiments/regression_load_baseline.cpp), with the rate's 95 %
// interval and the batch-variant prompts by id.
#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

std::string rate_percent(double share) { return format_number(100 * share, 1) + " %"; }

std::string batch_variant_ids(const std::vector<record::BatchVariantPrompt>& variant) {
  std::string out;
  size_t shown = 0;
  for (const record::BatchVariantPrompt& v : variant) {
    if (++shown > 8) return out + ", … (" + std::to_string(variant.size()) + " in all)";
    out += (out.empty() ? "" : ", ") + v.id;
  }
  return out.empty() ? "–" : out;
}

}  // namespace

ReportTable load_baseline_table(const RunFolder& folder) {
  ReportTable t{"Greedy A/A baseline under load",
                {"lane", "concurrency", "prompts", "changed under load", "mismatch rate [95 %]",
                 "batch-variant prompts"},
                {},
                "Each lane answered the regression prompts again at the load concurrency and its "
                "answers were compared with its own, exactly as two lanes are. A prompt whose "
                "answer changes is batch-variant: batching alone moves it, so a cross-lane "
                "difference there is not evidence against the configuration (Wilson interval)."};
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Regression)) {
    for (const record::LaneRecord& lane : e->lanes) {
      const std::optional<record::LoadBaselineRecord> lb = lane.load_baseline();
      if (!lb) continue;
      const bool rated = !std::isnan(lb->mismatch_rate);
      std::string rate_text = rated ? rate_percent(lb->mismatch_rate) : "n/a";
      if (rated && lb->mismatch_rate_interval)
        rate_text += " [" + rate_percent(lb->mismatch_rate_interval->first) + ", " +
                     rate_percent(lb->mismatch_rate_interval->second) + "]";
      t.rows.push_back(
          {lane.id,
           format_number(lb->baseline_concurrency, 0) + " vs " + format_number(lb->concurrency, 0),
           format_number(lb->prompts_compared, 0), format_number(lb->mismatches, 0), rate_text,
           batch_variant_ids(lb->batch_variant)});
    }
  }
  return t;
}

}  // namespace lb::report
