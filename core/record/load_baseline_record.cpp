#include "core/record/load_baseline_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

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
  r.interval_method = member_text(load_baseline, "interval_method");
  r.texts_file = member_text(load_baseline, "texts_file");
  const nlohmann::json& variant = member(load_baseline, "batch_variant");
  if (variant.is_array())
    for (const nlohmann::json& v : variant)
      if (v.is_object())
        r.batch_variant.push_back({member_count(v, "index", -1), member_text(v, "id"),
                                   member_text(v, "triage"), member_number(v, "ratio")});
  const nlohmann::json& failed = member(load_baseline, "failed_prompts");
  if (failed.is_array())
    for (const nlohmann::json& i : failed)
      if (i.is_number_integer()) r.failed_prompts.push_back(i.get<int64_t>());
  return r;
}

nlohmann::json to_json(const LoadBaselineRecord& r) {
  nlohmann::json variant = nlohmann::json::array();
  for (const BatchVariantPrompt& v : r.batch_variant)
    variant.push_back({{"index", v.index},
                       {"id", v.id},
                       {"triage", v.triage},
                       {"ratio", number_or_null(v.ratio)}});
  nlohmann::json j = {{"concurrency", count_or_null(r.concurrency)},
                      {"baseline_concurrency", count_or_null(r.baseline_concurrency)},
                      {"texts_file", r.texts_file},
                      {"prompts_compared", count_or_null(r.prompts_compared)},
                      {"mismatches", count_or_null(r.mismatches)},
                      {"mismatch_rate", number_or_null(r.mismatch_rate)},
                      {"interval_method", r.interval_method},
                      {"batch_variant", std::move(variant)},
                      {"failed_prompts", r.failed_prompts}};
  if (r.mismatch_rate_interval)
    j["mismatch_rate_interval"] = {r.mismatch_rate_interval->first,
                                   r.mismatch_rate_interval->second};
  return j;
}

}  // namespace lb::record
