#pragma once
// A lane's KV cache capacity as summary.json records it ("kv_capacity" in the lane's section of
// a throughput or context-sweep experiment): the tokens the server's cache holds, from its cache
// config, and how many full context windows that is. Read tolerantly: a member of another type
// reads as absent (NaN or ""), never a throw.
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::record {

struct KvCapacityRecord {
  double tokens = NAN;  // NaN when the server exposed no cache config (then `reason` says so)
  double full_context_windows = NAN;
  double max_model_len = NAN;
  std::string cache_dtype;
  std::string provenance;
  std::string reason;
};

// A lane's "kv_capacity" object; nullopt when it is not an object.
std::optional<KvCapacityRecord> read_kv_capacity(const nlohmann::json& kv);

// The lane's "kv_capacity" object as the engine writes it: tokens and the model length as whole
// numbers, tokens null when the server exposed no cache config.
nlohmann::json to_json(const KvCapacityRecord& kv);

}  // namespace lb::record
