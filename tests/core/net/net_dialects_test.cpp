// Every response-stream fixture parsed whole, split at every byte and fed one byte at a time:
// the results must be identical, and they must say what the server meant (content, reasoning
// and tool calls apart, token counts per event, usage, cached tokens, spec-decode, errors).
#include <QtTest>

#include <limits>
#include "test_main.h"

#include "core/net/dialect_parser.h"
#include "core/net/error_message.h"
#include "core/net/retry_after.h"
#include "fixture_streams.h"
#include "result_fingerprint.h"

using namespace lb::net;
using namespace lb::net::testing;

namespace {

StreamResult parse_fixture(const char* file) {
  for (const auto& f : fixture_streams()) {
    if (std::string(f.file) == file) return parse_split(f.dialect, fixture_wire_bytes(f), {});
  }
  throw std::runtime_error(std::string("unknown fixture ") + file);
}

std::vector<int32_t> tokens_of(const StreamResult& r) {
  std::vector<int32_t> out;
  for (const auto& e : r.events) out.push_back(e.tokens);
  return out;
}

}  // namespace

class TestDialects : public QObject {
  Q_OBJECT
 private slots:
  void everySplitPointGivesTheSameResult() {
    for (const auto& f : fixture_streams()) {
      const std::string bytes = fixture_wire_bytes(f);
      const std::string whole = fingerprint(parse_split(f.dialect, bytes, {}));
      for (size_t cut = 0; cut <= bytes.size(); ++cut) {
        const std::string split = fingerprint(parse_split(f.dialect, bytes, {cut}));
        if (split != whole) {
          QFAIL(qPrintable(QString("%1 split at %2:\n%3\nvs whole:\n%4")
                               .arg(f.file)
                               .arg(cut)
                               .arg(split.c_str())
                               .arg(whole.c_str())));
        }
      }
      std::vector<size_t> every_byte;
      for (size_t i = 1; i < bytes.size(); ++i) every_byte.push_back(i);
      QCOMPARE(fingerprint(parse_split(f.dialect, bytes, every_byte)), whole);
    }
  }

  void eventTimesAreWhenTheEventCompleted() {
    // Read i arrives at time i: an event's arrival is the read that delivered its blank line.
    const std::string bytes = "data: {\"choices\":[{\"delta\":{\"content\":\"A\"}}]}\n\n";
    const size_t last_newline = bytes.size() - 1;
    const auto r = parse_split(Dialect::OpenAiChat, bytes, {10, last_newline});
    QCOMPARE(r.events.size(), size_t(1));
    QCOMPARE(r.events[0].arrival_ns, int64_t(3));
  }

