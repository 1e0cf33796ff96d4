// Aggregates over a small hand-built run; every expected number is worked out in the comments.
// Times in ms after a base. R0 [sent 0, done 150], R1 [10, 370], R2 [600, 710] complete;
// R3 [50, 80] fails; a warm-up at 5000 must not count anywhere.
#include <QtTest>

#include "test_main.h"

#include <cmath>

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"

using namespace lb::metrics;
using lb::net::EventArrival;

namespace {
constexpr int64_t kSummaryBaseNs = 7'000'000'000;
int64_t summary_at_ms(double ms) { return kSummaryBaseNs + static_cast<int64_t>(ms * 1e6); }

RequestRecord make(double sched, double sent, double done, std::vector<double> event_ms,
                   std::vector<int32_t> tokens, int64_t usage_tokens) {
  RequestRecord r;
  r.lane_id = "fp8";
  r.experiment = "throughput";
  r.phase = "c4";
  r.t_sched_ns = summary_at_ms(sched);
  r.result.t_sent_ns = summary_at_ms(sent);
  r.result.t_done_ns = summary_at_ms(done);
  for (size_t i = 0; i < event_ms.size(); ++i) {
    EventArrival e;
    e.arrival_ns = summary_at_ms(event_ms[i]);
    e.tokens = tokens[i];
    e.content_bytes = 8;
    r.result.events.push_back(e);
  }
  r.result.usage.completion_tokens = usage_tokens;
  r.result.usage.prompt_tokens = 100;
  r.result.http_status = 200;
  return r;
}

std::vector<RequestRecord> run() {
  std::vector<RequestRecord> v;
  v.push_back(make(0, 0, 150, {100, 120, 140}, {1, 1, 1}, 3));
  v.push_back(make(0, 10, 370, {210, 260, 310, 360}, {1, 2, 2, 1}, 6));
  v.push_back(make(500, 600, 710, {700}, {1}, 1));
  RequestRecord failed = make(50, 50, 80, {}, {}, -1);
  failed.result.error = lb::net::ErrorKind::HttpStatus;
  failed.result.http_status = 503;
  v.push_back(failed);
  RequestRecord warm = make(5000, 5000, 6000, {5100, 5200}, {50, 50}, 100);
  warm.warmup = true;
  warm.phase = "warmup-phase-name-that-must-not-leak";
  v.push_back(warm);
  return v;
}

bool summary_near(double a, double b) {
  return std::abs(a - b) < 1e-9 * std::max(1.0, std::abs(b));
}
}  // namespace

