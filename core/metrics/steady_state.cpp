#include "core/metrics/steady_state.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace lb::metrics {
namespace {

constexpr double kNsPerS = 1e9;
constexpr double kShortFloorS = 10.0;
constexpr double kShortShare = 0.10;

bool timed(const RequestRow& r) {
  return !r.warmup && r.t_sent_ns > 0 && r.t_done_ns >= r.t_sent_ns;
}

// [first reach of THRESHOLD, last fall below it] of the requests in flight, in ns; {0, 0} when
// the count never reached it. A request ending at the instant another starts does not overlap it.
std::pair<int64_t, int64_t> window_ns(const std::vector<RequestRow>& recs, int64_t threshold) {
  int64_t in_flight = 0;
  int64_t start = 0;
  int64_t end = 0;
  for (const auto& [t, d] : in_flight_steps(recs)) {
    const bool was_steady = in_flight >= threshold;
    in_flight += d;
    if (!was_steady && in_flight >= threshold && start == 0) start = t;
    if (was_steady && in_flight < threshold) end = t;
  }
  return {start, end};
}

// Per-interval series over [START, END] (ns): median TTFT and TPOT by send time, output tokens
// per second by completion time; an interval without a sent request has no TTFT or TPOT point.
struct IntervalSeries {
  std::vector<std::vector<double>> ttft, tpot;
  std::vector<double> output_tokens;
};

void add_trends(SteadyState& s, const IntervalSeries& in, double width_s) {
  std::vector<double> t_ttft, ttft, t_tpot, tpot, t_out, out;
  for (int i = 0; i < kSteadyIntervals; ++i) {
    const double mid = (i + 0.5) * width_s;
    if (!in.ttft[i].empty()) {
      t_ttft.push_back(mid);
      ttft.push_back(describe(in.ttft[i]).median);
    }
    if (!in.tpot[i].empty()) {
      t_tpot.push_back(mid);
      tpot.push_back(describe(in.tpot[i]).median);
    }
    t_out.push_back(mid);
    out.push_back(in.output_tokens[i] / width_s);
  }
  s.ttft_trend = mann_kendall(t_ttft, ttft);
  s.tpot_trend = mann_kendall(t_tpot, tpot);
  s.output_trend = mann_kendall(t_out, out);
}

}  // namespace

std::vector<std::pair<int64_t, int>> in_flight_steps(const std::vector<RequestRow>& rows) {
  std::vector<std::pair<int64_t, int>> steps;
  steps.reserve(rows.size() * 2);
  for (const RequestRow& r : rows) {
    if (r.warmup || r.t_sent_ns <= 0 || r.t_done_ns < r.t_sent_ns) continue;
    steps.emplace_back(r.t_sent_ns, +1);
    steps.emplace_back(r.t_done_ns, -1);
  }
  std::sort(steps.begin(), steps.end());  // -1 sorts before +1 at equal times
  return steps;
}

namespace {

// The phase's timed requests and its span (first send, last completion).
struct TimedRequests {
  std::vector<RequestRow> recs;
  int64_t t0 = 0;
  int64_t t_last = 0;
};

TimedRequests timed_requests(const std::vector<RequestRow>& rows) {
  TimedRequests out;
  for (const RequestRow& r : rows) {
    if (!timed(r)) continue;
    out.recs.push_back(r);
    out.t0 = out.t0 == 0 ? r.t_sent_ns : std::min(out.t0, r.t_sent_ns);
    out.t_last = std::max(out.t_last, r.t_done_ns);
  }
  return out;
}

// The figures of the window [start, end] (steady ns): TTFT and TPOT over the requests sent in
// it, throughput over the completions in it, drift over its intervals.
void fill_window(SteadyState& s, const TimedRequests& t, int64_t start, int64_t end) {
  s.phase_s = t.recs.empty() ? 0 : static_cast<double>(t.t_last - t.t0) / kNsPerS;
  if (start == 0 || end <= start) return;
  s.found = true;
  s.start_s = static_cast<double>(start - t.t0) / kNsPerS;
  s.end_s = static_cast<double>(end - t.t0) / kNsPerS;
  std::vector<double> ttft;
  std::vector<double> tpot;
  int64_t output_tokens = 0;
  IntervalSeries series{std::vector<std::vector<double>>(kSteadyIntervals),
                        std::vector<std::vector<double>>(kSteadyIntervals),
                        std::vector<double>(kSteadyIntervals, 0.0)};
  const double width_ns = static_cast<double>(end - start) / kSteadyIntervals;
  auto interval_of = [&](int64_t at) {
    return std::clamp(static_cast<int>(static_cast<double>(at - start) / width_ns), 0,
                      kSteadyIntervals - 1);
  };
  for (const RequestRow& m : t.recs) {
    const int64_t sent = m.t_sent_ns;
    const int64_t done = m.t_done_ns;
    if (sent >= start && sent <= end) {
      ++s.requests_started;
      const int at = interval_of(sent);
      if (m.ok && m.ttft_ms >= 0) {
        ttft.push_back(m.ttft_ms);
        series.ttft[at].push_back(m.ttft_ms);
      }
      if (m.ok && m.tpot_ms >= 0) {
        tpot.push_back(m.tpot_ms);
        series.tpot[at].push_back(m.tpot_ms);
      }
    }
    if (m.ok && done >= start && done <= end) {
      ++s.completions;
      const int64_t tokens = std::max<int64_t>(m.output_tokens, 0);
      output_tokens += tokens;
      series.output_tokens[interval_of(done)] += static_cast<double>(tokens);
    }
  }
  const double window_s = s.duration_s();
  s.request_throughput = static_cast<double>(s.completions) / window_s;
  s.output_throughput = static_cast<double>(output_tokens) / window_s;
  s.ttft_ms = describe(std::move(ttft));
  s.tpot_ms = describe(std::move(tpot));
  s.short_window = window_s < std::max(kShortFloorS, kShortShare * s.phase_s);
  add_trends(s, series, window_s / kSteadyIntervals);
}

}  // namespace

