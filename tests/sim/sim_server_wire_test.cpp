// The simulator speaks vLLM's wire format: keys and key order of tests/fixtures/wire/vllm_*,
// vLLM's error answers, /metrics that agree with the traffic, and trace lines that match the
// events a client received.
#include <QtTest>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include "test_main.h"

#include <mutex>

#include "sim/tokenizer.h"
#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

class SimServerWireTest : public QObject {
  Q_OBJECT
  std::unique_ptr<Server> mtp_;
  std::mutex trace_mutex_;
  std::vector<TraceRecord> trace_;

 private slots:
  void initTestCase() {
    mtp_ = start_server("fp8-mtp3?time_scale=0.01", [this](SimConfig& c) {
      c.trace_sink = [this](const TraceRecord& r) {
        std::lock_guard<std::mutex> lock(trace_mutex_);
        trace_.push_back(r);
      };
    });
    QVERIFY(mtp_ && mtp_->port() > 0);
  }

  void chat_stream_matches_fixture_keys() {
    const auto fixture = data_objects(read_fixture("vllm_chat_stream.sse"));
    const auto r = http_request(
        mtp_->port(), "POST", "/v1/chat/completions",
        chat_body(
            "Why is the sky blue?",
            {{"stream", true},
             {"max_tokens", 40},
             {"reasoning_effort", "low"},
             {"stream_options", {{"include_usage", true}, {"continuous_usage_stats", true}}}}));
    QCOMPARE(r.status, 200);
    QVERIFY(r.complete);
    QCOMPARE(r.headers.at("content-type"), std::string("text/event-stream; charset=utf-8"));
    QCOMPARE(r.headers.at("transfer-encoding"), std::string("chunked"));
    const auto ours = data_objects(r.body);
    QVERIFY(ours.size() >= 4);
    QVERIFY(r.body.size() >= 14 && r.body.substr(r.body.size() - 14) == "data: [DONE]\n\n");
    // Role chunk, a reasoning chunk, the finishing chunk and the usage chunk, key for key.
    QCOMPARE(keys(ours.front()), keys(fixture.front()));
    QCOMPARE(keys(ours.front()["choices"][0]), keys(fixture.front()["choices"][0]));
    QCOMPARE(keys(ours[1]), keys(fixture[1]));
    QCOMPARE(keys(ours[1]["choices"][0]), keys(fixture[1]["choices"][0]));
    QVERIFY(ours[1]["choices"][0]["delta"].contains("reasoning"));
    const auto& last_token = ours[ours.size() - 2];
    QCOMPARE(keys(last_token["choices"][0]), keys(fixture[fixture.size() - 2]["choices"][0]));
    QCOMPARE(keys(ours.back()), keys(fixture.back()));
    QCOMPARE(keys(ours.back()["usage"]), keys(fixture.back()["usage"]));
    QCOMPARE(keys(ours.back()["metrics"]["speculative_decoding"]),
             keys(fixture.back()["metrics"]["speculative_decoding"]));
    // Usage counts tokens, not events: MTP chunks carry several.
    int64_t prev = 0, max_step = 0;
    for (size_t i = 1; i + 1 < ours.size(); ++i) {
      const int64_t c = ours[i]["usage"]["completion_tokens"];
      max_step = std::max(max_step, c - prev);
      prev = c;
    }
    QCOMPARE(prev, int64_t(40));
    QVERIFY(max_step >= 2);
    QCOMPARE(ours.back()["usage"]["completion_tokens"].get<int64_t>(), int64_t(40));
    QVERIFY(ours.back()["usage"]["completion_tokens_details"]["reasoning_tokens"].get<int>() > 0);
  }

