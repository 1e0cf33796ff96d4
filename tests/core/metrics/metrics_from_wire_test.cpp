// Metrics computed from a real vLLM stream (reasoning parser, MTP multi-token chunks, continuous
// usage) fed through the stream parser with controlled arrival stamps: event k of the body
// arrives at t_sent + 100 ms + 10 ms * k. The first event is role-only and must not count.
#include <QtTest>

#include "test_main.h"

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/net/stream_parser.h"
#include "fixture_text.h"

using namespace lb::metrics;

namespace {
constexpr int64_t kSentNs = 9'000'000'000;
constexpr int64_t kMs = 1'000'000;

RequestRecord record_from_fixture(const std::string& name) {
  RequestRecord rec;
  rec.lane_id = "vllm";
  rec.t_sched_ns = kSentNs - 5 * kMs;
  rec.result.t_sent_ns = kSentNs;
  const std::string body = read_wire_fixture(name);
  lb::net::StreamParser parser(lb::net::Dialect::OpenAiChat, 1 << 20, rec.result);
  // Comment lines first (no events), then one "data:" event per stamp.
  size_t pos = body.find("data:");
  parser.feed(std::string_view(body).substr(0, pos), kSentNs);
  int64_t k = 0;
  while (pos < body.size()) {
    size_t end = body.find("\n\n", pos);
    end = end == std::string::npos ? body.size() : end + 2;
    parser.feed(std::string_view(body).substr(pos, end - pos), kSentNs + 100 * kMs + k * 10 * kMs);
    pos = end;
    ++k;
  }
  rec.result.t_done_ns = kSentNs + 100 * kMs + k * 10 * kMs;
  parser.finish(rec.result.t_done_ns);
  return rec;
}
}  // namespace

class MetricsFromWireTest : public QObject {
  Q_OBJECT
 private slots:
  void vllmReasoningMtpStream() {
    const RequestRecord rec = record_from_fixture("vllm_chat_stream.sse");
    QCOMPARE(rec.result.error, lb::net::ErrorKind::None);
    QCOMPARE(rec.result.events.size(), size_t(7));  // 4 reasoning + 3 content, role-only excluded
    const RequestMetrics m = compute_request_metrics(rec);
    QVERIFY(m.ok);
    QCOMPARE(m.ttft_ms, 110.0);  // the role-only chunk at 100 ms is not the first token
    QCOMPARE(m.ttft_sched_ms, 115.0);
    QCOMPARE(m.queue_delay_ms, 5.0);
    QCOMPARE(m.e2el_ms, 170.0);  // the usage-only chunk at 180 ms carries no text
    QCOMPARE(m.output_tokens, int64_t(19));
    QCOMPARE(m.output_tokens_provenance, Provenance::Server);
    QCOMPARE(m.tpot_ms, 60.0 / 18.0);  // 19 tokens, not 7 events
    QCOMPARE(m.decode_tok_s, 300.0);
    QCOMPARE(m.prompt_tokens, int64_t(42));
    QCOMPARE(m.cached_tokens, int64_t(32));
    QCOMPARE(m.itl_ms, std::vector<double>(6, 10.0));
    QCOMPARE(m.tokens_per_event, (std::vector<int32_t>{1, 4, 3, 4, 2, 3, 2}));
  }
  // A reasoning stream: TTFT is the first reasoning token, TTFT content the first answer token.
  void reasoningStreamHasTimeToFirstContent() {
    const RequestRecord rec = record_from_fixture("vllm_chat_stream.sse");
    const RequestMetrics m = compute_request_metrics(rec);
    QCOMPARE(m.ttft_ms, 110.0);          // 4 reasoning events first, at 110..140 ms
    QCOMPARE(m.ttft_content_ms, 150.0);  // the first content event
    const LaneSummary s = summarize({rec});
    QCOMPARE(s.ttft_content_ms.median, 150.0);
    QCOMPARE(to_json(s)["median_ttft_content_ms"].get<double>(), 150.0);
  }

