// Injected faults behave as specified, whether asked per request (x-sim-fault) or by lane option.
#include <QtTest>

#include "test_main.h"

#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

const std::string kStreamBody =
    chat_body("Tell me about serving.", {{"stream", true}, {"max_tokens", 12}});

HttpResult faulted(uint16_t port, const std::string& fault) {
  return http_request(port, "POST", "/v1/chat/completions", kStreamBody, {{"x-sim-fault", fault}});
}

int token_chunks(const HttpResult& r) {
  int n = 0;
  for (const auto& j : data_objects(r.body)) {
    if (j.contains("choices") && !j["choices"].empty() &&
        j["choices"][0]["delta"].contains("content") &&
        !j["choices"][0]["delta"]["content"].get<std::string>().empty()) {
      ++n;
    }
  }
  return n;
}

}  // namespace

class SimServerFaultsTest : public QObject {
  Q_OBJECT
  std::unique_ptr<Server> server_;

 private slots:
  void initTestCase() {
    // 30,000 model ms of stall and 20,000 ms of slow first byte are 300 ms / 200 ms here.
    server_ = start_server(
        "fp8?time_scale=0.01&stall_ms=30000&slow_first_byte_ms=20000&fault_after_events=3");
    QVERIFY(server_);
  }

  void rate_limit_has_retry_after() {
    const auto r = faulted(server_->port(), "429");
    QCOMPARE(r.status, 429);
    QCOMPARE(r.headers.at("retry-after"), std::string("1"));
    QCOMPARE(r.headers.at("retry-after-ms"), std::string("1000"));
    QCOMPARE(json::parse(r.body)["error"]["code"].get<int>(), 429);
  }

  void server_error_before_stream() {
    const auto r = faulted(server_->port(), "500");
    QCOMPARE(r.status, 500);
    QCOMPARE(json::parse(r.body)["error"]["type"].get<std::string>(),
             std::string("InternalServerError"));
    QVERIFY(r.headers.at("content-type").find("application/json") == 0);
  }

  void midstream_error_then_done() {
    const auto r = faulted(server_->port(), "midstream_error");
    QCOMPARE(r.status, 200);
    QVERIFY(r.complete);
    const std::string fixture = read_fixture("vllm_stream_error.sse");
    const std::string error_line =
        R"(data: {"error": {"message": "Internal server error", "type": "InternalServerError", "param": null, "code": 500}})";
    QVERIFY(fixture.find(error_line) != std::string::npos);
    const size_t at = r.body.find(error_line + "\n\ndata: [DONE]\n\n");
    QVERIFY2(at != std::string::npos, r.body.c_str());
    QCOMPARE(at + error_line.size() + 16, r.body.size());  // nothing after [DONE]
    QCOMPARE(token_chunks(r), 3);
  }

  void drop_closes_mid_stream() {
    const auto r = faulted(server_->port(), "drop");
    QCOMPARE(r.status, 200);
    QVERIFY(!r.complete);
    QVERIFY(!r.error.empty());
    QCOMPARE(token_chunks(r), 3);
    QVERIFY(r.body.find("[DONE]") == std::string::npos);
  }

  void stall_holds_then_closes() {
    const auto r = faulted(server_->port(), "stall");
    const int64_t end_ns = now_ns();
    QCOMPARE(r.status, 200);
    QVERIFY(!r.complete);
    QCOMPARE(token_chunks(r), 3);
    const double silent_ms = static_cast<double>(end_ns - r.chunks.back().first) / 1e6;
    QVERIFY2(silent_ms >= 250 && silent_ms < 2000, qPrintable(QString::number(silent_ms)));
  }

  void malformed_chunk_then_stream_goes_on() {
    const auto r = faulted(server_->port(), "malformed");
    QCOMPARE(r.status, 200);
    QVERIFY(r.complete);
    int bad = 0;
    for (const auto& d : sse_data(r.body)) {
      if (d != "[DONE]" && json::parse(d, nullptr, false).is_discarded()) ++bad;
    }
    QCOMPARE(bad, 1);
    QVERIFY(r.body.find("data: [DONE]") != std::string::npos);
    QCOMPARE(token_chunks(r), 12);
  }

  void slow_first_byte_delays_everything() {
    const auto plain = http_request(server_->port(), "POST", "/v1/chat/completions", kStreamBody);
    const auto slow = faulted(server_->port(), "slow_first_byte");
    QVERIFY(slow.complete);
    const double plain_ms = static_cast<double>(plain.chunks.front().first - plain.sent_ns) / 1e6;
    const double slow_ms = static_cast<double>(slow.chunks.front().first - slow.sent_ns) / 1e6;
    QVERIFY2(slow_ms - plain_ms > 180, qPrintable(QString("%1 vs %2").arg(slow_ms).arg(plain_ms)));
  }

  void lane_options_fault_a_fraction() {
    auto errors = start_server("fp8?time_scale=0.01&error_rate=0.5");
    int fives = 0;
    for (int i = 0; i < 20; ++i) {
      const auto r = http_request(errors->port(), "POST", "/v1/chat/completions",
                                  chat_body("x", {{"max_tokens", 2}}));
      if (r.status == 500)
        ++fives;
      else
        QCOMPARE(r.status, 200);
    }
    QVERIFY2(fives >= 4 && fives <= 16, qPrintable(QString::number(fives)));
    auto limited = start_server("bf16?time_scale=0.01&fault=429");
    QCOMPARE(http_request(limited->port(), "POST", "/v1/completions", R"({"prompt":"hi"})").status,
             429);
    // A header of "none" overrides the lane's fault.
    QCOMPARE(http_request(limited->port(), "POST", "/v1/completions",
                          R"({"prompt":"hi","max_tokens":2})", {{"x-sim-fault", "none"}})
                 .status,
             200);
  }

  void client_gone_frees_the_engine() {
    auto one_seq = start_server("fp8?time_scale=0.01&max_num_seqs=1");
    {
      HttpConnection c(one_seq->port());
      // A stalled stream, then the client leaves: the sequence must not hold the only slot.
      c.request("POST", "/v1/chat/completions", kStreamBody, {{"x-sim-fault", "drop"}});
    }
    const auto r = http_request(one_seq->port(), "POST", "/v1/chat/completions",
                                chat_body("after", {{"max_tokens", 3}}));
    QCOMPARE(r.status, 200);
    const std::string m = http_request(one_seq->port(), "GET", "/metrics").body;
    QCOMPARE(metric_value(m,
                          "vllm:request_success_total{model_name=\"Qwen/"
                          "Qwen3.8-27B-FP8\",engine=\"0\",finished_reason=\"abort\"}"),
             1.0);
  }

  void cleanupTestCase() { server_.reset(); }
};

LANEBENCH_TEST_GUILESS_MAIN(SimServerFaultsTest)
#include "sim_server_faults_test.moc"
