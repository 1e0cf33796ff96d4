// The figures of a sessions phase: per turn index and per session
// (core/run/experiments/sessions_experiment.h).
#include <cmath>
#include <map>

#include "core/metrics/percentile.h"
#include "core/metrics/request_metrics.h"
#include "core/record/json_number.h"
#include "core/run/experiments/pass_counters.h"
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

nlohmann::json turn_json(int64_t turn, const TurnTotals& t) {
  const metrics::Distribution d = metrics::describe(t.ttft_ms);
  nlohmann::json j = {{"turn", turn},
                      {"requests", t.requests},
                      {"failed", t.failed},
                      {"ttft_p50_ms", record::number_or_null(d.p50)},
                      {"ttft_p99_ms", record::number_or_null(d.p99)}};
  j["mean_prompt_tokens"] = t.prompt_requests > 0
                                ? nlohmann::json(static_cast<double>(t.prompt_tokens) /
                                                 static_cast<double>(t.prompt_requests))
                                : nlohmann::json(nullptr);
  j["cached_share"] = t.cached_tokens >= 0 && t.cached_prompt_tokens > 0
                          ? labelled(static_cast<double>(t.cached_tokens) /
                                         static_cast<double>(t.cached_prompt_tokens),
                                     metrics::Provenance::Server)
                          : nlohmann::json(nullptr);
  return j;
}

}  // namespace

nlohmann::json session_figures_json(const std::vector<metrics::RequestRecord>& records,
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
  nlohmann::json per_turn = nlohmann::json::array();
  for (const auto& [turn, totals] : turns) per_turn.push_back(turn_json(turn, totals));
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
  return {{"per_turn", std::move(per_turn)},
          {"sessions", sessions},
          {"sessions_completed", e2e_s.size()},
          {"sessions_failed", failed},
          {"session_e2e_p50_s", record::number_or_null(d.p50)},
          {"session_e2e_p99_s", record::number_or_null(d.p99)},
          {"session_e2e_mean_s", record::number_or_null(d.mean)},
          {"provenance", {{"ttft", "measured"}, {"session_e2e", "measured"}}}};
}

}  // namespace lb::run