  // A stream that only calls a tool still has a first token and an end: its fragments are output.
  void toolCallOnlyStreamHasTtftAndE2el() {
    const RequestRecord rec = record_from_fixture("vllm_chat_stream_tool_calls.sse");
    QCOMPARE(rec.result.error, lb::net::ErrorKind::None);
    QVERIFY(rec.result.content.empty());
    QCOMPARE(rec.result.tool_calls.size(), size_t(1));
    QVERIFY(!rec.result.events.empty());
    const RequestMetrics m = compute_request_metrics(rec);
    QVERIFY(m.ok);
    QVERIFY2(m.ttft_ms > 100.0, qPrintable(QString::number(m.ttft_ms)));
    QVERIFY(m.e2el_ms >= m.ttft_ms);
    QCOMPARE(m.ttft_content_ms, -1.0);  // no answer text at all
    const LaneSummary s = summarize({rec});
    QCOMPARE(s.ttft_ms.count, size_t(1));
    QCOMPARE(s.e2el_ms.count, size_t(1));
    QVERIFY(to_json(s)["median_ttft_content_ms"].is_null());
  }

  // Events that came in one read share a stamp: their 0 ms gaps are counted and flagged.
  void coalescedEventsAreCounted() {
    RequestRecord rec = record_from_fixture("vllm_chat_stream.sse");
    QCOMPARE(compute_request_metrics(rec).coalesced_events, int64_t(0));
    auto& ev = rec.result.events;  // 7 events; the 3rd and 4th now arrive with the 2nd
    ev[2].arrival_ns = ev[1].arrival_ns;
    ev[3].arrival_ns = ev[1].arrival_ns;
    const RequestMetrics m = compute_request_metrics(rec);
    QCOMPARE(m.coalesced_events, int64_t(2));
    QCOMPARE(m.itl_ms[1], 0.0);
    const LaneSummary s = summarize({rec});
    QCOMPARE(s.coalesced_events, int64_t(2));
    QCOMPARE(s.coalesced_event_share, 2.0 / 6.0);
    const auto j = to_json(s);
    QCOMPARE(j["coalesced_events"].get<int64_t>(), int64_t(2));
    QCOMPARE(to_json(rec, m)["coalesced_events"].get<int64_t>(), int64_t(2));
  }

  void summaryCountsTokensNotChunks() {
    const LaneSummary s = summarize({record_from_fixture("vllm_chat_stream.sse")});
    QCOMPARE(s.total_output_tokens, int64_t(19));
    QCOMPARE(s.max_output_tokens_per_s, 19.0);  // 7 chunks, 19 tokens, all within one second
    QCOMPARE(s.tokens_per_event.max, 4.0);
    QCOMPARE(s.provenance.at("max_output_tokens_per_s"), Provenance::Measured);
    // From the request's own usage: 32 of 42 prompt tokens cached; MTP 6 drafts of 18 draft
    // tokens with 12 accepted.
    QCOMPARE(s.total_cached_tokens, int64_t(32));
    QCOMPARE(s.prefix_cache_hit_rate, 32.0 / 42.0);
    QCOMPARE(s.spec_num_drafts, int64_t(6));
    QCOMPARE(s.spec_acceptance_rate, 12.0 / 18.0);
    QCOMPARE(s.spec_acceptance_length, 3.0);
    QCOMPARE(s.provenance.at("spec_acceptance"), Provenance::Server);
    QCOMPARE(s.e2el_sched_ms.median, 175.0);
  }
  void streamErrorIsAFailedRequest() {
    const LaneSummary s = summarize({record_from_fixture("vllm_stream_error.sse")});
    QCOMPARE(s.completed, int64_t(0));
    QCOMPARE(s.failed, int64_t(1));
    QCOMPARE(s.errors_by_kind.at("stream_error"), int64_t(1));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(MetricsFromWireTest)
#include "metrics_from_wire_test.moc"
