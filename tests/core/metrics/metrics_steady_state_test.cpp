// The steady-state window of a hand-built closed-loop run at concurrency 4 (times in s after a
// base): R0..R3 start at 0, 1, 2, 3 and take 10 s each; as each ends, R4..R7 take its place
// (at 10, 11, 12, 13) and take 10 s; nothing follows them. Four are in flight from t = 3 (the
// threshold, ceil(0.95 x 4)) until R4 ends at 20 with no request to replace it: the window is
// [3, 20]. R0..R3 answer their first token after 0.5 s, R4..R7 (sent into a full server) after
// 2 s.
#include <QtTest>

#include "test_main.h"

#include <cmath>

#include "core/metrics/steady_state.h"
#include "core/metrics/summary.h"

using namespace lb::metrics;

namespace {
constexpr int64_t kSteadyBaseNs = 9'000'000'000;
int64_t steady_at_s(double s) { return kSteadyBaseNs + static_cast<int64_t>(s * 1e9); }

RequestRecord steady_request(int64_t index, double sent, double done, double ttft_s) {
  RequestRecord r;
  r.lane_id = "fp8";
  r.experiment = "throughput";
  r.phase = "c4";
  r.index = index;
  r.t_sched_ns = steady_at_s(sent);
  r.result.t_sent_ns = steady_at_s(sent);
  r.result.t_done_ns = steady_at_s(done);
  for (double at : {sent + ttft_s, done}) {
    lb::net::EventArrival e;
    e.arrival_ns = steady_at_s(at);
    e.tokens = 5;
    e.content_bytes = 20;
    r.result.events.push_back(e);
  }
  r.result.usage.completion_tokens = 10;
  r.result.usage.prompt_tokens = 100;
  r.result.http_status = 200;
  return r;
}

std::vector<RequestRecord> closed_loop_run() {
  std::vector<RequestRecord> v;
  for (int i = 0; i < 4; ++i) v.push_back(steady_request(i, i, 10 + i, 0.5));
  for (int i = 0; i < 4; ++i) v.push_back(steady_request(4 + i, 10 + i, 20 + i, 2.0));
  RequestRecord warm = steady_request(99, 30, 90, 0.1);  // a warm-up counts nowhere
  warm.warmup = true;
  v.push_back(warm);
  return v;
}

bool steady_near(double a, double b) { return std::abs(a - b) < 1e-6 * std::max(1.0, std::abs(b)); }

}  // namespace

class MetricsSteadyStateTest : public QObject {
  Q_OBJECT
 private slots:
  void windowRunsFromFullToTheDrain() {
    const SteadyState s = steady_state(closed_loop_run(), 4);
    QVERIFY(s.found);
    QCOMPARE(s.threshold, int64_t(4));
    QVERIFY(steady_near(s.start_s, 3.0));
    QVERIFY(steady_near(s.end_s, 20.0));
    QVERIFY(steady_near(s.phase_s, 23.0));
    QCOMPARE(s.requests_started, int64_t(5));  // R3 (at 3) and R4..R7
    QCOMPARE(s.completions, int64_t(5));       // R0..R3 and R4 (at 20)
    QVERIFY(steady_near(s.request_throughput, 5.0 / 17.0));
    QVERIFY(steady_near(s.output_throughput, 50.0 / 17.0));
    QVERIFY(!s.short_window);  // 17 s >= max(10 s, 2.3 s)
  }

  // The ramp's quick answers leave the steady figures: TTFT is the loaded server's.
  void steadyFiguresDifferFromTheWholePhaseInTheExpectedDirection() {
    const auto records = closed_loop_run();
    const SteadyState s = steady_state(records, 4);
    const LaneSummary whole = summarize(records);
    QVERIFY(steady_near(s.ttft_ms.median, 2000.0));  // R3 500 ms, R4..R7 2000 ms
    QVERIFY(steady_near(whole.ttft_ms.median, 1250.0));
    QVERIFY(s.ttft_ms.median > whole.ttft_ms.median);
    // TPOT: (10 s - 0.5 s) / 9 for R3, (10 s - 2 s) / 9 for the others.
    QVERIFY(steady_near(s.tpot_ms.median, 8000.0 / 9.0));
  }

  void aThresholdNeverReachedIsSaid() {
    const SteadyState s = steady_state(closed_loop_run(), 8);
    QVERIFY(!s.found);
    QCOMPARE(s.threshold, int64_t(8));
    const nlohmann::json j = to_json(s);
    QCOMPARE(j["found"], false);
    QVERIFY(j.contains("why"));
    QVERIFY(!j.contains("window_s"));
  }

