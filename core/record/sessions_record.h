#pragma once
// A multi-turn sessions experiment on one lane, as summary.json records it ("sessions" in the
// lane's section, docs/sessions.md): per turn index the requests, TTFT and the prompt's cached
// share, and the sessions' end-to-end times. Read tolerantly: a member of another type reads as
// absent (NaN), never a throw.
#include <cmath>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct SessionTurnRecord {
  double turn = NAN;  // from 0
  double requests = NAN;
  double failed = NAN;
  double ttft_p50_ms = NAN;
  double ttft_p99_ms = NAN;
  double mean_prompt_tokens = NAN;
  double cached_share = NAN;  // usage cached_tokens over prompt tokens (server); NaN: not reported
};

// The server's prefix-cache counters over the whole phase: every turn's hit rate together, for
// servers whose usage does not report cached tokens.
struct SessionCountersRecord {
  double prefix_cache_hits = NAN;
  double prefix_cache_queries = NAN;
  double hit_rate = NAN;  // hits over queries; NaN with no queries
};

struct SessionsRecord {
  std::vector<SessionTurnRecord> per_turn;  // in turn order; non-objects left out
  double sessions = NAN;
  double sessions_completed = NAN;
  double sessions_failed = NAN;
  double session_e2e_p50_s = NAN;
  double session_e2e_p99_s = NAN;
  double session_e2e_mean_s = NAN;
  std::optional<SessionCountersRecord> prefix_cache_counters;  // nullopt: the lane had none
  // The plan's pacing: the pause between a reply and the next turn, and the sessions at once
  // (NaN in folders written before they were recorded).
  double think_time_s = NAN;
  double sessions_at_once = NAN;
};

// A lane's "sessions" object; nullopt when it is not an object.
std::optional<SessionsRecord> read_sessions(const nlohmann::json& sessions);
nlohmann::json to_json(const SessionsRecord& sessions);

}  // namespace lb::record
