// The engine's own client (lb::net::StreamClient) parses the simulator's output for every
// endpoint, and its per-event arrival stamps agree with the simulator's ground-truth trace.
#include <QtTest>

#include "test_main.h"

#include <mutex>

#include "core/net/stream_client.h"
#include "sim_test_support.h"
#include "tests/support/timing_slack.h"

using namespace lb::sim;
using namespace lb::sim::test;
using lb::net::Dialect;
using lb::net::ErrorKind;
using lb::net::HttpRequest;
using lb::net::StreamResult;
using nlohmann::json;

namespace {

// Extra room on upper timing bounds when instrumented (timing_slack.h).
const auto slack_ns = static_cast<int64_t>(::lb::test::timing_slack_ms() * 1e6);

HttpRequest make_request(const std::string& base, const std::string& path, Dialect dialect,
                         const std::string& body, bool stream = true) {
  HttpRequest r;
  r.url = base + path;
  r.method = body.empty() ? "GET" : "POST";
  if (!body.empty()) {
    r.body = std::make_shared<const std::string>(body);
    r.headers.emplace_back("Content-Type", "application/json");
  }
  r.dialect = dialect;
  r.stream = stream;
  return r;
}

int64_t event_tokens(const StreamResult& r) {
  int64_t n = 0;
  for (const auto& e : r.events) n += e.tokens;
  return n;
}

}  // namespace

class SimStreamClientTest : public QObject {
  Q_OBJECT
  std::unique_ptr<Server> server_;
  std::string base_;  // http://127.0.0.1:PORT (no /v1)
  std::mutex trace_mutex_;
  std::vector<TraceRecord> trace_;
  lb::net::StreamClient client_;

 private slots:
  void initTestCase() {
    server_ = start_server("fp8-mtp3?time_scale=0.02&stall_ms=20000", [this](SimConfig& c) {
      c.trace_sink = [this](const TraceRecord& r) {
        std::lock_guard<std::mutex> lock(trace_mutex_);
        trace_.push_back(r);
      };
    });
    QVERIFY(server_);
    base_ = "http://127.0.0.1:" + std::to_string(server_->port());
  }

