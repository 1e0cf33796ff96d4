// Per-request metrics against hand-built records whose expected values are worked out in the
// comments (times in ms after a base so no stamp is 0).
#include <QtTest>

#include "test_main.h"

#include <nlohmann/json.hpp>

#include "core/metrics/inter_token_gaps.h"
#include "core/metrics/request_metrics.h"

using namespace lb::metrics;
using lb::net::EventArrival;

namespace {
constexpr int64_t kBaseNs = 5'000'000'000;
int64_t at_ms(double ms) { return kBaseNs + static_cast<int64_t>(ms * 1e6); }

EventArrival arrival(double ms, int32_t tokens, uint32_t content_bytes = 4,
                     uint32_t reasoning_bytes = 0) {
  EventArrival e;
  e.arrival_ns = at_ms(ms);
  e.tokens = tokens;
  e.content_bytes = content_bytes;
  e.reasoning_bytes = reasoning_bytes;
  return e;
}

// Scheduled at 0, sent at 2, events at 52 / 72 / 102 carrying 1 / 3 / 2 tokens.
RequestRecord mtp_record() {
  RequestRecord r;
  r.t_sched_ns = at_ms(0);
  r.result.t_sent_ns = at_ms(2);
  r.result.t_done_ns = at_ms(105);
  r.result.events = {arrival(52, 1), arrival(72, 3), arrival(102, 2)};
  r.result.usage.completion_tokens = 6;
  r.result.usage.prompt_tokens = 1000;
  r.result.usage.cached_tokens = 512;
  return r;
}
}  // namespace

class RequestMetricsTest : public QObject {
  Q_OBJECT
 private slots:
  void timingsFromUsage() {
    const RequestMetrics m = compute_request_metrics(mtp_record());
    QVERIFY(m.ok);
    QCOMPARE(m.ttft_ms, 50.0);
    QCOMPARE(m.ttft_sched_ms, 52.0);
    QCOMPARE(m.queue_delay_ms, 2.0);
    QCOMPARE(m.e2el_ms, 100.0);
    QCOMPARE(m.e2el_sched_ms, 102.0);
    QCOMPARE(m.output_tokens, int64_t(6));
    QCOMPARE(m.output_tokens_provenance, Provenance::Server);
    QCOMPARE(m.tpot_ms, 10.0);  // (100 - 50) / (6 - 1): tokens, not the 3 events
    QCOMPARE(m.decode_tok_s, 100.0);
    QCOMPARE(m.prefill_tok_s, 20000.0);  // 1000 tokens / 0.050 s
    QCOMPARE(m.prompt_tokens, int64_t(1000));
    QCOMPARE(m.prompt_tokens_provenance, Provenance::Server);
    QCOMPARE(m.cached_tokens, int64_t(512));
    QCOMPARE(m.itl_ms, (std::vector<double>{20.0, 30.0}));
    QCOMPARE(m.tokens_per_event, (std::vector<int32_t>{1, 3, 2}));
  }
  void tokensFromEventsWhenNoUsage() {
    RequestRecord r = mtp_record();
    r.result.usage = {};
    r.result.events = {arrival(52, 2), arrival(72, 2), arrival(102, 2)};
    const RequestMetrics m = compute_request_metrics(r);
    QCOMPARE(m.output_tokens, int64_t(6));
    QCOMPARE(m.output_tokens_provenance, Provenance::Server);
    QCOMPARE(m.prompt_tokens, int64_t(-1));
    QCOMPARE(m.prefill_tok_s, -1.0);
  }
  void estimatedFromBytesWhenAnyEventUnknown() {
    RequestRecord r = mtp_record();
    r.result.usage = {};
    r.expected_prompt_tokens = 900;
    // 40 + 10 content bytes and 30 reasoning bytes = 80 bytes = 20 tokens at 4 bytes/token.
    r.result.events = {arrival(52, 1, 40), arrival(72, -1, 10), arrival(102, 1, 0, 30)};
    const RequestMetrics m = compute_request_metrics(r);
    QCOMPARE(m.output_tokens, int64_t(20));
    QCOMPARE(m.output_tokens_provenance, Provenance::Estimated);
    QCOMPARE(m.tpot_ms, 50.0 / 19.0);
    QVERIFY(m.tokens_per_event.empty());  // not every event's count is known
    QCOMPARE(m.prompt_tokens, int64_t(900));
    QCOMPARE(m.prompt_tokens_provenance, Provenance::Estimated);
  }
  void singleTokenHasNoTpot() {
    RequestRecord r = mtp_record();
    r.result.events = {arrival(52, 1)};
    r.result.usage.completion_tokens = 1;
    const RequestMetrics m = compute_request_metrics(r);
    QCOMPARE(m.ttft_ms, 50.0);
    QCOMPARE(m.e2el_ms, 50.0);
    QCOMPARE(m.tpot_ms, -1.0);
    QCOMPARE(m.decode_tok_s, -1.0);
    QVERIFY(m.itl_ms.empty());
  }
  void errorIsNotOk() {
    RequestRecord r = mtp_record();
    r.result.error = lb::net::ErrorKind::Truncated;
    const RequestMetrics m = compute_request_metrics(r);
    QVERIFY(!m.ok);
    QCOMPARE(m.ttft_ms, 50.0);  // what was measured stays visible
  }
  void neverSentHasNoTimings() {
    RequestRecord r;
    r.t_sched_ns = at_ms(0);
    r.result.error = lb::net::ErrorKind::Connect;
    const RequestMetrics m = compute_request_metrics(r);
    QVERIFY(!m.ok);
    QCOMPARE(m.ttft_ms, -1.0);
    QCOMPARE(m.queue_delay_ms, -1.0);
    QCOMPARE(m.output_tokens, int64_t(-1));
  }
  void byteEstimateRounding() {
    QCOMPARE(estimate_tokens_from_bytes(0), int64_t(0));
    QCOMPARE(estimate_tokens_from_bytes(1), int64_t(1));
    QCOMPARE(estimate_tokens_from_bytes(6), int64_t(2));
    QCOMPARE(estimate_tokens_from_bytes(9), int64_t(2));
    QCOMPARE(estimate_tokens_from_bytes(4000), int64_t(1000));
  }

