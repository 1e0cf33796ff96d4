#pragma once
// A trace replay as summary.json records it (docs/metrics.md, "Trace replay"): the trace the
// experiment replayed ("trace" in its section) and, per lane, whether the client kept to the
// trace's schedule ("schedule" in the lane's section). Read tolerantly: a member of another type
// reads as absent (NaN, "" or nullopt), never a throw.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct TraceSourceRecord {
  std::string path;    // as the plan named it
  std::string format;  // "mooncake", "jsonl", ...
  double requests = NAN;
  double speedup = NAN;
  double trace_span_s = NAN, replay_span_s = NAN;
  double skipped_rows = NAN;         // malformed rows skipped under skip_bad_rows
  std::vector<std::string> skipped;  // the first few skipped rows' errors
  std::optional<bool> truncated;     // max_requests or max_offset_ns cut the trace
};

struct TraceScheduleRecord {
  double scheduled = NAN;
  double sent = NAN;
  double lateness_p50_ms = NAN, lateness_p99_ms = NAN, lateness_max_ms = NAN;
  double late_threshold_ms = NAN;
  double late_share = NAN;  // of the sent requests, those sent over the threshold late
  std::optional<bool> kept_up;
  std::string kept_up_rule;  // the rule in words
  std::string provenance;    // "measured": the client's own clock
};

// A trace section's "trace" object and a lane's "schedule" object; nullopt when not an object.
std::optional<TraceSourceRecord> read_trace_source(const nlohmann::json& trace);
std::optional<TraceScheduleRecord> read_trace_schedule(const nlohmann::json& schedule);

// The lane's "schedule" object as the engine writes it: counts as whole numbers, a lateness
// that could not be measured as null.
nlohmann::json to_json(const TraceScheduleRecord& schedule);
nlohmann::json to_json(const TraceSourceRecord& trace);

}  // namespace lb::record
