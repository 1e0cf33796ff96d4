// The figures of a sessions phase: per turn index and per session
// (core/run/experiments/sessions_experiment.h).
#include <cmath>
#include <map>

#include "core/metrics/percentile.h"
#include "core/metrics/request_metrics.h"
#include "core/run/experiments/sessions_experiment.h"

namespace lb::run {
namespace {

struct TurnTotals {
  int64_t requests = 0;
  int64_t failed = 0;
  std::vector<double> ttft_ms;
  int64_t prompt_tokens = 0;
  int64_t prompt_requests = 0;
  int64_t cached_tokens = -1;        // -1 = no response of the turn reported any
  int64_t cached_prompt_tokens = 0;  // prompt tokens of the requests that did
};

struct SessionSpan {
  int64_t first_sent_ns = 0;
  int64_t last_done_ns = 0;
  int64_t turns_ok = 0;
  bool failed = false;
};

void add_turn(TurnTotals& t, const metrics::RequestMetrics& m) {
  ++t.requests;
  if (!m.ok) {
    ++t.failed;
    return;
  }
  if (m.ttft_ms >= 0) t.ttft_ms.push_back(m.ttft_ms);
  if (m.prompt_tokens >= 0) {
    t.prompt_tokens += m.prompt_tokens;
    ++t.prompt_requests;
  }
  if (m.cached_tokens >= 0 && m.prompt_tokens > 0) {
    t.cached_tokens = std::max<int64_t>(0, t.cached_tokens) + m.cached_tokens;
    t.cached_prompt_tokens += m.prompt_tokens;
  }
}

record::SessionTurnRecord turn_record(int64_t turn, const TurnTotals& t) {
  const metrics::Distribution d = metrics::describe(t.ttft_ms);
  record::SessionTurnRecord r;
  r.turn = static_cast<double>(turn);
  r.requests = static_cast<double>(t.requests);
  r.failed = static_cast<double>(t.failed);
  r.ttft_p50_ms = d.p50;
  r.ttft_p99_ms = d.p99;
  if (t.prompt_requests > 0)
    r.mean_prompt_tokens =
        static_cast<double>(t.prompt_tokens) / static_cast<double>(t.prompt_requests);
  if (t.cached_tokens >= 0 && t.cached_prompt_tokens > 0)
    r.cached_share =
        static_cast<double>(t.cached_tokens) / static_cast<double>(t.cached_prompt_tokens);
  return r;
}

}  // namespace

record::SessionsRecord session_figures(const std::vector<metrics::RequestRecord>& records,
                                       size_t sessions) {
  std::map<int64_t, TurnTotals> turns;
  std::map<int64_t, SessionSpan> spans;
  for (const auto& r : records) {
    if (r.session < 0 || r.turn < 0) continue;
    const metrics::RequestMetrics m = metrics::compute_request_metrics(r);
    add_turn(turns[r.turn], m);
    SessionSpan& s = spans[r.session];
    if (!m.ok) {
      s.failed = true;
      continue;
    }
    ++s.turns_ok;
    if (r.result.t_sent_ns > 0 && (s.first_sent_ns == 0 || r.result.t_sent_ns < s.first_sent_ns))
      s.first_sent_ns = r.result.t_sent_ns;
    s.last_done_ns = std::max(s.last_done_ns, r.result.t_done_ns);
  }
  record::SessionsRecord out;
  for (const auto& [turn, totals] : turns) out.per_turn.push_back(turn_record(turn, totals));
  std::vector<double> e2e_s;
  int64_t failed = 0;
  for (const auto& [session, s] : spans) {
    if (s.failed) {
      ++failed;
      continue;
    }
    if (s.first_sent_ns > 0 && s.last_done_ns > s.first_sent_ns)
      e2e_s.push_back(static_cast<double>(s.last_done_ns - s.first_sent_ns) / 1e9);
  }
  const metrics::Distribution d = metrics::describe(e2e_s);
  out.sessions = static_cast<double>(sessions);
  out.sessions_completed = static_cast<double>(e2e_s.size());
  out.sessions_failed = static_cast<double>(failed);
  out.session_e2e_p50_s = d.p50;
  out.session_e2e_p99_s = d.p99;
  out.session_e2e_mean_s = d.mean;
  return out;
}

}  // namespace lb::run