  void chat_stream_parses_with_usage_and_spec_metrics() {
    auto req = make_request(
        base_, "/v1/chat/completions", Dialect::OpenAiChat,
        chat_body(
            "Describe a lane.",
            {{"stream", true},
             {"max_tokens", 50},
             {"reasoning_effort", "low"},
             {"stream_options", {{"include_usage", true}, {"continuous_usage_stats", true}}}}));
    req.headers.emplace_back("x-request-id", "client-1");
    const StreamResult r = client_.fetch(req);
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.http_status, 200);
    QCOMPARE(r.usage.completion_tokens, int64_t(50));
    QVERIFY(r.usage.reasoning_tokens > 0);
    QVERIFY(!r.reasoning.empty() && !r.content.empty());
    QCOMPARE(r.finish_reason, std::string("length"));
    QCOMPARE(event_tokens(r), int64_t(50));  // per-event usage deltas, several tokens per MTP event
    QVERIFY(r.spec.num_drafts > 0);
    QCOMPARE(r.usage.cached_tokens, int64_t(0));
    // Arrival stamps vs the trace: same clock, one event each.
    std::vector<TraceRecord> sent;
    // The server records an event right after its send returns, which can be after the client
    // already read it: wait for the last record.
    QTRY_VERIFY_WITH_TIMEOUT(trace_has(trace_mutex_, trace_, "client-1", "done"), 2000);
    {
      std::lock_guard<std::mutex> lock(trace_mutex_);
      for (const auto& t : trace_) {
        if (t.request_id == "client-1" && t.kind == "token") sent.push_back(t);
      }
    }
    QCOMPARE(sent.size(), r.events.size());
    for (size_t i = 0; i < sent.size(); ++i) {
      QCOMPARE(int64_t(r.events[i].tokens), int64_t(sent[i].tokens));
      // The event cannot arrive before the model scheduled it; the after-send stamp can come
      // late when the server thread is preempted, so it only bounds the lag from above.
      QVERIFY2(r.events[i].arrival_ns >= sent[i].sched_ns,
               qPrintable(QString::number(sent[i].sched_ns - r.events[i].arrival_ns)));
      const int64_t lag_ns = r.events[i].arrival_ns - sent[i].sent_ns;
      QVERIFY2(lag_ns < 20'000'000 + slack_ns, qPrintable(QString::number(lag_ns)));
    }
  }

  void completions_and_non_streamed_agree() {
    const json req = {{"prompt", "Once upon a time"},
                      {"max_tokens", 20},
                      {"stream", true},
                      {"stream_options", {{"include_usage", true}}}};
    const StreamResult s = client_.fetch(
        make_request(base_, "/v1/completions", Dialect::OpenAiCompletions, req.dump()));
    QCOMPARE(s.error, ErrorKind::None);
    QCOMPARE(s.usage.completion_tokens, int64_t(20));
    json whole = req;
    whole["stream"] = false;
    const StreamResult w = client_.fetch(
        make_request(base_, "/v1/completions", Dialect::OpenAiCompletions, whole.dump(), false));
    QCOMPARE(w.error, ErrorKind::None);
    QCOMPARE(w.content, s.content);
    QCOMPARE(w.usage.completion_tokens, int64_t(20));
  }

  void responses_stream_parses() {
    const json req = {{"input", "Say hello."}, {"stream", true}, {"max_output_tokens", 25}};
    const StreamResult r =
        client_.fetch(make_request(base_, "/v1/responses", Dialect::OpenAiResponses, req.dump()));
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.usage.completion_tokens, int64_t(25));
    QVERIFY(!r.content.empty());
    QVERIFY(!r.events.empty());
  }

  void tool_calls_assemble() {
    const json tool = {
        {"type", "function"},
        {"function",
         {{"name", "lookup"},
          {"parameters",
           {{"type", "object"}, {"properties", {{"query", {{"type", "string"}}}}}}}}}};
    const StreamResult r = client_.fetch(
        make_request(base_, "/v1/chat/completions", Dialect::OpenAiChat,
                     chat_body("Find Lovelace.", {{"stream", true}, {"tools", {tool}}})));
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.tool_calls.size(), size_t(1));
    QCOMPARE(r.tool_calls[0].name, std::string("lookup"));
    QCOMPARE(json::parse(r.tool_calls[0].arguments)["query"].get<std::string>(),
             std::string("Lovelace"));
    QCOMPARE(r.finish_reason, std::string("tool_calls"));
  }

  void plain_endpoints_fetch() {
    const StreamResult models =
        client_.fetch(make_request(base_, "/v1/models", Dialect::PlainJson, "", false));
    QCOMPARE(models.http_status, 200);
    QCOMPARE(json::parse(models.body)["data"][0]["max_model_len"].get<int64_t>(), int64_t(262'144));
    const StreamResult metrics =
        client_.fetch(make_request(base_, "/metrics", Dialect::PlainText, "", false));
    QVERIFY(metrics.body.find("vllm:spec_decode_num_drafts_total") != std::string::npos);
    const StreamResult tok = client_.fetch(
        make_request(base_, "/tokenize", Dialect::PlainJson, R"({"prompt":"Hello world"})", false));
    QCOMPARE(json::parse(tok.body)["count"].get<int>(), 4);
    QCOMPARE(
        client_.fetch(make_request(base_, "/health", Dialect::PlainText, "", false)).http_status,
        200);
    QCOMPARE(
        client_.fetch(make_request(base_, "/version", Dialect::PlainJson, "", false)).http_status,
        200);
  }

  void faults_map_to_client_errors() {
    const std::string body = chat_body("fault", {{"stream", true}, {"max_tokens", 12}});
    auto with_fault = [&](const char* fault) {
      auto req = make_request(base_, "/v1/chat/completions", Dialect::OpenAiChat, body);
      req.headers.emplace_back("x-sim-fault", fault);
      req.timeouts.idle_ms = 150;
      return client_.fetch(req);
    };
    const StreamResult limited = with_fault("429");
    QCOMPARE(limited.error, ErrorKind::RateLimited);
    QCOMPARE(limited.retry_after_s, 1.0);
    QCOMPARE(with_fault("500").error, ErrorKind::HttpStatus);
    QCOMPARE(with_fault("midstream_error").error, ErrorKind::StreamError);
    QCOMPARE(with_fault("drop").error, ErrorKind::Truncated);
    QCOMPARE(with_fault("malformed").error, ErrorKind::Malformed);
    QCOMPARE(with_fault("stall").error, ErrorKind::IdleTimeout);
    const auto bad = client_.fetch(make_request(base_, "/v1/chat/completions", Dialect::OpenAiChat,
                                                chat_body("x", {{"model", "nope"}})));
    QCOMPARE(bad.http_status, 404);
    QVERIFY(bad.error_message.find("does not exist") != std::string::npos);
  }

  void cleanupTestCase() { server_.reset(); }
};

LANEBENCH_TEST_GUILESS_MAIN(SimStreamClientTest)
#include "sim_stream_client_test.moc"
