#include "core/record/kv_capacity_record.h"

#include "core/record/json_member.h"

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

}  // namespace lb::record