  void completions_stream_matches_fixture_keys() {
    const auto fixture = data_objects(read_fixture("vllm_completions_stream.sse"));
    const json req = {
        {"prompt", "The capital of France is"},
        {"max_tokens", 5},
        {"stream", true},
        {"stream_options", {{"include_usage", true}, {"continuous_usage_stats", true}}}};
    const auto r = http_request(mtp_->port(), "POST", "/v1/completions", req.dump());
    QCOMPARE(r.status, 200);
    const auto ours = data_objects(r.body);
    QVERIFY(ours.size() >= 2);
    QCOMPARE(keys(ours.front()), keys(fixture.front()));
    QCOMPARE(keys(ours.front()["choices"][0]), keys(fixture.front()["choices"][0]));
    QCOMPARE(keys(ours.back()), keys(fixture.back()));
    QCOMPARE(keys(ours.back()["usage"]), keys(fixture.back()["usage"]));
    QCOMPARE(ours.back()["usage"]["prompt_tokens"].get<int64_t>(),
             SimTokenizer::count("The capital of France is"));
    QCOMPARE(ours[ours.size() - 2]["choices"][0]["finish_reason"].get<std::string>(),
             std::string("length"));
  }

  void responses_stream_follows_vllm_event_order() {
    const json req = {{"model", "Qwen/Qwen3.8-27B-FP8"},
                      {"input", "Say hello."},
                      {"stream", true},
                      {"reasoning", {{"effort", "low"}}},
                      {"max_output_tokens", 60}};
    const auto r = http_request(mtp_->port(), "POST", "/v1/responses", req.dump());
    QCOMPARE(r.status, 200);
    std::vector<std::string> types;
    int64_t seq = 0;
    for (const auto& j : data_objects(r.body)) {
      QCOMPARE(j["sequence_number"].get<int64_t>(), seq++);
      types.push_back(j["type"]);
    }
    QVERIFY(r.body.find("[DONE]") == std::string::npos);
    QCOMPARE(types.front(), std::string("response.created"));
    QCOMPARE(types[1], std::string("response.in_progress"));
    QCOMPARE(types[2], std::string("response.output_item.added"));
    QCOMPARE(types[3], std::string("response.reasoning_part.added"));
    QCOMPARE(types[4], std::string("response.reasoning_text.delta"));
    QCOMPARE(types.back(), std::string("response.completed"));
    const auto fixture = data_objects(read_fixture("vllm_responses_stream.sse"));
    const auto done = data_objects(r.body).back();
    QCOMPARE(keys(done["response"]["usage"]), keys(fixture.back()["response"]["usage"]));
    QVERIFY(std::find(types.begin(), types.end(), "response.output_text.delta") != types.end());
    QCOMPARE(done["response"]["usage"]["output_tokens"].get<int>(), 60);
  }

  void tool_calls_stream_in_fragments_and_in_parallel() {
    const json tool = {{"type", "function"},
                       {"function",
                        {{"name", "get_weather"},
                         {"parameters",
                          {{"type", "object"},
                           {"properties",
                            {{"city", {{"type", "string"}}},
                             {"unit", {{"type", "string"}, {"enum", {"celsius", "fahrenheit"}}}}}},
                           {"required", {"city"}}}}}}};
    const auto r = http_request(mtp_->port(), "POST", "/v1/chat/completions",
                                chat_body("What is the weather in Paris and in Tokyo?",
                                          {{"stream", true}, {"tools", {tool}}}));
    QCOMPARE(r.status, 200);
    const auto fixture = data_objects(read_fixture("vllm_chat_stream_tool_calls.sse"));
    const auto ours = data_objects(r.body);
    std::map<int, std::string> args;
    std::map<int, std::string> names;
    std::string finish;
    for (const auto& j : ours) {
      if (j["choices"].empty()) continue;
      const auto& choice = j["choices"][0];
      if (!choice["finish_reason"].is_null()) finish = choice["finish_reason"];
      if (!choice["delta"].contains("tool_calls")) continue;
      for (const auto& t : choice["delta"]["tool_calls"]) {
        const int idx = t["index"];
        if (t.contains("id")) {
          QCOMPARE(keys(t), keys(fixture[1]["choices"][0]["delta"]["tool_calls"][0]));
          names[idx] = t["function"]["name"];
        }
        if (t["function"].contains("arguments"))
          args[idx] += t["function"]["arguments"].get<std::string>();
      }
    }
    QCOMPARE(finish, std::string("tool_calls"));
    QCOMPARE(names.size(), size_t(2));  // one call per city: parallel tool calls
    QCOMPARE(json::parse(args[0])["city"].get<std::string>(), std::string("Paris"));
    QCOMPARE(json::parse(args[1])["city"].get<std::string>(), std::string("Tokyo"));
    QCOMPARE(json::parse(args[1])["unit"].get<std::string>(), std::string("celsius"));
  }

