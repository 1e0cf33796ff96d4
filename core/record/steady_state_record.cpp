#include "core/record/steady_state_record.h"

#include "core/record/json_member.h"

namespace lb::record {
namespace {

DriftRecord read_drift(const nlohmann::json& drift, const char* figure) {
  const nlohmann::json& d = member(drift, figure);
  return {member_text(d, "verdict"), member_number(d, "change")};
}

}  // namespace

std::optional<SteadyStateRecord> read_steady_state(const nlohmann::json& steady) {
  if (!steady.is_object()) return std::nullopt;
  SteadyStateRecord s;
  s.found = member_flag(steady, "found");
  s.rule = member_text(steady, "rule");
  s.why = member_text(steady, "why");
  s.threshold = member_number(steady, "threshold");
  s.window_s = member_pair(steady, "window_s");
  s.phase_duration_s = member_number(steady, "phase_duration");
  s.requests_started = member_number(steady, "requests_started");
  s.output_throughput = member_number(steady, "output_throughput");
  s.median_ttft_ms = member_number(steady, "median_ttft_ms");
  s.p99_ttft_ms = member_number(steady, "p99_ttft_ms");
  s.median_tpot_ms = member_number(steady, "median_tpot_ms");
  s.p99_tpot_ms = member_number(steady, "p99_tpot_ms");
  s.short_window = member_flag(steady, "short");
  const nlohmann::json& drift = member(steady, "drift");
  s.ttft_drift = read_drift(drift, "ttft_ms");
  s.tpot_drift = read_drift(drift, "tpot_ms");
  s.output_drift = read_drift(drift, "output_throughput");
  return s;
}

}  // namespace lb::record
