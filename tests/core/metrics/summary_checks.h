#pragma once
// Shared by the summary tests: requests of random shapes and comparisons of summaries that are
// exact where the batch summary is exact.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/metrics/summary.h"

namespace lb::metrics::test {

inline bool close_to(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// Exact where the batch summary is exact (percentiles, min, max); close for mean and std.
inline bool same_distribution(const Distribution& live, const Distribution& batch) {
  const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  return live.count == batch.count && same(live.p50, batch.p50) && same(live.p90, batch.p90) &&
         same(live.p95, batch.p95) && same(live.p99, batch.p99) &&
         same(live.median, batch.median) && same(live.min, batch.min) &&
         same(live.max, batch.max) && close_to(live.mean, batch.mean) &&
         close_to(live.std, batch.std);
}

// A request of a random shape: some fail, some are warm-ups, some report no usage, some stream
// a single event (no TPOT), some carry per-event token counts.
inline RequestRecord random_request(std::mt19937_64& rng, int64_t index) {
  std::uniform_real_distribution<double> ms(1, 400);
  std::uniform_int_distribution<int> events(0, 40), coin(0, 9);
  RequestRecord r;
  r.lane_id = "fp8";
  r.experiment = "throughput";
  r.phase = index % 3 == 0 ? "c4" : "c8";
  r.index = index;
  r.warmup = coin(rng) == 0;
  const int64_t base_ns = 1'000'000'000 + index * 3'000'000;
  r.t_sched_ns = base_ns;
  r.result.t_sent_ns = base_ns + static_cast<int64_t>(ms(rng) * 1e3);
  int64_t at_ns = r.result.t_sent_ns + static_cast<int64_t>(ms(rng) * 1e6);
  const int n = events(rng);
  const bool counted = coin(rng) < 5;
  for (int e = 0; e < n; ++e) {
    lb::net::EventArrival event;
    event.arrival_ns = at_ns;
    event.tokens = counted ? 1 + coin(rng) % 3 : -1;
    event.content_bytes = 6;
    r.result.events.push_back(event);
    if (coin(rng) != 0) at_ns += static_cast<int64_t>(ms(rng) * 1e5);  // some share a stamp
  }
  r.result.t_done_ns = at_ns + 1'000'000;
  r.result.http_status = 200;
  if (coin(rng) < 7) {
    r.result.usage.prompt_tokens = 100 + index % 50;
    r.result.usage.completion_tokens = n;
  }
  if (coin(rng) == 0) {
    r.result.error = lb::net::ErrorKind::HttpStatus;
    r.result.http_status = 503;
  }
  return r;
}

inline void compare_summaries(const LaneSummary& live, const LaneSummary& batch) {
  QCOMPARE(live.lane_id, batch.lane_id);
  QCOMPARE(live.phase, batch.phase);
  QCOMPARE(live.completed, batch.completed);
  QCOMPARE(live.failed, batch.failed);
  QCOMPARE(live.warmups_excluded, batch.warmups_excluded);
  QCOMPARE(live.errors_by_kind, batch.errors_by_kind);
  QCOMPARE(live.duration_s, batch.duration_s);
  QCOMPARE(live.total_input_tokens, batch.total_input_tokens);
  QCOMPARE(live.total_output_tokens, batch.total_output_tokens);
  QCOMPARE(live.output_throughput, batch.output_throughput);
  QCOMPARE(live.good_requests, batch.good_requests);
  QCOMPARE(live.coalesced_events, batch.coalesced_events);
  QCOMPARE(live.coalesced_event_share, batch.coalesced_event_share);
  QCOMPARE(live.total_cached_tokens, batch.total_cached_tokens);
  QVERIFY(same_distribution(live.ttft_ms, batch.ttft_ms));
  QVERIFY(same_distribution(live.ttft_content_ms, batch.ttft_content_ms));
  QVERIFY(same_distribution(live.tpot_ms, batch.tpot_ms));
  QVERIFY(same_distribution(live.itl_ms, batch.itl_ms));
  QVERIFY(same_distribution(live.e2el_ms, batch.e2el_ms));
  QVERIFY(same_distribution(live.queue_delay_ms, batch.queue_delay_ms));
  QVERIFY(same_distribution(live.decode_tok_s, batch.decode_tok_s));
  QVERIFY(same_distribution(live.tokens_per_event, batch.tokens_per_event));
  QCOMPARE(live.provenance.at("output_tokens"), batch.provenance.at("output_tokens"));
}

}  // namespace lb::metrics::test
