// Bad input end to end: every failure gives a clear per-request error of the right kind, and the
// client keeps working (a good request right after succeeds).
#include <QtTest>

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include "test_main.h"

#include "core/net/stream_client.h"
#include "replay_server.h"

using namespace lb::net;
using namespace lb::test;

namespace {

const std::vector<std::string> kGood = {
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" "
    "world\"},\"finish_reason\":\"stop\"}]}\n\n",
    "data: [DONE]\n\n"};

HttpRequest request(const ReplayServer& server, const std::string& path) {
  HttpRequest r;
  r.url = server.url(path);
  r.body = std::make_shared<const std::string>(R"({"model":"m","stream":true})");
  r.timeouts.first_byte_ms = 5'000;
  r.timeouts.idle_ms = 5'000;
  return r;
}

double ms_between(int64_t a_ns, int64_t b_ns) { return (b_ns - a_ns) / 1e6; }

ResponseScript script_for(const ServedRequest& req) {
  const std::string& t = req.target;
  if (t == "/truncated") {
    ResponseScript s = sse_script({kGood[0], kGood[1], "data: {\"choices\":[{\"ind"}, 1000);
    s.ending = Ending::CloseMidStream;
    return s;
  }
  if (t == "/truncated-close-delimited") {
    ResponseScript s = sse_script({kGood[0], kGood[1], "data: {\"choices\":[{\"ind"}, 1000);
    s.framing = BodyFraming::CloseDelimited;
    return s;
  }
  if (t == "/json-200-error")
    return error_script(200, R"({"error":{"message":"engine is sleeping","type":"unavailable"}})");
  if (t == "/json-200-completion") {
    return error_script(
        200, R"({"choices":[{"index":0,"message":{"role":"assistant","content":"Hi"}}]})");
  }
  if (t == "/invalid-json")
    return sse_script({kGood[1], "data: {\"choices\": [}\n\n", kGood[3]}, 0);
  if (t == "/invalid-utf8") {
    return sse_script(
        {kGood[1], "data: {\"choices\":[{\"delta\":{\"content\":\"\xFF\xFE\"}}]}\n\n"}, 0);
  }
  if (t == "/endless") {  // max_tokens ignored: events keep coming, 1 KiB each
    const std::string event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" +
                              std::string(1000, 'x') + "\"}}]}\n\n";
    return sse_script(std::vector<std::string>(400, event), 0);
  }
  if (t == "/huge") return sse_script({kGood[1], huge_sse_event(10 << 20), kGood[3]}, 0);
  if (t == "/stall") {
    ResponseScript s = sse_script({kGood[0], kGood[1]}, 0);
    s.ending = Ending::Stall;
    return s;
  }
  if (t == "/never") {
    ResponseScript s;
    s.never_answer = true;
    return s;
  }
  if (t == "/headers-only") {
    ResponseScript s = sse_script({}, 0);
    s.ending = Ending::Stall;
    return s;
  }
  if (t == "/400") {
    return error_script(
        400,
        R"({"error":{"message":"This model's maximum context length is 8192 tokens.","type":"BadRequestError","param":null,"code":400}})");
  }
  if (t == "/429") {
    return error_script(429, R"({"error":"Model is overloaded","error_type":"overloaded"})",
                        {{"retry-after", "2"}, {"retry-after-ms", "1024"}});
  }
  if (t == "/503") {
    return error_script(
        503, R"({"error":{"code":503,"message":"Loading model","type":"unavailable_error"}})",
        {{"Retry-After", "3"}});
  }
  if (t == "/500-html")
    return error_script(500, "<html><body>Internal Server Error</body></html>",
                        {{"Content-Type", "text/html"}});
  if (t == "/slow") return sse_script(kGood, 100'000);
  return sse_script(kGood, 0);
}

}  // namespace

class TestClientErrors : public QObject {
  Q_OBJECT

  std::unique_ptr<ReplayServer> server_;
  std::unique_ptr<StreamClient> client_;

  // After every failure the same client must still complete a good request.
  void expectStillWorks() {
    const auto ok = client_->fetch(request(*server_, "/good"));
    QCOMPARE(ok.error, ErrorKind::None);
    QCOMPARE(ok.content, std::string("Hello world"));
  }

 private slots:
  void initTestCase() {
    server_ = std::make_unique<ReplayServer>(script_for);
    client_ = std::make_unique<StreamClient>();
  }
  void cleanupTestCase() {
    client_.reset();
    server_.reset();
  }
  void cleanup() { expectStillWorks(); }

  void closeMidStream() {
    const auto r = client_->fetch(request(*server_, "/truncated"));
    QCOMPARE(r.error, ErrorKind::Truncated);
    QVERIFY2(r.error_message.find("after 1 events") != std::string::npos, r.error_message.c_str());
    QCOMPARE(r.content, std::string("Hello"));  // what arrived is kept
    QCOMPARE(r.events.size(), size_t(1));
  }

  void closeMidEventWithoutFraming() {
    // No Content-Length, no chunking: the close is the end of the body, so only the cut event
    // can tell that the stream was truncated.
    const auto r = client_->fetch(request(*server_, "/truncated-close-delimited"));
    QCOMPARE(r.error, ErrorKind::Truncated);
    QVERIFY2(r.error_message.find("stream ended inside an event") == 0, r.error_message.c_str());
    QCOMPARE(r.content, std::string("Hello"));
  }

  void fetchFromTheIoThreadIsRefused() {
    std::promise<bool> threw;
    client_->submit(request(*server_, "/good"), [&](StreamResult&&) {
      try {
        client_->fetch(request(*server_, "/good"));
        threw.set_value(false);
      } catch (const std::logic_error&) {
        threw.set_value(true);
      }
    });
    QVERIFY(threw.get_future().get());
  }

  void jsonDocumentInsteadOfAStream() {
    auto r = client_->fetch(request(*server_, "/json-200-error"));
    QCOMPARE(r.error, ErrorKind::StreamError);
    QCOMPARE(r.error_message, std::string("engine is sleeping (unavailable)"));
    r = client_->fetch(request(*server_, "/json-200-completion"));
    QCOMPARE(r.error, ErrorKind::Malformed);
    QVERIFY2(r.error_message.find("expected an event stream") == 0, r.error_message.c_str());
  }

  void nonStreamedRequest() {
    auto req = request(*server_, "/json-200-completion");
    req.stream = false;
    const auto r = client_->fetch(req);
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("Hi"));
    QCOMPARE(r.events.size(), size_t(1));
    QVERIFY(r.events[0].arrival_ns >= r.t_first_byte_ns && r.events[0].arrival_ns <= r.t_done_ns);
  }

  void invalidJson() {
    const auto r = client_->fetch(request(*server_, "/invalid-json"));
    QCOMPARE(r.error, ErrorKind::Malformed);
    QVERIFY2(r.error_message.find("invalid JSON in event 2") == 0, r.error_message.c_str());
  }

  void invalidUtf8() {
    const auto r = client_->fetch(request(*server_, "/invalid-utf8"));
    QCOMPARE(r.error, ErrorKind::Malformed);
    QVERIFY2(r.error_message.find("invalid UTF-8") == 0, r.error_message.c_str());
    QCOMPARE(r.content, std::string("Hello"));
  }

  void tenMegabyteEvent() {
    const auto r = client_->fetch(request(*server_, "/huge"));
    QCOMPARE(r.error, ErrorKind::TooLarge);
    QVERIFY2(r.error_message.find("larger than the limit of 8388608 bytes") != std::string::npos,
             r.error_message.c_str());
    // A client configured for bigger events takes it.
    ClientOptions big;
    big.max_event_bytes = 16 << 20;
    StreamClient roomy(big);
    const auto ok = roomy.fetch(request(*server_, "/huge"));
    QCOMPARE(ok.error, ErrorKind::None);
    QCOMPARE(ok.content.size(), size_t(5 + (10 << 20)));
  }

  // Security: a server that never stops streaming took a run to 4.2 GB in 45 s. A stream is cut
  // at the request's byte limit with an error that says so; what arrived before is kept.
  void endlessStreamIsCutAtTheByteLimit() {
    auto req = request(*server_, "/endless");
    req.max_stream_bytes = 64 * 1024;
    const auto r = client_->fetch(req);
    QCOMPARE(r.error, ErrorKind::TooLarge);
    QVERIFY2(r.error_message.find("streamed response longer than the limit of 65536 bytes") == 0,
             r.error_message.c_str());
    QVERIFY(!r.events.empty());
    QVERIFY(r.content.size() < 64 * 1024);
    req.max_stream_bytes = 0;  // no limit: all 400 events
    QCOMPARE(client_->fetch(req).events.size(), size_t(400));
  }

  void stallPastIdleTimeout() {
    auto req = request(*server_, "/stall");
    req.timeouts.idle_ms = 200;
    const auto r = client_->fetch(req);
    QCOMPARE(r.error, ErrorKind::IdleTimeout);
    QVERIFY(r.error_message.find("200 ms") != std::string::npos);
    QCOMPARE(r.content, std::string("Hello"));
    const double waited = ms_between(r.events.back().arrival_ns, r.t_done_ns);
    QVERIFY2(waited >= 200 && waited < 400, qPrintable(QString::number(waited)));
  }

  void neverAnswers() {
    auto req = request(*server_, "/never");
    req.timeouts.first_byte_ms = 250;
    const auto r = client_->fetch(req);
    QCOMPARE(r.error, ErrorKind::FirstByteTimeout);
    const double waited = ms_between(r.t_submit_ns, r.t_done_ns);
    QVERIFY2(waited >= 250 && waited < 450, qPrintable(QString::number(waited)));
    // Headers but no body byte is still "no first byte" (prefill can take minutes after the
    // server has sent its headers).
    req = request(*server_, "/headers-only");
    req.timeouts.first_byte_ms = 250;
    req.timeouts.idle_ms = 50;
    QCOMPARE(client_->fetch(req).error, ErrorKind::FirstByteTimeout);
  }

  // A completion that throws on its result is called again with a failed record that carries
  // the exception's text: the request is counted as failed, never lost, and nobody waits forever.
  void throwingCompletionGivesAFailedRecord() {
    std::promise<StreamResult> second;
    int calls = 0;
    client_->submit(request(*server_, "/good"), [&](StreamResult&& r) {
      if (++calls == 1) {
        QCOMPARE(r.content, std::string("Hello world"));
        throw std::runtime_error("summary of the response failed");
      }
      second.set_value(std::move(r));
    });
    auto future = second.get_future();
    QVERIFY2(future.wait_for(std::chrono::seconds(10)) == std::future_status::ready,
             "the request vanished");
    const StreamResult r = future.get();
    QCOMPARE(calls, 2);
    QCOMPARE(r.error, ErrorKind::ClientError);
    QCOMPARE(std::string(to_string(r.error)), std::string("client_error"));
    QVERIFY2(r.error_message.find("summary of the response failed") != std::string::npos,
             r.error_message.c_str());
    QCOMPARE(r.http_status, 200);
    QVERIFY(r.t_done_ns >= r.t_sent_ns && r.t_sent_ns > 0);
    QCOMPARE(client_->lost_completions(), size_t(0));
    // A completion that throws on the failed record too is counted; the I/O thread goes on.
    std::atomic<int> always_calls{0};
    client_->submit(request(*server_, "/good"), [&](StreamResult&&) {
      ++always_calls;
      throw std::runtime_error("always");
    });
    for (int i = 0; i < 500 && client_->lost_completions() == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    QCOMPARE(client_->lost_completions(), size_t(1));
    QCOMPARE(always_calls.load(), 2);
    QCOMPARE(client_->in_flight(), size_t(0));
  }

  void totalTimeout() {
    auto req = request(*server_, "/slow");
    req.timeouts.total_ms = 150;
    const auto r = client_->fetch(req);
    QCOMPARE(r.error, ErrorKind::TotalTimeout);
    QVERIFY(r.error_message.find("150 ms") != std::string::npos);
  }

  void httpErrorsBeforeTheStream() {
    auto r = client_->fetch(request(*server_, "/400"));
    QCOMPARE(r.error, ErrorKind::HttpStatus);
    QCOMPARE(r.http_status, 400);
    QCOMPARE(
        r.error_message,
        std::string(
            "HTTP 400: This model's maximum context length is 8192 tokens. (BadRequestError)"));
    QCOMPARE(r.retry_after_s, -1.0);

    r = client_->fetch(request(*server_, "/429"));
    QCOMPARE(r.error, ErrorKind::RateLimited);
    QCOMPARE(r.retry_after_s, 1.024);
    QCOMPARE(r.error_message, std::string("HTTP 429: Model is overloaded (overloaded)"));

    r = client_->fetch(request(*server_, "/503"));
    QCOMPARE(r.error, ErrorKind::HttpStatus);
    QCOMPARE(r.retry_after_s, 3.0);
    QVERIFY(r.error_message.find("Loading model") != std::string::npos);

    r = client_->fetch(request(*server_, "/500-html"));
    QCOMPARE(r.error, ErrorKind::HttpStatus);
    QCOMPARE(r.error_message,
             std::string("HTTP 500: <html><body>Internal Server Error</body></html>"));
  }

  void cancelMidStream() {
    std::promise<StreamResult> done;
    auto future = done.get_future();
    std::atomic<int> events{0};
    const uint64_t id = client_->submit(
        request(*server_, "/slow"), [&](StreamResult&& r) { done.set_value(std::move(r)); },
        [&](uint64_t, const EventArrival&) { ++events; });
    QTRY_VERIFY_WITH_TIMEOUT(events.load() >= 1, 2000);
    client_->cancel(id);
    QCOMPARE(future.wait_for(std::chrono::seconds(2)), std::future_status::ready);
    const auto r = future.get();
    QCOMPARE(r.error, ErrorKind::Cancelled);
    QCOMPARE(r.id, id);
  }

  void connectRefused() {
    std::string url;
    {
      ReplayServer gone(script_for);
      url = gone.url("/x");
    }
    HttpRequest req = request(*server_, "/x");
    req.url = url;
    const auto r = client_->fetch(req);
    QCOMPARE(r.error, ErrorKind::Connect);
    QVERIFY(!r.error_message.empty());
  }

  void destructorCompletesInFlightAsCancelled() {
    std::atomic<int> cancelled{0};
    {
      StreamClient local;
      for (int i = 0; i < 5; ++i) {
        local.submit(request(*server_, "/never"), [&](StreamResult&& r) {
          if (r.error == ErrorKind::Cancelled) ++cancelled;
        });
      }
    }
    QCOMPARE(cancelled.load(), 5);
  }

  // A run's Stop: a blocking fetch() on a silent server (a probe, a /metrics snapshot) returns
  // as soon as the stop flag is set, not at its 30 s timeout, and what is submitted after the stop
  // completes at once, also as Cancelled. The client that is never stopped is not affected.
  void stopFlagCancelsBlockingFetchAndLaterSubmits() {
    std::atomic<bool> stop{false};
    ClientOptions options;
    options.cancel_when = &stop;
    StreamClient local(options);
    QCOMPARE(local.fetch(request(*server_, "/good")).error, ErrorKind::None);
    auto silent = request(*server_, "/never");
    silent.timeouts.first_byte_ms = 30'000;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      stop.store(true);
    });
    const auto r = local.fetch(silent);
    stopper.join();
    QCOMPARE(r.error, ErrorKind::Cancelled);
    const double waited = ms_between(r.t_submit_ns, r.t_done_ns);
    QVERIFY2(waited >= 150 && waited < 1000, qPrintable(QString::number(waited)));
    const auto after = local.fetch(request(*server_, "/good"));
    QCOMPARE(after.error, ErrorKind::Cancelled);
    QCOMPARE(after.error_message, std::string("stopped"));
    QCOMPARE(local.in_flight(), size_t{0});
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestClientErrors)
#include "net_client_errors_test.moc"