  void vllmReasoningSpecDecodeAndContinuousUsage() {
    const auto r = parse_fixture("vllm_chat_stream.sse");
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.reasoning, std::string("Okay, the user is asking for France's capital Easy one."));
    QCOMPARE(r.content, std::string("\n\nThe capital of France is Paris."));
    QCOMPARE(r.events.size(), size_t(7));  // the role chunk and the usage chunk are not events
    QCOMPARE(r.total_events, int64_t(9));
    QCOMPARE(r.events[0].content_bytes, 0u);
    QCOMPARE(r.events[0].reasoning_bytes, 4u);
    QCOMPARE(r.events[4].content_bytes, 5u);
    // MTP: several tokens per event, from completion_tokens deltas; they sum to the usage.
    QCOMPARE(tokens_of(r), (std::vector<int32_t>{1, 4, 3, 4, 2, 3, 2}));
    QCOMPARE(r.usage.completion_tokens, int64_t(19));
    QCOMPARE(r.usage.prompt_tokens, int64_t(42));
    QCOMPARE(r.usage.cached_tokens, int64_t(32));
    QCOMPARE(r.usage.reasoning_tokens, int64_t(11));
    QCOMPARE(r.finish_reason, std::string("stop"));
    QCOMPARE(r.spec.num_drafts, int64_t(6));
    QCOMPARE(r.spec.num_draft_tokens, int64_t(18));
    QCOMPARE(r.spec.num_accepted_tokens, int64_t(12));
    QCOMPARE(r.spec.accepted_per_position, (std::vector<int64_t>{6, 4, 2}));
  }

  void transitionalVllmSendingBothReasoningKeysCountsOnce() {
    const std::string bytes =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Hmm\","
        "\"reasoning\":\"Hmm\"}}]}\n\n";
    const auto r = parse_split(Dialect::OpenAiChat, bytes, {});
    QCOMPARE(r.reasoning, std::string("Hmm"));
    QCOMPARE(r.events.at(0).reasoning_bytes, 3u);
  }

  void logprobsCountTokens() {
    const auto r = parse_fixture("vllm_chat_stream_logprobs.sse");
    QCOMPARE(r.content, std::string("The capital is Paris."));
    QCOMPARE(tokens_of(r), (std::vector<int32_t>{1, 2, 2}));
  }

  void toolCallsAssembled() {
    const auto r = parse_fixture("vllm_chat_stream_tool_calls.sse");
    QCOMPARE(r.content, std::string());
    QCOMPARE(r.tool_calls.size(), size_t(1));
    QCOMPARE(r.tool_calls[0].name, std::string("get_weather"));
    QCOMPARE(r.tool_calls[0].id, std::string("chatcmpl-tool-5f0c2a8e9b1d4e7fa3c6b2d1e0f9a8b7"));
    QCOMPARE(r.tool_calls[0].arguments, std::string(R"({"city": "Paris", "unit": "celsius"})"));
    QCOMPARE(r.finish_reason, std::string("tool_calls"));
    // Tool-call fragments are output: a tool-call-only stream has events (so a TTFT and E2EL),
    // carrying the name's and the arguments' bytes.
    QVERIFY(!r.events.empty());
    size_t tool_bytes = 0;
    for (const auto& e : r.events) {
      QCOMPARE(e.content_bytes, uint32_t(0));
      tool_bytes += e.tool_call_bytes;
    }
    QCOMPARE(tool_bytes, r.tool_calls[0].name.size() + r.tool_calls[0].arguments.size());
    QCOMPARE(r.total_events, int64_t(7));
    QCOMPARE(r.usage.completion_tokens, int64_t(26));
  }

  void completionsWithContinuousUsage() {
    const auto r = parse_fixture("vllm_completions_stream.sse");
    QCOMPARE(r.content, std::string(" Paris. It is also"));
    QCOMPARE(tokens_of(r), (std::vector<int32_t>{1, 1, 1, 1, 1}));
    QCOMPARE(r.usage.completion_tokens, int64_t(5));
    QCOMPARE(r.finish_reason, std::string("length"));
  }

  void responsesApi() {
    const auto r = parse_fixture("vllm_responses_stream.sse");
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("Hello there!"));
    QCOMPARE(r.reasoning, std::string("The user wants a greeting."));
    QCOMPARE(r.events.size(), size_t(4));
    QCOMPARE(r.usage.prompt_tokens, int64_t(18));
    QCOMPARE(r.usage.completion_tokens, int64_t(12));
    QCOMPARE(r.usage.cached_tokens, int64_t(16));
    QCOMPARE(r.usage.reasoning_tokens, int64_t(7));
  }

  void sglangLlamacppTgiOllama() {
    auto r = parse_fixture("sglang_chat_stream.sse");
    QCOMPARE(r.reasoning, std::string("2+2=4, so"));
    QCOMPARE(r.content, std::string("The answer is 4."));
    QCOMPARE(r.usage.cached_tokens, int64_t(8));
    QCOMPARE(r.usage.reasoning_tokens, int64_t(11));
    QCOMPARE(r.finish_reason, std::string("stop"));

    r = parse_fixture("llamacpp_chat_stream.sse");
    QCOMPARE(r.reasoning, std::string(" it handles"));
    QCOMPARE(r.content, std::string("Sure!"));
    QCOMPARE(r.usage.cached_tokens, int64_t(7));
    QCOMPARE(r.server_timings.value("draft_n_accepted", -1), 14);
    // predicted_n is cumulative (28, 29, 30, 31 in this excerpt): per-event increases.
    QCOMPARE(tokens_of(r), (std::vector<int32_t>{28, 1, 1, 1}));

    r = parse_fixture("tgi_chat_stream.sse");
    QCOMPARE(r.content, std::string("Deep learning is a"));
    QCOMPARE(r.usage.completion_tokens, int64_t(4));

    r = parse_fixture("tgi_generate_stream.sse");
    QCOMPARE(r.content, std::string(" a great way to"));
    QCOMPARE(tokens_of(r), (std::vector<int32_t>{1, 1, 1, 1}));
    QCOMPARE(r.usage.completion_tokens, int64_t(4));
    QCOMPARE(r.usage.prompt_tokens, int64_t(3));
    // The fixture ends with TGI's mid-stream failure form after the final event.
    QCOMPARE(r.error, ErrorKind::StreamError);
    QVERIFY(r.error_message.find("CUDA out of memory") != std::string::npos);

    for (const char* file : {"ollama_api_chat.ndjson.txt", "ollama_v1_chat_stream.sse"}) {
      r = parse_fixture(file);
      QCOMPARE(r.reasoning, std::string("The user wants"));
      QCOMPARE(r.content, std::string("The sky"));
      QCOMPARE(r.usage.completion_tokens, int64_t(282));
      QCOMPARE(r.usage.prompt_tokens, int64_t(26));
    }
    QCOMPARE(parse_fixture("ollama_api_chat.ndjson.txt").server_timings.value("eval_duration", 0LL),
             4535599000LL);
  }

  void edgeStreams() {
    auto r = parse_fixture("sse_edge_crlf_ping.sse");
    QCOMPARE(r.content, std::string("Hi"));
    QCOMPARE(r.events.size(), size_t(1));
    r = parse_fixture("sse_edge_no_space_comments_event_no_done.sse");
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("Hello"));
    QCOMPARE(r.usage.completion_tokens, int64_t(2));
    r = parse_fixture("sse_edge_tcp_split.sse");
    QCOMPARE(r.content, std::string("Caf\xC3\xA9"));
  }

  // Counts sent as floats: whole ones count; ones no int64_t can hold are ignored, not
  // converted (converting 3.3e124 to an integer is undefined behaviour; fuzz_stream_parser found
  // it, and under UBSan this test stops there without the range check).
  void outOfRangeCountsAreIgnored() {
    const std::string wire =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7.0,"
        "\"completion_tokens\":3.33333e+124,\"prompt_tokens_details\":{\"cached_tokens\":"
        "18446744073709551615}}}\n\n"
        "data: [DONE]\n\n";
    const StreamResult r = parse_split(Dialect::OpenAiChat, wire, {});
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("Hi"));
    QCOMPARE(r.usage.prompt_tokens, int64_t(7));
    QVERIFY(r.usage.completion_tokens < 0 || r.usage.completion_tokens == 1);  // not from usage
    QVERIFY(r.usage.cached_tokens <= 0);  // 2^64 - 1 is no count
    // Whole floats are counts; speculative-decoding histograms the same.
    QCOMPARE(to_int64(nlohmann::json(12.0), -1), int64_t(12));
    QCOMPARE(to_int64(nlohmann::json(-1e300), -1), int64_t(-1));
    QCOMPARE(to_int64(nlohmann::json(9223372036854775808.0), -1), int64_t(-1));
    QCOMPARE(to_int64(nlohmann::json(std::numeric_limits<double>::quiet_NaN()), 5), int64_t(5));
    QCOMPARE(to_int64(nlohmann::json("12"), -1), int64_t(-1));
    QCOMPARE(to_int64(nlohmann::json(uint64_t(1) << 63), -1), int64_t(-1));
  }

  void everyErrorShapeIsAnError() {
    const std::vector<std::pair<const char*, const char*>> expected = {
        {"vllm_stream_error.sse", "Internal server error"},
        {"sglang_stream_error.sse", "Generation aborted."},
        {"llamacpp_stream_error.sse", "the request exceeds the available context size"},
        {"sse_edge_error_event.sse", "Upstream provider returned 503"},
        {"tgi_generate_stream.sse", "CUDA out of memory"},
    };
    for (const auto& [file, message] : expected) {
      const auto r = parse_fixture(file);
      QVERIFY2(r.error == ErrorKind::StreamError, file);
      QVERIFY2(r.error_message.find(message) != std::string::npos, r.error_message.c_str());
    }
    // llama.cpp's current form (after the legacy one in the same fixture) on its own:
    const auto r = parse_split(Dialect::OpenAiChat,
                               "data: {\"error\":{\"code\":500,\"message\":\"Invalid diff\","
                               "\"type\":\"server_error\"}}\n\n",
                               {});
    QCOMPARE(r.error, ErrorKind::StreamError);
    QCOMPARE(r.error_message, std::string("Invalid diff (server_error)"));
    // Ollama native mid-stream error line.
    const auto o = parse_split(Dialect::OllamaChat, "{\"error\":\"out of memory\"}\n", {});
    QCOMPARE(o.error, ErrorKind::StreamError);
    QCOMPARE(o.error_message, std::string("out of memory"));
  }

  void httpErrorBodies() {
    // Every body in http_errors.txt (lines starting with '{') yields the server's message.
    const std::string text = lb::test::load_fixture("wire/http_errors.txt");
    size_t pos = 0, bodies = 0;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      const std::string line = text.substr(pos, end - pos);
      pos = end + 1;
      if (line.empty() || line[0] != '{') continue;
      ++bodies;
      const auto j = nlohmann::json::parse(line);
      const auto message = error_message_of(j);
      QVERIFY2(message.has_value(), line.c_str());
      const std::string raw = j.contains("message")    ? j["message"].get<std::string>()
                              : j["error"].is_string() ? j["error"].get<std::string>()
                                                       : j["error"]["message"].get<std::string>();
      QVERIFY2(message->find(raw) == 0, message->c_str());
    }
    QVERIFY(bodies >= 10);
    QCOMPARE(error_message_from_body("<html>Bad Gateway</html>\n"),
             std::string("<html>Bad Gateway</html>"));
  }

  void retryAfterForms() {
    const auto now = std::chrono::system_clock::from_time_t(784111777);  // 1994-11-06 08:49:37
    using H = std::vector<std::pair<std::string, std::string>>;
    QCOMPARE(retry_after_seconds(H{{"retry-after", "2"}, {"retry-after-ms", "1024"}}, now), 1.024);
    QCOMPARE(retry_after_seconds(H{{"Retry-After", "7"}}, now), 7.0);
    QCOMPARE(retry_after_seconds(H{{"Retry-After", "1.5"}}, now), 1.5);
    QCOMPARE(retry_after_seconds(H{{"Retry-After", "Sun, 06 Nov 1994 08:49:47 GMT"}}, now), 10.0);
    QCOMPARE(retry_after_seconds(H{{"Retry-After", "soon"}}, now), -1.0);
    QCOMPARE(retry_after_seconds(H{}, now), -1.0);
  }

  void nonStreamedDocuments() {
    auto doc = [](Dialect d, const std::string& body) {
      StreamResult r;
      StreamParser parser(d, 8 << 20, r);
      parser.parse_document(body, 42);
      return r;
    };
    auto r = doc(
        Dialect::OpenAiChat,
        R"({"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,)"
        R"("message":{"role":"assistant","content":"Paris.","reasoning_content":"Think.",)"
        R"("tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},)"
        R"({"id":"b","type":"function","function":{"name":"g","arguments":"[1]"}}]},)"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,"completion_tokens":5,)"
        R"("prompt_tokens_details":{"cached_tokens":4}}})");
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("Paris."));
    QCOMPARE(r.reasoning, std::string("Think."));
    QCOMPARE(r.tool_calls.size(), size_t(2));
    QCOMPARE(r.tool_calls[1].name, std::string("g"));
    QCOMPARE(r.tool_calls[1].arguments, std::string("[1]"));
    QCOMPARE(r.events.size(), size_t(1));
    QCOMPARE(r.events[0].arrival_ns, int64_t(42));
    // One event holds the whole answer: its token count is no "tokens per event" (the per-lane
    // table showed 51.5 for a non-streamed gate request); usage still counts the answer.
    QCOMPARE(r.events[0].tokens, -1);
    QCOMPARE(r.usage.completion_tokens, int64_t(5));
    QCOMPARE(r.usage.cached_tokens, int64_t(4));
    QCOMPARE(r.finish_reason, std::string("tool_calls"));

    r = doc(Dialect::OpenAiCompletions,
            R"({"choices":[{"index":0,"text":" Paris","finish_reason":"length"}]})");
    QCOMPARE(r.content, std::string(" Paris"));

    r = doc(
        Dialect::TgiGenerate,
        R"({"generated_text":" a great way","details":{"finish_reason":"length","generated_tokens":3,"input_length":2}})");
    QCOMPARE(r.content, std::string(" a great way"));
    QCOMPARE(r.events.at(0).tokens, -1);
    QCOMPARE(r.usage.completion_tokens, int64_t(3));

    r = doc(
        Dialect::OpenAiResponses,
        R"({"id":"resp_1","object":"response","model":"m","status":"completed","output":[)"
        R"({"type":"reasoning","content":[{"type":"reasoning_text","text":"Hmm."}]},)"
        R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello!"}]}],)"
        R"("usage":{"input_tokens":5,"output_tokens":3,"input_tokens_details":{"cached_tokens":2}}})");
    QCOMPARE(r.content, std::string("Hello!"));
    QCOMPARE(r.reasoning, std::string("Hmm."));
    QCOMPARE(r.usage.cached_tokens, int64_t(2));
    QCOMPARE(r.finish_reason, std::string("completed"));

    r = doc(Dialect::OllamaChat,
            R"({"model":"q","message":{"role":"assistant","content":"Sky.","thinking":"Hm"},)"
            R"("done":true,"done_reason":"stop","prompt_eval_count":3,"eval_count":2})");
    QCOMPARE(r.content, std::string("Sky."));
    QCOMPARE(r.usage.completion_tokens, int64_t(2));

    r = doc(Dialect::OpenAiChat, R"({"error":{"message":"bad model","type":"NotFoundError"}})");
    QCOMPARE(r.error, ErrorKind::StreamError);
  }

  void badStreams() {
    auto r = parse_split(Dialect::OpenAiChat, "data: {\"choices\": [\n\ndata: [DONE]\n\n", {});
    QCOMPARE(r.error, ErrorKind::Malformed);
    QVERIFY(r.error_message.find("invalid JSON in event 1") != std::string::npos);

    r = parse_split(Dialect::OpenAiChat,
                    "data: {\"choices\":[{\"delta\":{\"content\":\"ok\"}}]}\n\n"
                    "data: {\"choices\":[{\"delta\":{\"content\":\"bad \xC3\x28\"}}]}\n\n",
                    {});
    QCOMPARE(r.error, ErrorKind::Malformed);
    QVERIFY2(r.error_message.find("invalid UTF-8 in event 2") == 0, r.error_message.c_str());
    QCOMPARE(r.content, std::string("ok"));  // what arrived before the bad event is kept

    // Found by fuzz/fuzz_stream_parser: a number too large for a double is nlohmann's
    // out_of_range, not a parse_error, and used to escape the parser and end the process.
    r = parse_split(Dialect::OpenAiChat, "data: {\"choices\": 1e999}\n\ndata: [DONE]\n\n", {});
    QCOMPARE(r.error, ErrorKind::Malformed);
    QVERIFY2(r.error_message.find("invalid JSON in event 1: ") == 0, r.error_message.c_str());
    QVERIFY2(r.error_message.find("number overflow") != std::string::npos, r.error_message.c_str());

    const std::string huge = lb::test::huge_sse_event(10 << 20);
    r = parse_split(Dialect::OpenAiChat, huge, {65536, 1 << 20}, 8 << 20);
    QCOMPARE(r.error, ErrorKind::TooLarge);
    QVERIFY(r.error_message.find("limit of 8388608 bytes") != std::string::npos);

    // A stream cut inside an event (close-delimited bodies cannot tell otherwise): reported as
    // truncated rather than dropped silently; a complete unterminated last event is accepted.
    r = parse_split(Dialect::OpenAiChat, "data: {\"choices\":[{\"delta\":{\"content\":\"a", {});
    QCOMPARE(r.error, ErrorKind::Truncated);
    QVERIFY2(r.error_message.find("stream ended inside an event") == 0, r.error_message.c_str());
    r = parse_split(Dialect::OpenAiChat, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}",
                    {});
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("a"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestDialects)
#include "net_dialects_test.moc"
