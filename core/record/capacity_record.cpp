#include "core/record/capacity_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {
namespace {

using nlohmann::json;

CapacityProbeRecord read_probe(const json& p) {
  CapacityProbeRecord r{member_number(p, "load"),        member_number(p, "ttft_p99_ms"),
                        member_number(p, "tpot_p99_ms"), member_number(p, "goodput_req_s"),
                        member_flag(p, "pass"),          member_text(p, "binding"),
                        member_number(p, "completed"),   member_number(p, "errors"),
                        member_number(p, "duration_s")};
  return r;
}

json text_or_null(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }

}  // namespace

CapacitySlo read_capacity_slo(const json& slo) {
  return {member_number(slo, "ttft_p99_ms"), member_number(slo, "tpot_p99_ms")};
}

std::optional<CapacityRecord> read_capacity(const json& capacity) {
  if (!capacity.is_object()) return std::nullopt;
  CapacityRecord c;
  c.load = member_text(capacity, "load");
  c.unit = member_text(capacity, "unit");
  c.capacity = member_number(capacity, "capacity");
  c.goodput_req_s = member_number(capacity, "goodput_req_s");
  c.binding_slo = member_text(capacity, "binding_slo");
  c.failing_load = member_number(capacity, "failing_load");
  c.reached_max_load = member_flag(capacity, "reached_max_load");
  c.stopped_by = member_text(capacity, "stopped_by");
  c.probe_count = member_number(capacity, "probe_count");
  c.search_duration_s = member_number(capacity, "search_duration_s");
  if (const json& cut = member(capacity, "cut_probe"); cut.is_object())
    c.cut_probe = read_probe(cut);
  const json& probes = member(capacity, "probes");
  if (!probes.is_array()) return c;
  for (const json& p : probes)
    if (p.is_object()) c.probes.push_back(read_probe(p));
  return c;
}

json to_json(const CapacitySlo& slo) {
  return {{"ttft_p99_ms", figure_or_null(slo.ttft_p99_ms)},
          {"tpot_p99_ms", figure_or_null(slo.tpot_p99_ms)}};
}

json to_json(const CapacityProbeRecord& p) {
  return {{"load", number_or_null(p.load)},
          {"pass", p.pass},
          {"ttft_p99_ms", figure_or_null(p.ttft_p99_ms)},
          {"tpot_p99_ms", figure_or_null(p.tpot_p99_ms)},
          {"goodput_req_s", figure_or_null(p.goodput_req_s)},
          {"completed", count_or_null(p.completed)},
          {"errors", count_or_null(p.errors)},
          {"binding", text_or_null(p.binding)},
          {"duration_s", number_or_null(p.duration_s)}};
}

json to_json(const CapacityRecord& c) {
  json probes = json::array();
  for (const CapacityProbeRecord& p : c.probes) probes.push_back(to_json(p));
  json j = {{"unit", c.unit},
            {"capacity", number_or_null(c.capacity)},
            {"goodput_req_s", figure_or_null(c.goodput_req_s)},
            {"binding_slo", text_or_null(c.binding_slo)},
            {"failing_load", number_or_null(c.failing_load)},
            {"reached_max_load", c.reached_max_load},
            {"stopped_by", c.stopped_by},
            {"probe_count", count_or_null(c.probe_count)},
            {"probes", std::move(probes)},
            {"cut_probe", c.cut_probe ? to_json(*c.cut_probe) : json(nullptr)}};
  if (!c.load.empty()) j["load"] = c.load;
  if (std::isfinite(c.search_duration_s)) j["search_duration_s"] = c.search_duration_s;
  return j;
}

}  // namespace lb::record