  void aShortWindowIsFlagged() {
    // Two at a time for only 2 s of a 12 s phase: R0 [0, 10] and R1 [8, 12].
    std::vector<RequestRecord> v = {steady_request(0, 0, 10, 0.5), steady_request(1, 8, 12, 0.5)};
    const SteadyState s = steady_state(v, 2);
    QVERIFY(s.found);
    QVERIFY(steady_near(s.duration_s(), 2.0));
    QVERIFY(s.short_window);
    const nlohmann::json j = to_json(s);
    QCOMPARE(j["short"], true);
    QVERIFY(j["warning"].get<std::string>().find("shorter than") != std::string::npos);
    QCOMPARE(j["window_s"], nlohmann::json({8.0, 10.0}));
  }

  // Two slots, each sending its next request as the last one ends; every answer takes 0.9 s
  // after its first token, and the first token comes later each time (0.1 s + 10 ms per
  // request): TTFT drifts up over the window, TPOT (0.9 s / 9 tokens) does not move.
  void driftIsJudgedOverTheWindowsIntervals() {
    std::vector<RequestRecord> v;
    for (int slot = 0; slot < 2; ++slot) {
      double at = slot * 0.5;
      for (int j = 0; j < 30; ++j) {
        const double ttft = 0.1 + 0.01 * (2 * j + slot);
        v.push_back(steady_request(2 * j + slot, at, at + ttft + 0.9, ttft));
        at += ttft + 0.9;
      }
    }
    const SteadyState s = steady_state(v, 2);
    QVERIFY(s.found);
    QCOMPARE(s.ttft_trend.trend, Trend::DriftingUp);
    QVERIFY(s.ttft_trend.n >= kTrendMinPoints);
    QCOMPARE(s.tpot_trend.trend, Trend::Plateau);
    const nlohmann::json j = to_json(s);
    QCOMPARE(j["drift"]["ttft_ms"]["verdict"], "drifting up");
    QCOMPARE(j["drift"]["tpot_ms"]["verdict"], "plateau");
    QVERIFY(j["drift"]["ttft_ms"]["change"].get<double>() > 0.05);
    // The hand-built run above has too few requests for ten intervals of TTFT.
    QCOMPARE(steady_state(closed_loop_run(), 4).ttft_trend.trend, Trend::TooFewPoints);
  }

  // Open loop: one request a second for 20 s, each 1 s long; the first five (a cold server) take
  // their first token after 3 s, the rest after 0.5 s. A warm-up of 5 s or of 5 requests leaves
  // them out, and a cool-down of 2 s or 2 requests the last two sends.
  void anOpenLoopPhaseIsTrimmedBySecondsOrRequests() {
    std::vector<RequestRecord> v;
    for (int i = 0; i < 20; ++i) v.push_back(steady_request(i, i, i + 4, i < 5 ? 3.0 : 0.5));
    OpenLoopTrim by_time;
    by_time.warmup_s = 5;
    by_time.cooldown_s = 2;
    const SteadyState t = trimmed_state(v, by_time);
    QVERIFY(t.found);
    QVERIFY(steady_near(t.start_s, 5));
    QVERIFY(steady_near(t.end_s, 17));
    QCOMPARE(t.requests_started, int64_t(13));  // sent at 5 .. 17
    QVERIFY(steady_near(t.ttft_ms.median, 500));
    const SteadyState whole = trimmed_state(v, OpenLoopTrim{});
    QVERIFY(whole.ttft_ms.p99 > 2900);  // the cold ones are in the untrimmed span
    OpenLoopTrim by_count;
    by_count.warmup_requests = 5;
    by_count.cooldown_requests = 2;
    const SteadyState c = trimmed_state(v, by_count);
    QVERIFY(steady_near(c.start_s, 5));
    QVERIFY(steady_near(c.end_s, 17));
    // Both given: the later start and the earlier end.
    by_count.warmup_s = 8;
    QVERIFY(steady_near(trimmed_state(v, by_count).start_s, 8));
    const auto j = to_json(t);
    QCOMPARE(j["rule"], "trimmed");
    QCOMPARE(j["trim"]["warmup_s"], 5.0);
    QVERIFY(!j.contains("threshold"));
    // Trimming everything leaves no window, and says so.
    OpenLoopTrim all;
    all.warmup_requests = 15;
    all.cooldown_requests = 5;
    const auto none = to_json(trimmed_state(v, all));
    QCOMPARE(none["found"], false);
    QVERIFY(none["why"].get<std::string>().find("warm-up and cool-down") != std::string::npos);
  }

  void theThresholdRoundsUpAndIsAtLeastOne() {
    QCOMPARE(steady_state({}, 0).threshold, int64_t(1));
    QCOMPARE(steady_state({}, 10).threshold, int64_t(10));  // ceil(9.5)
    QCOMPARE(steady_state({}, 20).threshold, int64_t(19));
    QCOMPARE(steady_state({}, 20, 0.5).threshold, int64_t(10));
    QCOMPARE(steady_state({}, 10, 0.9).threshold, int64_t(9));  // 9.000000000000002 in binary
    QCOMPARE(to_json(steady_state({}, 10, 0.9))["fraction"], 0.9);
    QVERIFY(!steady_state({}, 4).found);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(MetricsSteadyStateTest)
#include "metrics_steady_state_test.moc"