class SummaryTest : public QObject {
  Q_OBJECT
 private slots:
  void countsAndThroughput() {
    const LaneSummary s = summarize(run());
    QCOMPARE(s.lane_id, std::string("fp8"));
    QCOMPARE(s.phase, std::string("c4"));
    QCOMPARE(s.completed, int64_t(3));
    QCOMPARE(s.failed, int64_t(1));
    QCOMPARE(s.warmups_excluded, int64_t(1));
    QCOMPARE(s.errors_by_kind.at("http_status"), int64_t(1));
    QVERIFY(summary_near(s.duration_s, 0.710));  // first send 0 to last completion 710
    QCOMPARE(s.total_input_tokens, int64_t(300));
    QCOMPARE(s.total_output_tokens, int64_t(10));
    QVERIFY(summary_near(s.request_throughput, 3 / 0.710));
    QVERIFY(summary_near(s.output_throughput, 10 / 0.710));
    QVERIFY(summary_near(s.total_token_throughput, 310 / 0.710));
    QCOMPARE(s.request_goodput, -1.0);  // no SLO set
  }
  void latencyDistributions() {
    const LaneSummary s = summarize(run());
    // TTFT [100, 200, 100]
    QCOMPARE(s.ttft_ms.count, size_t(3));
    QVERIFY(summary_near(s.ttft_ms.mean, 400.0 / 3));
    QVERIFY(summary_near(s.ttft_ms.median, 100));
    QVERIFY(summary_near(s.ttft_ms.std, std::sqrt(20000.0 / 9)));
    QVERIFY(summary_near(s.ttft_ms.p99, 198));  // index 1.98 between 100 and 200
    // E2EL [140, 350, 100]; TPOT [20, 30] (R2 has one token)
    QVERIFY(summary_near(s.e2el_ms.median, 140));
    QCOMPARE(s.tpot_ms.count, size_t(2));
    QVERIFY(summary_near(s.tpot_ms.mean, 25));
    // ITL [20, 20, 50, 50, 50]
    QCOMPARE(s.itl_ms.count, size_t(5));
    QVERIFY(summary_near(s.itl_ms.mean, 38));
    QVERIFY(summary_near(s.itl_ms.median, 50));
    QVERIFY(summary_near(s.itl_ms.p50, 50));
    // Queue delay [0, 10, 100]; TTFT from schedule [100, 210, 200]
    QVERIFY(summary_near(s.queue_delay_ms.mean, 110.0 / 3));
    QVERIFY(summary_near(s.queue_delay_ms.max, 100));
    QVERIFY(summary_near(s.ttft_sched_ms.median, 200));
    // Decode rate [50, 33.33] tok/s
    QVERIFY(summary_near(s.decode_tok_s.median, (50 + 1000.0 / 30) / 2));
    // Tokens per event [1,1,1, 1,2,2,1, 1]
    QCOMPARE(s.tokens_per_event.count, size_t(8));
    QVERIFY(summary_near(s.tokens_per_event.mean, 1.25));
    QVERIFY(summary_near(s.tokens_per_event.max, 2));
  }
  void peakCountsTokensNotEvents() {
    const LaneSummary s = summarize(run());
    QCOMPARE(s.max_output_tokens_per_s, 10.0);        // 8 events carried 10 tokens in window 0
    QCOMPARE(s.max_concurrent_requests, int64_t(3));  // at 50 ms: R0, R1 and the failed R3
  }
  void peakWindowsAndSpreadEstimate() {
    std::vector<RequestRecord> v;
    v.push_back(make(0, 0, 1500, {500, 1200, 1400}, {5, 3, 4}, 12));
    // Unknown per-event counts: 10 tokens spread over 2 events, both in window 1.
    v.push_back(make(0, 100, 1600, {1100, 1300}, {-1, -1}, 10));
    const LaneSummary s = summarize(v);
    QCOMPARE(s.max_output_tokens_per_s, 17.0);  // window 1: 3 + 4 + 5 + 5
    QCOMPARE(s.provenance.at("max_output_tokens_per_s"), Provenance::Estimated);
  }
  void cacheHitRateFromUsage() {
    std::vector<RequestRecord> v = run();
    v[0].result.usage.cached_tokens = 80;  // of 100 prompt tokens
    v[1].result.usage.cached_tokens = 0;   // of 100
    v[2].result.usage.prompt_tokens = -1;  // no server prompt count: left out of the ratio
    v[2].result.usage.cached_tokens = 50;
    const LaneSummary s = summarize(v);
    QCOMPARE(s.total_cached_tokens, int64_t(80));
    QCOMPARE(s.prefix_cache_hit_rate, 0.4);
    QCOMPARE(s.provenance.at("prefix_cache_hit_rate"), Provenance::Server);
  }
  void touchingIntervalsDoNotOverlap() {
    std::vector<RequestRecord> v;
    v.push_back(make(0, 0, 100, {50}, {1}, 1));
    v.push_back(make(0, 100, 200, {150}, {1}, 1));
    QCOMPARE(summarize(v).max_concurrent_requests, int64_t(1));
  }
  void goodput() {
    SloSpec slo;
    slo.ttft_ms = 150;  // R0 (100) and R2 (100) pass, R1 (200) fails
    LaneSummary s = summarize(run(), slo);
    QCOMPARE(s.good_requests, int64_t(2));
    QVERIFY(summary_near(s.request_goodput, 2 / 0.710));
    slo.tpot_ms = 15;  // R0's TPOT 20 fails; R2 has one token, so TPOT does not apply
    s = summarize(run(), slo);
    QCOMPARE(s.good_requests, int64_t(1));
    slo = {};
    slo.e2el_ms = 145;  // 140 and 100 pass
    QCOMPARE(summarize(run(), slo).good_requests, int64_t(2));
  }
  void summaryJsonUsesVllmKeys() {
    SloSpec slo;
    slo.ttft_ms = 150;
    const nlohmann::json j = to_json(summarize(run(), slo));
    QCOMPARE(j.at("completed").get<int64_t>(), int64_t(3));
    QVERIFY(summary_near(j.at("duration").get<double>(), 0.71));
    QCOMPARE(j.at("total_output_tokens").get<int64_t>(), int64_t(10));
    QVERIFY(summary_near(j.at("p99_ttft_ms").get<double>(), 198));
    QVERIFY(summary_near(j.at("median_ttft_ms").get<double>(), 100));
    QVERIFY(summary_near(j.at("mean_itl_ms").get<double>(), 38));
    QVERIFY(summary_near(j.at("mean_tpot_ms").get<double>(), 25));
    QVERIFY(j.contains("std_e2el_ms") && j.contains("p90_e2el_ms") && j.contains("p95_itl_ms"));
    QVERIFY(summary_near(j.at("request_goodput").get<double>(), 2 / 0.71));
    QCOMPARE(j.at("max_concurrent_requests").get<int64_t>(), int64_t(3));
    QCOMPARE(j.at("max_output_tokens_per_s").get<double>(), 10.0);
    QVERIFY(summary_near(j.at("mean_queue_delay_ms").get<double>(), 110.0 / 3));
    QCOMPARE(j.at("provenance").at("output_tokens").get<std::string>(), std::string("server"));
    QCOMPARE(j.at("provenance").at("ttft").get<std::string>(), std::string("measured"));
    QCOMPARE(j.at("errors").at("http_status").get<int64_t>(), int64_t(1));
    QVERIFY(j.at("prefix_cache_hit_rate").is_null());  // no request reported cached tokens
    QVERIFY(j.at("spec_acceptance_rate").is_null());
    QVERIFY(summary_near(j.at("median_e2el_sched_ms").get<double>(), 200));  // [140, 360, 200]
    QVERIFY(j.dump().find("warmup-phase-name") == std::string::npos);
  }
  void emptyDistributionIsNull() {
    std::vector<RequestRecord> v;
    v.push_back(make(0, 0, 100, {50}, {-1}, 1));
    const nlohmann::json j = to_json(summarize(v));
    QVERIFY(j.at("mean_tokens_per_event").is_null());
    QVERIFY(j.at("mean_tpot_ms").is_null());
    QVERIFY(j.at("request_goodput").is_null());
    QVERIFY(j.dump().find("NaN") == std::string::npos);
  }
  void requestLineCarriesTimingsNotTexts() {
    RequestRecord r = make(0, 10, 370, {210, 260, 310, 360}, {1, 2, 2, 1}, 6);
    r.index = 7;
    r.result.content = "generated-text-goes-to-texts-file";
    r.result.finish_reason = "length";
    r.result.usage.cached_tokens = 64;
    const nlohmann::json j = to_json(r, compute_request_metrics(r));
    QCOMPARE(j.at("lane").get<std::string>(), std::string("fp8"));
    QCOMPARE(j.at("index").get<int64_t>(), int64_t(7));
    QCOMPARE(j.at("event_offsets_ns"),
             nlohmann::json({200'000'000, 250'000'000, 300'000'000, 350'000'000}));
    QCOMPARE(j.at("event_tokens"), nlohmann::json({1, 2, 2, 1}));
    QVERIFY(summary_near(j.at("ttft_ms").get<double>(), 200));
    QVERIFY(summary_near(j.at("tpot_ms").get<double>(), 30));
    QCOMPARE(j.at("output_tokens_provenance").get<std::string>(), std::string("server"));
    QCOMPARE(j.at("cached_tokens").get<int64_t>(), int64_t(64));
    QCOMPARE(j.at("finish_reason").get<std::string>(), std::string("length"));
    QVERIFY(j.at("error").is_null());
    QVERIFY(j.dump().find("generated-text") == std::string::npos);
    QVERIFY(!j.contains("prompt") && !j.contains("content"));
  }
  void requestLineError() {
    RequestRecord r = make(0, 10, 30, {}, {}, -1);
    r.result.error = lb::net::ErrorKind::RateLimited;
    r.result.http_status = 429;
    r.result.error_message = "Too Many Requests";
    r.result.retry_after_s = 2;
    const nlohmann::json j = to_json(r, compute_request_metrics(r));
    QCOMPARE(j.at("ok").get<bool>(), false);
    QCOMPARE(j.at("error").at("kind").get<std::string>(), std::string("rate_limited"));
    QCOMPARE(j.at("error").at("retry_after_s").get<double>(), 2.0);
    QCOMPARE(j.at("http_status").get<int>(), 429);
    QVERIFY(j.at("ttft_ms").is_null());
  }
  void longErrorBodiesAreCappedOnACharacterBoundary() {
    RequestRecord r = make(0, 10, 30, {}, {}, -1);
    r.result.error = lb::net::ErrorKind::HttpStatus;
    r.result.error_message = std::string(1999, 'x') + "\xC3\xA9" + std::string(100000, 'y');
    const nlohmann::json j = to_json(r, compute_request_metrics(r));
    const std::string message = j.at("error").at("message").get<std::string>();
    QVERIFY(message.size() < 2100);
    QVERIFY(message.rfind(std::string(1999, 'x') + "... (", 0) == 0);  // "é" not split
    QVERIFY(message.find("102001 bytes") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SummaryTest)
#include "metrics_summary_test.moc"