  void tool_results_are_used_in_the_follow_up() {
    const json body = {
        {"messages",
         {{{"role", "user"}, {"content", "Weather in Paris?"}},
          {{"role", "assistant"},
           {"content", ""},
           {"tool_calls",
            {{{"id", "call_1"},
              {"type", "function"},
              {"function", {{"name", "get_weather"}, {"arguments", "{\"city\": \"Paris\"}"}}}}}}},
          {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "{\"temperature_c\": 21}"}}}}};
    const auto r = http_request(mtp_->port(), "POST", "/v1/chat/completions", body.dump());
    QCOMPARE(r.status, 200);
    const json j = json::parse(r.body);
    const std::string content = j["choices"][0]["message"]["content"];
    QVERIFY2(content.find("21") != std::string::npos, content.c_str());
    QCOMPARE(j["choices"][0]["finish_reason"].get<std::string>(), std::string("stop"));
  }

  void json_schema_gives_valid_json() {
    const json schema = {{"type", "object"},
                         {"properties",
                          {{"name", {{"type", "string"}}},
                           {"age", {{"type", "integer"}}},
                           {"tags", {{"type", "array"}, {"items", {{"type", "string"}}}}}}},
                         {"required", {"name", "age", "tags"}}};
    const auto r = http_request(
        mtp_->port(), "POST", "/v1/chat/completions",
        chat_body(
            "Describe Ada Lovelace as JSON.",
            {{"response_format",
              {{"type", "json_schema"}, {"json_schema", {{"name", "p"}, {"schema", schema}}}}}}));
    QCOMPARE(r.status, 200);
    const json out =
        json::parse(json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>());
    QVERIFY(out["name"].is_string());
    QVERIFY(out["age"].is_number_integer());
    QVERIFY(out["tags"].is_array());
  }

  void reasoning_grows_with_effort_and_stays_apart() {
    int64_t prev = 0;
    for (const char* effort : {"low", "medium", "high"}) {
      const auto r = http_request(mtp_->port(), "POST", "/v1/chat/completions",
                                  chat_body("What is 15% of 240? Answer with the number only.",
                                            {{"reasoning_effort", effort}}));
      const json j = json::parse(r.body);
      const int64_t n = j["usage"]["completion_tokens_details"]["reasoning_tokens"];
      QVERIFY(n > prev);
      prev = n;
      QVERIFY(!j["choices"][0]["message"]["reasoning"].get<std::string>().empty());
      QVERIFY(j["choices"][0]["message"]["content"].get<std::string>().find("36") !=
              std::string::npos);
    }
  }

  void endpoints_answer_like_vllm() {
    const auto models = json::parse(http_request(mtp_->port(), "GET", "/v1/models").body);
    const auto fixture_models = ojson::parse(
        "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\",\"created\":1,\"owned_"
        "by\":\"vllm\","
        "\"root\":\"m\",\"parent\":null,\"max_model_len\":8096,\"permission\":[]}]}");
    QCOMPARE(models["data"][0]["max_model_len"].get<int64_t>(), int64_t(262'144));
    const auto ours = ojson::parse(http_request(mtp_->port(), "GET", "/v1/models").body);
    QCOMPARE(keys(ours["data"][0]), keys(fixture_models["data"][0]));
    const auto health = http_request(mtp_->port(), "GET", "/health");
    QCOMPARE(health.status, 200);
    QVERIFY(health.body.empty());
    QCOMPARE(json::parse(http_request(mtp_->port(), "GET", "/version").body)["version"]
                 .get<std::string>(),
             std::string("0.11.0"));
    const auto tok =
        ojson::parse(http_request(mtp_->port(), "POST", "/tokenize",
                                  R"({"prompt":"Hello world","return_token_strs":true})")
                         .body);
    QCOMPARE(keys(tok),
             (std::vector<std::string>{"count", "max_model_len", "tokens", "token_strs"}));
    QCOMPARE(tok["count"].get<int>(), 4);  // "Hell" "o" " wor" "ld"
    const auto detok = json::parse(
        http_request(mtp_->port(), "POST", "/detokenize", json{{"tokens", tok["tokens"]}}.dump())
            .body);
    QCOMPARE(detok["prompt"].get<std::string>(), std::string("Hello world"));
    // /tokenize with messages counts what a chat request is charged.
    const std::string msgs = R"({"messages":[{"role":"user","content":"Hi there"}]})";
    const auto counted = json::parse(http_request(mtp_->port(), "POST", "/tokenize", msgs).body);
    const auto chat = json::parse(http_request(mtp_->port(), "POST", "/v1/chat/completions",
                                               chat_body("Hi there", {{"max_tokens", 3}}))
                                      .body);
    QCOMPARE(counted["count"].get<int64_t>(), chat["usage"]["prompt_tokens"].get<int64_t>());
  }

  void client_errors_are_answered_as_vllm_does() {
    const auto bad_json = http_request(mtp_->port(), "POST", "/v1/chat/completions", "{not json");
    QCOMPARE(bad_json.status, 400);
    QCOMPARE(json::parse(bad_json.body)["error"]["type"].get<std::string>(),
             std::string("BadRequestError"));
    const auto unknown = http_request(mtp_->port(), "POST", "/v1/chat/completions",
                                      chat_body("hi", {{"model", "gpt-4"}}));
    QCOMPARE(unknown.status, 404);
    QCOMPARE(
        unknown.body,
        std::string(
            R"({"error":{"message":"The model `gpt-4` does not exist.","type":"NotFoundError","param":"model","code":404}})"));
    const auto too_long = http_request(mtp_->port(), "POST", "/v1/chat/completions",
                                       chat_body("hello", {{"max_tokens", 262'144}}));
    QCOMPARE(too_long.status, 400);
    const std::string msg = json::parse(too_long.body)["error"]["message"];
    QVERIFY2(
        msg.find("This model's maximum context length is 262144 tokens. However, you requested") ==
            0,
        msg.c_str());
    QCOMPARE(json::parse(too_long.body)["error"]["code"].get<int>(), 400);
    QCOMPARE(http_request(mtp_->port(), "GET", "/v1/nothing").status, 404);
    QCOMPARE(http_request(mtp_->port(), "GET", "/v1/chat/completions").status, 405);
  }

  void expect_100_continue_is_answered() {
    namespace asio = boost::asio;
    namespace http = boost::beast::http;
    asio::io_context io;
    asio::ip::tcp::socket socket(io);
    socket.connect({asio::ip::make_address("127.0.0.1"), mtp_->port()});
    const std::string body = chat_body("Long prompt", {{"max_tokens", 3}});
    const std::string head =
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nExpect: 100-continue\r\n"
        "Content-Length: " +
        std::to_string(body.size()) + "\r\n\r\n";
    asio::write(socket, asio::buffer(head));
    // The body is held back: without "100 Continue" the server would wait for it forever.
    boost::beast::flat_buffer buffer;
    http::response<http::empty_body> interim;
    http::read(socket, buffer, interim);
    QCOMPARE(static_cast<int>(interim.result_int()), 100);
    asio::write(socket, asio::buffer(body));
    http::response<http::string_body> final_response;
    http::read(socket, buffer, final_response);
    QCOMPARE(static_cast<int>(final_response.result_int()), 200);
    QCOMPARE(json::parse(final_response.body())["usage"]["completion_tokens"].get<int>(), 3);
  }

  void keep_alive_serves_several_requests_per_connection() {
    HttpConnection c(mtp_->port());
    for (int i = 0; i < 3; ++i) {
      const auto r =
          c.request("POST", "/v1/chat/completions",
                    chat_body("ping " + std::to_string(i), {{"max_tokens", 4}, {"stream", true}}));
      QCOMPARE(r.status, 200);
      QVERIFY(r.complete);
    }
  }

  void metrics_agree_with_traffic() {
    auto server = start_server("fp8-mtp3?time_scale=0.01");
    int64_t prompt = 0, completion = 0, cached = 0;
    const std::string shared(4000, 'x');
    for (int i = 0; i < 4; ++i) {
      const std::string user = "Question " + std::string(i % 2 ? "A " : "B ") + shared;
      const auto r = http_request(server->port(), "POST", "/v1/chat/completions",
                                  chat_body(user, {{"max_tokens", 17}}));
      const json j = json::parse(r.body);
      prompt += j["usage"]["prompt_tokens"].get<int64_t>();
      completion += j["usage"]["completion_tokens"].get<int64_t>();
      cached += j["usage"]["prompt_tokens_details"]["cached_tokens"].get<int64_t>();
    }
    const std::string m = http_request(server->port(), "GET", "/metrics").body;
    const std::string l = "{model_name=\"Qwen/Qwen3.8-27B-FP8\",engine=\"0\"}";
    QCOMPARE(metric_value(m, "vllm:prompt_tokens_total" + l), double(prompt));
    QCOMPARE(metric_value(m, "vllm:generation_tokens_total" + l), double(completion));
    QCOMPARE(metric_value(m, "vllm:prefix_cache_queries_total" + l), double(prompt));
    QCOMPARE(metric_value(m, "vllm:prefix_cache_hits_total" + l), double(cached));
    QVERIFY(cached > 0);  // the repeats of A and B hit the cache
    QCOMPARE(metric_value(m,
                          "vllm:request_success_total{model_name=\"Qwen/"
                          "Qwen3.8-27B-FP8\",engine=\"0\",finished_reason=\"length\"}"),
             4.0);
    QCOMPARE(metric_value(m, "vllm:time_to_first_token_seconds_count" + l), 4.0);
    QCOMPARE(metric_value(m, "vllm:num_requests_running" + l), 0.0);
    const double drafts = metric_value(m, "vllm:spec_decode_num_drafts_total" + l);
    const double accepted = metric_value(m, "vllm:spec_decode_num_accepted_tokens_total" + l);
    QCOMPARE(metric_value(m, "vllm:spec_decode_num_draft_tokens_total" + l), 3 * drafts);
    // Every step but the first token yields 1 + accepted tokens (the last one may be cut short).
    QVERIFY(completion - 4 <= drafts + accepted && drafts + accepted <= completion - 4 + 12);
    QVERIFY(m.find("num_gpu_blocks=\"114113\"") != std::string::npos);
    QVERIFY(m.find("block_size=\"16\"") != std::string::npos);
    QVERIFY(m.find("cache_dtype=\"fp8\"") != std::string::npos);
    QVERIFY(metric_value(m,
                         "vllm:spec_decode_num_accepted_tokens_per_pos_total{model_name=\"Qwen/"
                         "Qwen3.8-27B-FP8\",engine=\"0\",position=\"2\"}") >= 0);
  }

  void trace_lines_match_received_events() {
    {
      std::lock_guard<std::mutex> lock(trace_mutex_);
      trace_.clear();
    }
    const auto r = http_request(mtp_->port(), "POST", "/v1/chat/completions",
                                chat_body("Trace me", {{"stream", true}, {"max_tokens", 30}}),
                                {{"x-request-id", "trace-1"}});
    QCOMPARE(r.status, 200);
    std::vector<TraceRecord> mine;
    // The server records an event right after its send returns, which can be after the client
    // already read it: wait for the last record.
    QTRY_VERIFY_WITH_TIMEOUT(trace_has(trace_mutex_, trace_, "trace-1", "done"), 2000);
    {
      std::lock_guard<std::mutex> lock(trace_mutex_);
      for (const auto& t : trace_) {
        if (t.request_id == "trace-1") mine.push_back(t);
      }
    }
    QCOMPARE(mine.size(), r.chunks.size());
    int tokens = 0;
    for (size_t i = 0; i < mine.size(); ++i) {
      QCOMPARE(mine[i].event_index, int64_t(i));
      tokens += mine[i].tokens;
      // Same steady clock. Nothing arrives before the model scheduled it; the stamp follows the
      // send syscall and may come late when the server thread is preempted, so it bounds the
      // client's arrival from above only.
      QVERIFY(r.chunks[i].first >= mine[i].sched_ns);
      QVERIFY(r.chunks[i].first - mine[i].sent_ns < 50'000'000);
      QVERIFY(mine[i].sent_ns >= mine[i].sched_ns);
    }
    QCOMPARE(tokens, 30);
    QCOMPARE(mine.back().kind, std::string("done"));
  }

  void cleanupTestCase() { mtp_.reset(); }
};

LANEBENCH_TEST_GUILESS_MAIN(SimServerWireTest)
#include "sim_server_wire_test.moc"
