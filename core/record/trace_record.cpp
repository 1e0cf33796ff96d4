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
  r.skipped_rows = member_number(trace, "skipped_rows");
  if (const nlohmann::json& skipped = member(trace, "skipped"); skipped.is_array())
    for (const nlohmann::json& why : skipped)
      if (why.is_string()) r.skipped.push_back(why.get<std::string>());
  r.truncated = member_optional_flag(trace, "truncated");
  return r;
}

nlohmann::json to_json(const TraceSourceRecord& t) {
  nlohmann::json j = {{"path", t.path},
                      {"format", t.format},
                      {"requests", count_or_null(t.requests)},
                      {"speedup", number_or_null(t.speedup)},
                      {"trace_span_s", number_or_null(t.trace_span_s)},
                      {"replay_span_s", number_or_null(t.replay_span_s)},
                      {"skipped", t.skipped}};
  if (std::isfinite(t.skipped_rows)) j["skipped_rows"] = count_or_null(t.skipped_rows);
  if (t.truncated) j["truncated"] = *t.truncated;
  return j;
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
