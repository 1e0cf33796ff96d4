// LoadDriver against a vLLM look-alike on loopback: closed-loop concurrency, the open-loop
// schedule kept while the server is slow (queue delay visible under a cap), warm-ups excluded,
// HTTP errors recorded per request while the phase goes on, and a clean stop.
#include <QtTest>

#include <algorithm>
#include <limits>
#include <thread>
#include <vector>
#include "test_main.h"

#include "collecting_sink.h"
#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/load_driver.h"
#include "fake_vllm.h"
#include "timing_slack.h"

using namespace lb::run;
using lb::steady_now_ns;
using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;

namespace {

double median_of(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Extra room on upper timing bounds when instrumented (timing_slack.h).
using lb::test::slack_ms;
const auto slack_ns = static_cast<int64_t>(slack_ms * 1e6);

LoadPhase chat_phase(const LaneEndpoint& lane, int64_t count, int concurrency) {
  LoadPhase phase;
  phase.experiment = "throughput";
  phase.phase = "c" + std::to_string(concurrency);
  phase.lane = &lane;
  phase.url = lane.api_url("/chat/completions");
  phase.count = count;
  phase.concurrency = concurrency;
  phase.timeouts.first_byte_ms = 10'000;
  phase.request_at = [model = lane.model](int64_t n, bool warmup) {
    ChatRequestOptions o;
    o.model = model;
    o.max_tokens = 8;
    o.server = ServerKind::Vllm;
    PlannedRequest r;
    r.index = n;
    r.body = chat_request_body(
        (warmup ? "warm-up #" : "prompt #") + std::to_string(n) + " tell me something", o);
    return r;
  };
  return phase;
}

LaneEndpoint lane_for(const FakeVllm& server) {
  auto lane = endpoint_from_base_url("lane-a", server.base_url());
  lane.model = "test-org/test-model-8b";
  return lane;
}

}  // namespace

class TestLoadDriver : public QObject {
  Q_OBJECT
 private slots:
  void closedLoopMeasuresTheScriptedTiming() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 20'000, .itl_us = 2'000, .tokens = 8});
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    auto phase = chat_phase(lane, 12, 4);
    phase.warmups = 2;
    int recorded = 0;
    auto out = LoadDriver(client, sink, stop).run(phase, [&](const auto&) { ++recorded; });
    QCOMPARE(recorded, 14);
    QCOMPARE(sink.done.size(), size_t(0));  // the driver reports records to its handler only
    QCOMPARE(out.records.size(), size_t(12));
    QCOMPARE(out.errors, int64_t(0));
    QCOMPARE(out.max_in_flight, 4);
    QVERIFY(!out.interrupted);
    const auto served = server.server().served();
    std::vector<double> ttfts_ms, arrival_errors_ms;
    for (const auto& rec : out.records) {
      QVERIFY(!rec.warmup);
      const auto m = lb::metrics::compute_request_metrics(rec);
      QVERIFY(m.ok);
      QCOMPARE(m.output_tokens, int64_t(8));
      // Never below the server's scripted delay, whatever the machine does.
      QVERIFY2(m.ttft_ms >= 20.0, qPrintable(QString::number(m.ttft_ms)));
      ttfts_ms.push_back(m.ttft_ms);
      // Ground truth: the server's send of the first content chunk (piece 1). The bytes cannot
      // arrive before the server began writing them; the stamp after the write may come late
      // when the server thread is preempted, so the client may see them before that stamp.
      const auto it = std::find_if(served.begin(), served.end(), [&](const auto& s) {
        return rec.result.content.rfind(FakeVllm::echo_prefix(s.body), 0) == 0;
      });
      QVERIFY(it != served.end());
      QVERIFY(it->sent.size() >= 2);
      const int64_t arrival_ns = rec.result.events.front().arrival_ns;
      QVERIFY(it->sent[1].write_start_ns > 0);
      QVERIFY2(arrival_ns >= it->sent[1].write_start_ns,
               qPrintable(QString::number(arrival_ns - it->sent[1].write_start_ns)));
      arrival_errors_ms.push_back(static_cast<double>(arrival_ns - it->sent[1].sent_ns) / 1e6);
    }
    // The client adds nothing of its own: judged on the medians, which a preempted thread or two
    // on a loaded machine do not move (one request's figure is the machine's, not the client's).
    const double ttft_median_ms = median_of(ttfts_ms);
    const double arrival_error_median_ms = median_of(arrival_errors_ms);
    QVERIFY2(ttft_median_ms < 30.0 + slack_ms, qPrintable(QString::number(ttft_median_ms)));
    QVERIFY2(arrival_error_median_ms < 5.0 + slack_ms,
             qPrintable(QString::number(arrival_error_median_ms)));
    QVERIFY(!sink.progress.empty());
    QCOMPARE(sink.progress.back().done, int64_t(12));
    QCOMPARE(sink.progress.back().total, int64_t(12));
  }

  void aSpooledPhaseKeepsNoRecordAndSummarisesThemAll() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 5'000, .itl_us = 1'000, .tokens = 8});
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    auto phase = chat_phase(lane, 40, 4);
    phase.warmups = 3;
    lb::metrics::SloSpec slo;
    slo.ttft_ms = 60'000;
    phase.spool_slo = slo;
    std::vector<lb::metrics::RequestRecord> handed;  // what the run folder's writer is given
    auto out = LoadDriver(client, sink, stop).run(phase, [&](const lb::metrics::RequestRecord& r) {
      if (!r.warmup) handed.push_back(r);
    });
    QVERIFY(out.records.empty());  // nothing of the phase held beside the spool
    QVERIFY(out.spool != nullptr);
    QCOMPARE(out.spool->size(), int64_t(40));
    QCOMPARE(handed.size(), size_t(40));
    const lb::metrics::LaneSummary got = out.spool->summarize();
    const lb::metrics::LaneSummary want = lb::metrics::summarize(handed, slo);
    QCOMPARE(got.completed, int64_t(40));
    QCOMPARE(got.good_requests, int64_t(40));
    QCOMPARE(got.total_output_tokens, int64_t(40 * 8));
    QCOMPARE(got.itl_ms.count, want.itl_ms.count);
    QCOMPARE(got.itl_ms.p99, want.itl_ms.p99);
    QCOMPARE(got.ttft_ms.p50, want.ttft_ms.p50);
    QCOMPARE(got.max_concurrent_requests, want.max_concurrent_requests);
    QCOMPARE(out.first_send_ns, out.spool->first_send_ns());
    QVERIFY(out.first_send_ns > 0 && out.last_done_ns > out.first_send_ns);
  }

  void openLoopKeepsItsScheduleWhenTheServerIsSlow() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 200'000, .itl_us = 1'000, .tokens = 2});
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    auto phase = chat_phase(lane, 30, 0);
    phase.arrival = ArrivalOptions{100.0, 1.0, 11};
    const auto expected = arrival_offsets_ns(*phase.arrival, 30);
    const int64_t t0 = steady_now_ns();
    auto out = LoadDriver(client, sink, stop).run(phase, [](const auto&) {});
    QCOMPARE(out.records.size(), size_t(30));
    QVERIFY(out.max_in_flight > 10);  // slow answers did not hold back later sends
    std::vector<int64_t> sched;
    for (const auto& r : out.records) sched.push_back(r.t_sched_ns);
    std::sort(sched.begin(), sched.end());
    const int64_t start = sched.front() - expected.front();
    // The schedule starts at once: well within the first 200 ms answer, which is what a driver
    // that waited for answers would have to sit through.
    QVERIFY(start >= t0 && start - t0 < 100'000'000 + slack_ns);
    for (size_t i = 0; i < sched.size(); ++i) QCOMPARE(sched[i] - start, expected[i]);
    std::vector<double> queue_delays_ms;
    for (const auto& r : out.records) {
      const auto m = lb::metrics::compute_request_metrics(r);
      // Never held behind the 200 ms answers of earlier requests (each request's own delay, with
      // room below 200 ms for a loaded machine); on schedule as a rule (the median).
      QVERIFY2(m.queue_delay_ms < 100.0 + slack_ms, qPrintable(QString::number(m.queue_delay_ms)));
      queue_delays_ms.push_back(m.queue_delay_ms);
      QVERIFY(m.ttft_ms >= 200.0);
    }
    QVERIFY2(median_of(queue_delays_ms) < 30.0 + slack_ms,
             qPrintable(QString::number(median_of(queue_delays_ms))));
  }

  void openLoopUnderACapShowsQueueDelay() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 100'000, .itl_us = 1'000, .tokens = 1});
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    auto phase = chat_phase(lane, 8, 2);
    phase.arrival = ArrivalOptions{200.0, 1.0, 5};
    auto out = LoadDriver(client, sink, stop).run(phase, [](const auto&) {});
    QCOMPARE(out.records.size(), size_t(8));
    QCOMPARE(out.max_in_flight, 2);
    double max_queue_ms = 0;
    for (const auto& r : out.records) {
      const auto m = lb::metrics::compute_request_metrics(r);
      max_queue_ms = std::max(max_queue_ms, m.queue_delay_ms);
      QVERIFY(m.ttft_sched_ms >= m.ttft_ms + m.queue_delay_ms - 0.01);
    }
    // 8 requests through 2 slots of ~100 ms arrive within ~40 ms: the last waits ~300 ms.
    QVERIFY2(max_queue_ms > 200.0, qPrintable(QString::number(max_queue_ms)));
  }

  void httpErrorsAreRecordedAndThePhaseGoesOn() {
    FakeVllmOptions o{.ttft_us = 2'000, .itl_us = 500, .tokens = 3};
    o.status_for = [](uint64_t n) { return n % 5 == 0 ? 429 : n % 3 == 0 ? 500 : 200; };
    FakeVllm server(o);
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    auto out = LoadDriver(client, sink, stop).run(chat_phase(lane, 15, 2), [](const auto&) {});
    QCOMPARE(out.records.size(), size_t(15));
    int rate_limited = 0, server_errors = 0, ok = 0;
    for (const auto& r : out.records) {
      if (r.result.error == lb::net::ErrorKind::RateLimited) {
        ++rate_limited;
        QCOMPARE(r.result.http_status, 429);
        QCOMPARE(r.result.retry_after_s, 2.0);
      } else if (r.result.error == lb::net::ErrorKind::HttpStatus) {
        ++server_errors;
        QCOMPARE(r.result.http_status, 500);
      } else {
        QCOMPARE(r.result.error, lb::net::ErrorKind::None);
        ++ok;
      }
    }
    QCOMPARE(rate_limited, 3);   // 5, 10, 15
    QCOMPARE(server_errors, 4);  // 3, 6, 9, 12
    QCOMPARE(ok, 8);
    QCOMPARE(out.errors, int64_t(7));
  }

  void durationBoundsAClosedLoop() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 10'000, .itl_us = 1'000, .tokens = 2});
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    auto phase = chat_phase(lane, 0, 2);
    phase.duration_ns = 300'000'000;
    const int64_t t0 = steady_now_ns();
    auto out = LoadDriver(client, sink, stop).run(phase, [](const auto&) {});
    const double took_ms = static_cast<double>(steady_now_ns() - t0) / 1e6;
    // It stops at the bound: what is in flight then (10 ms answers) finishes, nothing new starts.
    // The upper bound has room for a loaded machine, far below an unbounded phase.
    QVERIFY2(took_ms >= 300 && took_ms < 1000 + slack_ms, qPrintable(QString::number(took_ms)));
    QVERIFY2(out.records.size() >= 4 && out.records.size() <= 60,
             qPrintable(QString::number(out.records.size())));
  }

  void stopCancelsWhatIsInFlight() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 5'000'000, .itl_us = 1'000, .tokens = 2});
    const auto lane = lane_for(server);
    lb::net::StreamClient client;
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      stop = true;
    });
    const int64_t t0 = steady_now_ns();
    auto out = LoadDriver(client, sink, stop).run(chat_phase(lane, 8, 4), [](const auto&) {});
    stopper.join();
    const double took_ms = static_cast<double>(steady_now_ns() - t0) / 1e6;
    // Well before the 5 s answers: the stop cancelled them (room for a loaded machine).
    QVERIFY2(took_ms < 2500 + slack_ms, qPrintable(QString::number(took_ms)));
    QVERIFY(out.interrupted);
    QCOMPARE(out.cancelled, int64_t(4));
    QCOMPARE(out.records.size(), size_t(0));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestLoadDriver)
#include "run_load_driver_test.moc"
