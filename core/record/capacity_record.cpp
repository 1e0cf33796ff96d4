#include "core/record/capacity_record.h"

#include "core/record/json_member.h"

namespace lb::record {

CapacitySlo read_capacity_slo(const nlohmann::json& slo) {
  return {member_number(slo, "ttft_p99_ms"), member_number(slo, "tpot_p99_ms")};
}

std::optional<CapacityRecord> read_capacity(const nlohmann::json& capacity) {
  if (!capacity.is_object()) return std::nullopt;
  CapacityRecord c;
  c.unit = member_text(capacity, "unit");
  c.capacity = member_number(capacity, "capacity");
  c.goodput_req_s = member_number(capacity, "goodput_req_s");
  c.binding_slo = member_text(capacity, "binding_slo");
  c.failing_load = member_number(capacity, "failing_load");
  c.reached_max_load = member_flag(capacity, "reached_max_load");
  c.stopped_by = member_text(capacity, "stopped_by");
  c.probe_count = member_number(capacity, "probe_count");
  const nlohmann::json& probes = member(capacity, "probes");
  if (!probes.is_array()) return c;
  for (const nlohmann::json& p : probes) {
    if (!p.is_object()) continue;
    c.probes.push_back({member_number(p, "load"), member_number(p, "ttft_p99_ms"),
                        member_number(p, "tpot_p99_ms"), member_number(p, "goodput_req_s"),
                        member_flag(p, "pass"), member_text(p, "binding")});
  }
  return c;
}

}  // namespace lb::record
