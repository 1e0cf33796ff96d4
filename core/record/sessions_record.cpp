#include "core/record/sessions_record.h"

#include "core/record/json_member.h"

namespace lb::record {

std::optional<SessionsRecord> read_sessions(const nlohmann::json& sessions) {
  if (!sessions.is_object()) return std::nullopt;
  SessionsRecord s;
  s.sessions = member_number(sessions, "sessions");
  s.sessions_completed = member_number(sessions, "sessions_completed");
  s.sessions_failed = member_number(sessions, "sessions_failed");
  s.session_e2e_p50_s = member_number(sessions, "session_e2e_p50_s");
  s.session_e2e_p99_s = member_number(sessions, "session_e2e_p99_s");
  s.session_e2e_mean_s = member_number(sessions, "session_e2e_mean_s");
  const nlohmann::json& turns = member(sessions, "per_turn");
  if (!turns.is_array()) return s;
  for (const nlohmann::json& t : turns)
    if (t.is_object())
      s.per_turn.push_back({member_number(t, "turn"), member_number(t, "requests"),
                            member_number(t, "failed"), member_number(t, "ttft_p50_ms"),
                            member_number(t, "ttft_p99_ms"), member_number(t, "mean_prompt_tokens"),
                            member_figure(t, "cached_share")});
  return s;
}

}  // namespace lb::record
