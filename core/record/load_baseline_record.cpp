#include "core/record/load_baseline_record.h"

#include "core/record/json_member.h"

namespace lb::record {

std::optional<LoadBaselineRecord> read_load_baseline(const nlohmann::json& load_baseline) {
  if (!load_baseline.is_object()) return std::nullopt;
  LoadBaselineRecord r;
  r.concurrency = member_number(load_baseline, "concurrency");
  r.baseline_concurrency = member_number(load_baseline, "baseline_concurrency");
  r.prompts_compared = member_number(load_baseline, "prompts_compared");
  r.mismatches = member_number(load_baseline, "mismatches");
  r.mismatch_rate = member_number(load_baseline, "mismatch_rate");
  r.mismatch_rate_interval = member_pair(load_baseline, "mismatch_rate_interval");
  const nlohmann::json& variant = member(load_baseline, "batch_variant");
  if (!variant.is_array()) return r;
  for (const nlohmann::json& v : variant)
    if (v.is_object())
      r.batch_variant.push_back(
          {member_count(v, "index", -1), member_text(v, "id"), member_text(v, "triage")});
  return r;
}

}  // namespace lb::record
