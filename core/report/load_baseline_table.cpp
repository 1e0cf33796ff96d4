// The report's "Greedy A/A baseline under load" table: for each lane of a regression with a
// load_baseline, how many of its own greedy answers changed when the same prompts ran at the
// load concurrency (core/run/experiments/regression_load_baseline.cpp), with the rate's 95 %
// interval and the batch-variant prompts by id.
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

std::string rate_percent(double share) { return format_number(100 * share, 1) + " %"; }

std::string batch_variant_ids(const json& variant) {
  std::string out;
  size_t shown = 0;
  for (const json& v : variant) {
    if (++shown > 8) return out + ", … (" + std::to_string(variant.size()) + " in all)";
    out += (out.empty() ? "" : ", ") + string_at(v, {"id"});
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
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Regression)) {
    const json& lanes = json_at(*e, {"lanes"});
    if (!lanes.is_object()) continue;
    for (const auto& [lane, section] : lanes.items()) {
      const json& lb = json_at(section, {"load_baseline"});
      if (!lb.is_object()) continue;
      const json& rate = json_at(lb, {"mismatch_rate"});
      const json& ci = json_at(lb, {"mismatch_rate_interval"});
      std::string rate_text = rate.is_number() ? rate_percent(rate.get<double>()) : "n/a";
      if (rate.is_number() && ci.is_array() && ci.size() == 2 && ci[0].is_number() &&
          ci[1].is_number())
        rate_text += " [" + rate_percent(ci[0].get<double>()) + ", " +
                     rate_percent(ci[1].get<double>()) + "]";
      t.rows.push_back({lane,
                        format_number(number_at(lb, {"baseline_concurrency"}), 0) + " vs " +
                            format_number(number_at(lb, {"concurrency"}), 0),
                        format_number(number_at(lb, {"prompts_compared"}), 0),
                        format_number(number_at(lb, {"mismatches"}), 0), rate_text,
                        batch_variant_ids(json_at(lb, {"batch_variant"}))});
    }
  }
  return t;
}

}  // namespace lb::report
