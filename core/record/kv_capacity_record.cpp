#include "core/record/kv_capacity_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {

std::optional<KvCapacityRecord> read_kv_capacity(const nlohmann::json& kv) {
  if (!kv.is_object()) return std::nullopt;
  KvCapacityRecord r;
  r.tokens = member_number(kv, "tokens");
  r.full_context_windows = member_number(kv, "full_context_windows");
  r.max_model_len = member_number(kv, "max_model_len");
  r.cache_dtype = member_text(kv, "cache_dtype");
  r.provenance = member_text(kv, "provenance");
  r.reason = member_text(kv, "reason");
  return r;
}

nlohmann::json to_json(const KvCapacityRecord& kv) {
  nlohmann::json j = {{"tokens", count_or_null(kv.tokens)}, {"provenance", kv.provenance}};
  if (!kv.cache_dtype.empty()) j["cache_dtype"] = kv.cache_dtype;
  if (std::isfinite(kv.full_context_windows)) {
    j["full_context_windows"] = kv.full_context_windows;
    j["max_model_len"] = count_or_null(kv.max_model_len);
  }
  if (!kv.reason.empty()) j["reason"] = kv.reason;
  return j;
}

}  // namespace lb::record