SteadyState steady_state(const std::vector<RequestRecord>& records, int64_t target_concurrency,
                         double fraction) {
  return steady_state_of(request_rows(records), target_concurrency, fraction);
}

SteadyState trimmed_state(const std::vector<RequestRecord>& records, const OpenLoopTrim& trim) {
  return trimmed_state_of(request_rows(records), trim);
}

SteadyState steady_state_of(const std::vector<RequestRow>& rows, int64_t target_concurrency,
                            double fraction) {
  SteadyState s;
  s.target = target_concurrency;
  s.fraction = fraction;
  // Less a hair, so that 0.9 x 10 (9.000000000000002 in binary) is 9, not 10.
  s.threshold = std::max<int64_t>(
      1,
      static_cast<int64_t>(std::ceil(fraction * static_cast<double>(target_concurrency) - 1e-9)));
  const TimedRequests t = timed_requests(rows);
  const auto [start, end] = window_ns(t.recs, s.threshold);
  fill_window(s, t, start, end);
  return s;
}

SteadyState trimmed_state_of(const std::vector<RequestRow>& rows, const OpenLoopTrim& trim) {
  SteadyState s;
  s.trim = trim;
  const TimedRequests t = timed_requests(rows);
  if (t.recs.empty()) return s;
  std::vector<int64_t> sends;
  for (const RequestRow& r : t.recs) sends.push_back(r.t_sent_ns);
  std::sort(sends.begin(), sends.end());
  const auto n = static_cast<int64_t>(sends.size());
  if (trim.warmup_requests + trim.cooldown_requests >= n) {
    s.phase_s = static_cast<double>(t.t_last - t.t0) / kNsPerS;
    return s;  // nothing left between them
  }
  const auto ns = [](double seconds) { return static_cast<int64_t>(seconds * kNsPerS); };
  const int64_t start =
      std::max(sends.front() + ns(trim.warmup_s), sends[static_cast<size_t>(trim.warmup_requests)]);
  const int64_t end = std::min(sends.back() - ns(trim.cooldown_s),
                               sends[static_cast<size_t>(n - 1 - trim.cooldown_requests)]);
  fill_window(s, t, start, end);
  return s;
}

nlohmann::json to_json(const SteadyState& s) {
  using nlohmann::json;
  auto finite = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  json j = {{"found", s.found}};
  if (s.trim) {
    // Open loop: the window is what the plan's warm-up and cool-down leave.
    j["rule"] = "trimmed";
    j["trim"] = {{"warmup_s", s.trim->warmup_s},
                 {"cooldown_s", s.trim->cooldown_s},
                 {"warmup_requests", s.trim->warmup_requests},
                 {"cooldown_requests", s.trim->cooldown_requests}};
  } else {
    j["rule"] = "in flight";
    j["target_concurrency"] = s.target;
    j["fraction"] = s.fraction;
    j["threshold"] = s.threshold;
  }
  if (!s.found) {
    j["why"] = s.trim ? "the warm-up and cool-down leave no window between them"
                      : "the requests in flight never reached the threshold";
    return j;
  }
  j["window_s"] = {s.start_s, s.end_s};
  j["duration"] = s.duration_s();
  j["phase_duration"] = s.phase_s;
  j["requests_started"] = s.requests_started;
  j["completions"] = s.completions;
  j["request_throughput"] = s.request_throughput;
  j["output_throughput"] = s.output_throughput;
  j["median_ttft_ms"] = finite(s.ttft_ms.median);
  j["p99_ttft_ms"] = finite(s.ttft_ms.p99);
  j["median_tpot_ms"] = finite(s.tpot_ms.median);
  j["p99_tpot_ms"] = finite(s.tpot_ms.p99);
  auto trend = [&](const TrendResult& t) {
    return json{{"verdict", to_string(t.trend)},
                {"intervals", t.n},
                {"change", finite(t.change)},
                {"p", finite(t.p)}};
  };
  j["drift"] = {{"ttft_ms", trend(s.ttft_trend)},
                {"tpot_ms", trend(s.tpot_trend)},
                {"output_throughput", trend(s.output_trend)}};
  j["short"] = s.short_window;
  if (s.short_window)
    j["warning"] =
        "the steady window is shorter than max(10 s, 10 % of the phase): its figures "
        "rest on few requests";
  return j;
}

}  // namespace lb::metrics