  // ITL has one definition for measured, stored and exported requests (inter_token_gaps.h):
  // the gaps between consecutive events, and a damaged stored entry gives no gap on either side.
  void interTokenGapsFromStampsAndStoredOffsets() {
    const std::vector<int64_t> stamps{1'000'000, 3'500'000, 3'500'000, 10'000'000};
    const std::vector<double> from_stamps = lb::metrics::itl_ms_from_stamps(stamps);
    QCOMPARE(from_stamps, (std::vector<double>{2.5, 0.0, 6.5}));
    const auto offsets = nlohmann::json::array({1000000, 3500000, 3500000, 10000000});
    QCOMPARE(lb::metrics::itl_ms_from_offsets(offsets), from_stamps);
    const auto damaged = nlohmann::json::array({0, 2000000, "x", 9000000, 10000000});
    QCOMPARE(lb::metrics::itl_ms_from_offsets(damaged), (std::vector<double>{2.0, 1.0}));
    QVERIFY(lb::metrics::itl_ms_from_offsets(nlohmann::json("not an array")).empty());
    QVERIFY(lb::metrics::itl_ms_from_stamps({}).empty());
    // The request's own series uses the same gaps, and counts the 0 ms one as coalesced.
    lb::metrics::RequestRecord rec;
    rec.result.t_sent_ns = 0;
    rec.result.t_done_ns = 10'000'000;
    for (int64_t t : stamps) {
      lb::net::EventArrival e;
      e.arrival_ns = t;
      e.tokens = 1;
      rec.result.events.push_back(e);
    }
    const lb::metrics::RequestMetrics m = lb::metrics::compute_request_metrics(rec);
    QCOMPARE(m.itl_ms, from_stamps);
    QCOMPARE(m.coalesced_events, int64_t{1});
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RequestMetricsTest)
#include "metrics_request_test.moc"
