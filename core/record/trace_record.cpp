#include "core/record/trace_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {

std::optional<TraceSourceRecord> read_trace_source(const nlohmann::json& trace) {
  if (!trace.is_object()) return std::nullopt;
  TraceSourceRecord r;
  r.path = member_text(trace, "path");
  r.format = member_text(trace, "format");
  r.requests = member_number(trace, "requests");
  r.speedup = member_number(trace, "speedup");
  r.trace_span_s = member_number(trace, "trace_span_s");
  r.replay_span_s = member_number(trace, "replay_span_s");
  return r;
}

std::optional<TraceScheduleRecord> read_trace_schedule(const nlohmann::json& schedule) {
  if (!schedule.is_object()) return std::nullopt;
  TraceScheduleRecord r;
  r.scheduled = member_number(schedule, "scheduled");
  r.sent = member_number(schedule, "sent");
  r.lateness_p50_ms = member_number(schedule, "lateness_p50_ms");
  r.lateness_p99_ms = member_number(schedule, "lateness_p99_ms");
  r.lateness_max_ms = member_number(schedule, "lateness_max_ms");
  r.late_threshold_ms = member_number(schedule, "late_threshold_ms");
  r.late_share = member_number(schedule, "late_share");
  r.kept_up = member_optional_flag(schedule, "kept_up");
  r.kept_up_rule = member_text(schedule, "kept_up_rule");
  r.provenance = member_text(schedule, "provenance");
  return r;
}

nlohmann::json to_json(const TraceScheduleRecord& s) {
  return {{"scheduled", count_or_null(s.scheduled)},
          {"sent", count_or_null(s.sent)},
          {"lateness_p50_ms", number_or_null(s.lateness_p50_ms)},
          {"lateness_p99_ms", number_or_null(s.lateness_p99_ms)},
          {"lateness_max_ms", number_or_null(s.lateness_max_ms)},
          {"late_threshold_ms", number_or_null(s.late_threshold_ms)},
          {"late_share", number_or_null(s.late_share)},
          {"kept_up", s.kept_up ? nlohmann::json(*s.kept_up) : nlohmann::json(nullptr)},
          {"kept_up_rule", s.kept_up_rule},
          {"provenance", s.provenance}};
}

}  // namespace lb::record
