#include "core/record/environment_record.h"

#include <nlohmann/json.hpp>

#include "core/record/json_member.h"
#include "core/record/scalar_text.h"

namespace lb::record {
namespace {

LaneEnvironmentRecord read_lane(const nlohmann::json& lane) {
  LaneEnvironmentRecord r;
  r.base_url = member_text(lane, "base_url");
  r.served_at = member_text(lane, "served_at");
  r.model = member_text(lane, "model");
  const nlohmann::json& probe = member(lane, "probe");
  r.server_kind = member_text(probe, "server_kind");
  if (const nlohmann::json& version = member(member(probe, "version"), "version");
      !version.is_null())
    r.server_version = scalar_text(version);
  r.max_context_tokens = member_number(probe, "max_context_tokens");
  r.metrics_available = member_optional_flag(probe, "metrics_available");
  r.tls_verification = member_text(member(lane, "tls"), "verification");
  r.key_over_plain_http_to = member_text(lane, "key_over_plain_http_to");
  r.cache_config = scalar_members(member(lane, "cache_config"));
  if (const nlohmann::json& notes = member(lane, "notes"); notes.is_object())
    r.notes = scalar_members(notes);
  return r;
}

}  // namespace

const LaneEnvironmentRecord* EnvironmentRecord::lane(const std::string& id) const {
  const auto it = lanes.find(id);
  return it == lanes.end() ? nullptr : &it->second;
}

EnvironmentRecord read_environment(const nlohmann::json& environment) {
  EnvironmentRecord r;
  r.client_version = member_text(member(environment, "client"), "version");
  if (const nlohmann::json& lanes = member(environment, "lanes"); lanes.is_object())
    for (const auto& [id, lane] : lanes.items()) r.lanes[id] = read_lane(lane);
  return r;
}

}  // namespace lb::record
