#include "core/record/sessions_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {
namespace {

using nlohmann::json;

std::optional<SessionCountersRecord> read_counters(const json& counters) {
  if (!counters.is_object()) return std::nullopt;
  return SessionCountersRecord{member_number(counters, "prefix_cache_hits"),
                               member_number(counters, "prefix_cache_queries"),
                               member_figure(counters, "hit_rate")};
}

json to_json(const SessionTurnRecord& t) {
  return {{"turn", count_or_null(t.turn)},
          {"requests", count_or_null(t.requests)},
          {"failed", count_or_null(t.failed)},
          {"ttft_p50_ms", number_or_null(t.ttft_p50_ms)},
          {"ttft_p99_ms", number_or_null(t.ttft_p99_ms)},
          {"mean_prompt_tokens", number_or_null(t.mean_prompt_tokens)},
          {"cached_share", labelled(number_or_null(t.cached_share), "server")}};
}

json to_json(const std::optional<SessionCountersRecord>& c) {
  if (!c) return nullptr;
  return {{"prefix_cache_hits", number_or_null(c->prefix_cache_hits)},
          {"prefix_cache_queries", number_or_null(c->prefix_cache_queries)},
          {"hit_rate", labelled(number_or_null(c->hit_rate), "server")}};
}

}  // namespace

std::optional<SessionsRecord> read_sessions(const json& sessions) {
  if (!sessions.is_object()) return std::nullopt;
  SessionsRecord s;
  s.sessions = member_number(sessions, "sessions");
  s.sessions_completed = member_number(sessions, "sessions_completed");
  s.sessions_failed = member_number(sessions, "sessions_failed");
  s.session_e2e_p50_s = member_number(sessions, "session_e2e_p50_s");
  s.session_e2e_p99_s = member_number(sessions, "session_e2e_p99_s");
  s.session_e2e_mean_s = member_number(sessions, "session_e2e_mean_s");
  s.prefix_cache_counters = read_counters(member(sessions, "prefix_cache_counters"));
  s.think_time_s = member_number(sessions, "think_time_s");
  s.sessions_at_once = member_number(sessions, "sessions_at_once");
  const json& turns = member(sessions, "per_turn");
  if (!turns.is_array()) return s;
  for (const json& t : turns)
    if (t.is_object())
      s.per_turn.push_back({member_number(t, "turn"), member_number(t, "requests"),
                            member_number(t, "failed"), member_number(t, "ttft_p50_ms"),
                            member_number(t, "ttft_p99_ms"), member_number(t, "mean_prompt_tokens"),
                            member_figure(t, "cached_share")});
  return s;
}

json to_json(const SessionsRecord& s) {
  json per_turn = json::array();
  for (const SessionTurnRecord& t : s.per_turn) per_turn.push_back(to_json(t));
  json j = {{"per_turn", std::move(per_turn)},
            {"sessions", count_or_null(s.sessions)},
            {"sessions_completed", count_or_null(s.sessions_completed)},
            {"sessions_failed", count_or_null(s.sessions_failed)},
            {"session_e2e_p50_s", number_or_null(s.session_e2e_p50_s)},
            {"session_e2e_p99_s", number_or_null(s.session_e2e_p99_s)},
            {"session_e2e_mean_s", number_or_null(s.session_e2e_mean_s)},
            {"provenance", {{"ttft", "measured"}, {"session_e2e", "measured"}}},
            {"prefix_cache_counters", to_json(s.prefix_cache_counters)}};
  if (std::isfinite(s.think_time_s)) j["think_time_s"] = s.think_time_s;
  if (std::isfinite(s.sessions_at_once)) j["sessions_at_once"] = count_or_null(s.sessions_at_once);
  return j;
}

}  // namespace lb::record
