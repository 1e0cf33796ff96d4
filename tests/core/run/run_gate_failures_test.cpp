// Functional gates against broken servers. A vLLM look-alike on loopback answers every gate as a
// working model would, except for one fault a real serving stack shows: structured output that
// breaks the schema, a stream whose text differs from the greedy text or that never ends, tool
// calls missing, malformed or repeated, a tool result ignored, a Responses event stream that
// never completes, earlier turns dropped, reasoning left in the content. Each fault fails its
// gate (not unsupported) with a reason naming the fault, the run flags the gate as a blocker and
// exits 1. The unbroken answers pass every gate, so each failure is the fault's alone.
#include <QtTest>
#include <algorithm>
#include <functional>
#include <regex>

#include "test_main.h"

#include "fake_vllm.h"
#include "sim_plan_run.h"

using lb::test::FakeMessage;
using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
using lb::test::SimRun;
using nlohmann::json;

namespace {

using Answer = std::function<FakeMessage(const json& request)>;

// --- what a working model answers

// The "The secret <thing> is <VALUE>." sentence in a text, or "" when it has none.
std::string secret_in(const std::string& text) {
  static const std::regex fact("The secret [a-z ]+ is [A-Za-z0-9-]+\\.");
  std::smatch m;
  return std::regex_search(text, m, fact) ? m.str() : "";
}

std::string conversation_text(const json& messages) {
  std::string text;
  for (const auto& m : messages)
    if (m["content"].is_string()) text += m["content"].get<std::string>() + "\n";
  return text;
}

json capital_of_france() {
  return {{"city", "Paris"}, {"country", "France"}, {"population", 2102650}, {"size", "large"}};
}

json weather_call(const std::string& city) {
  return {{"name", "get_weather"}, {"arguments", json{{"city", city}}.dump()}};
}

FakeMessage calls(json tool_calls) {
  FakeMessage m;
  m.tool_calls = std::move(tool_calls);
  return m;
}

// The reply to a tool result {"temp_c": N, "sky": ...}: the temperature in words.
FakeMessage weather_report(const json& tool_message) {
  const json result = json::parse(tool_message["content"].get<std::string>());
  return {"It is " + std::to_string(result["temp_c"].get<int>()) + " C and clear in Paris now."};
}

FakeMessage good_chat(const json& request) {
  const json& messages = request["messages"];
  const json& last = messages.back();
  if (request.contains("response_format")) return {capital_of_france().dump()};
  if (last["role"] == "tool") return weather_report(last);
  if (request.contains("tools"))
    return calls(json::array({weather_call("Paris"), weather_call("Tokyo")}));
  const std::string asked = last["content"].get<std::string>();
  if (request.contains("reasoning_effort"))
    return {secret_in(asked), "The user asks for a fact stated in the text; quote it."};
  if (asked.find("what is the secret") != std::string::npos)
    return {secret_in(conversation_text(messages))};
  return {"Lighthouses guide ships past the rocks and into harbour at night."};
}

FakeMessage good_responses(const json& request) {
  return {secret_in(request["input"].get<std::string>())};
}

// --- running one gate

constexpr int kRepeat = 2;

json gate_plan(const std::string& base_url, const std::string& check) {
  const json gates = {{"kind", "gates"}, {"checks", json::array({check})}, {"repeat", kRepeat}};
  return {{"name", "gates"},
          {"lanes", json::array({{{"id", "lane"}, {"base_url", base_url}}})},
          {"experiments", json::array({gates})}};
}

// One check of the gates experiment against a fake vLLM that answers chat requests with `chat`
// and /v1/responses with `responses`.
SimRun run_check(const std::string& check, Answer chat, Answer responses = good_responses) {
  FakeVllmOptions options;
  options.message = std::move(chat);
  options.responses = std::move(responses);
  FakeVllm server(std::move(options));
  return lb::test::run_sim_plan(gate_plan(server.base_url(), check), "lb-gate-fault-" + check);
}

json gate_of(const SimRun& run, const std::string& check) {
  return run.experiment("gates")["lanes"]["lane"]["gates"][check];
}

bool has_line(const json& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), json(line)) != lines.end();
}

// The gate failed every attempt for a reason containing `why`, and the run says so: a blocker
// in the summary and on the sink, exit code 1.
void verify_gate_failed(const SimRun& run, const std::string& check, const std::string& why) {
  const json gate = gate_of(run, check);
  QVERIFY2(gate["status"] == "fail", gate.dump().c_str());
  QCOMPARE(gate["score"].get<std::string>(), "0/" + std::to_string(kRepeat));
  QCOMPARE(gate["failures"].size(), size_t{kRepeat});
  for (const auto& failure : gate["failures"])
    QVERIFY2(failure["why"].get<std::string>().find(why) != std::string::npos,
             qPrintable(QString("expected \"%1\" in %2").arg(why.c_str(), failure.dump().c_str())));
  const std::string blocker =
      "lane lane: gate " + check + " failed (0/" + std::to_string(kRepeat) + ")";
  QVERIFY2(has_line(run.summary["run"]["blockers"], blocker), run.summary["run"].dump().c_str());
  QVERIFY(run.sink->has_message_containing(blocker));
  QCOMPARE(run.result.exit_code, lb::run::kExitFailed);
}

// A working model's chat answer with a fault applied.
Answer broken_chat(std::function<void(const json& request, FakeMessage& answer)> fault) {
  return [fault](const json& request) {
    FakeMessage answer = good_chat(request);
    fault(request, answer);
    return answer;
  };
}

// A JSON-mode answer: the capital of France with a change.
Answer city_answer(std::function<void(json& city)> change) {
  return [change](const json&) {
    json city = capital_of_france();
    change(city);
    return FakeMessage{city.dump()};
  };
}

bool streamed(const json& request) { return request.value("stream", false); }

}  // namespace

class TestGateFailures : public QObject {
  Q_OBJECT
 private slots:
  void theUnbrokenAnswersPassEveryGate() {
    for (const auto& check : lb::plan::all_gate_checks()) {
      const SimRun run = run_check(check, good_chat);
      QVERIFY2(gate_of(run, check)["status"] == "pass", gate_of(run, check).dump().c_str());
      QCOMPARE(run.result.exit_code, lb::run::kExitOk);
    }
  }

  // --- json: structured output that breaks the schema the request sent

  void jsonMissingRequiredFieldFails() {
    const auto run = run_check("json", city_answer([](json& city) { city.erase("size"); }));
    verify_gate_failed(run, "json", "$: missing required size");
  }

  void jsonWrongTypeFails() {
    const auto run =
        run_check("json", city_answer([](json& city) { city["population"] = "2.1 million"; }));
    verify_gate_failed(run, "json", "$.population: expected integer");
  }

  void jsonValueOutsideTheEnumFails() {
    const auto run = run_check("json", city_answer([](json& city) { city["size"] = "huge"; }));
    verify_gate_failed(run, "json", "$.size: \"huge\" is not in");
  }

  void jsonCutOffAtMaxTokensFails() {
    // response_format ignored and the answer cut by max_tokens: prose, then half an object.
    const auto run = run_check("json", [](const json&) {
      return FakeMessage{"Here is the JSON you asked for: {\"city\": \"Paris\", \"coun"};
    });
    verify_gate_failed(run, "json", "the answer is not JSON: Here is the JSON");
  }

  // --- streaming: the streamed text must be the greedy non-streamed text

  void streamingWithoutContentDeltasFails() {
    // The stream carries the role chunk, the finish and usage, and [DONE], but no text.
    const auto run = run_check("streaming", broken_chat([](const json& request, FakeMessage& a) {
                                 if (streamed(request)) a.content.clear();
                               }));
    verify_gate_failed(run, "streaming", "streamed text differs from the non-streamed greedy text");
  }

  void streamingDetokenizerDroppingSpacesFails() {
    const auto run = run_check("streaming", broken_chat([](const json& request, FakeMessage& a) {
                                 if (streamed(request)) std::erase(a.content, ' ');
                               }));
    verify_gate_failed(run, "streaming", "streamed text differs from the non-streamed greedy text");
  }

  void streamingWithoutItsEndFails() {
    // The text arrives, then the stream stops: no finish_reason, no usage, no [DONE].
    const auto run = run_check(
        "streaming", broken_chat([](const json&, FakeMessage& a) { a.stream_ends = false; }));
    verify_gate_failed(run, "streaming", "the stream ended without a finish_reason");
  }

  void streamingEmptyGreedyAnswerFails() {
    const auto run =
        run_check("streaming", broken_chat([](const json&, FakeMessage& a) { a.content.clear(); }));
    verify_gate_failed(run, "streaming", "empty greedy answer");
  }

  // --- tools: two parallel calls of the offered function, with arguments that fit its schema

  void toolsAnsweredInProseFails() {
    const auto run = run_check("tools", [](const json&) {
      return FakeMessage{"I cannot check live weather, but Paris is mild and Tokyo is humid."};
    });
    verify_gate_failed(run, "tools", "expected parallel tool calls, got 0");
  }

  void toolsSingleCallFails() {
    const auto run =
        run_check("tools", [](const json&) { return calls(json::array({weather_call("Paris")})); });
    verify_gate_failed(run, "tools", "expected parallel tool calls, got 1");
  }

  void toolsCallToAFunctionNotOfferedFails() {
    const auto run = run_check("tools", [](const json&) {
      json paris = weather_call("Paris"), tokyo = weather_call("Tokyo");
      tokyo["name"] = "get_current_weather";
      return calls(json::array({paris, tokyo}));
    });
    verify_gate_failed(run, "tools", "unknown tool get_current_weather");
  }

  void toolsArgumentsNotJsonFail() {
    // A tool parser that hands on the model's Python-style dict.
    const auto run = run_check("tools", [](const json&) {
      json paris = weather_call("Paris"), tokyo = weather_call("Tokyo");
      paris["arguments"] = "{'city': 'Paris'}";
      return calls(json::array({paris, tokyo}));
    });
    verify_gate_failed(run, "tools", "arguments are not JSON: {'city': 'Paris'}");
  }

  void toolsArgumentsMissingARequiredParameterFail() {
    const auto run = run_check("tools", [](const json&) {
      json paris = weather_call("Paris"), tokyo = weather_call("Tokyo");
      tokyo["arguments"] = json{{"location", "Tokyo"}}.dump();
      return calls(json::array({paris, tokyo}));
    });
    verify_gate_failed(run, "tools", "$: missing required city");
  }

  void toolsArgumentOfTheWrongTypeFails() {
    const auto run = run_check("tools", [](const json&) {
      json paris = weather_call("Paris"), tokyo = weather_call("Tokyo");
      tokyo["arguments"] = json{{"city", json::array({"Tokyo"})}}.dump();
      return calls(json::array({paris, tokyo}));
    });
    verify_gate_failed(run, "tools", "$.city: expected string");
  }

  void toolsSameCallTwiceFails() {
    // A streaming tool parser that emits the first call again in place of the second.
    const auto run = run_check("tools", [](const json&) {
      return calls(json::array({weather_call("Paris"), weather_call("Paris")}));
    });
    verify_gate_failed(run, "tools", "no call asks for Tokyo");
  }

  // --- tool_continuation: the answer after the tool result uses it

  void toolContinuationIgnoringTheResultFails() {
    const auto run = run_check("tool_continuation", [](const json&) {
      return FakeMessage{"I do not have access to real-time weather data for Paris."};
    });
    verify_gate_failed(run, "tool_continuation", "the answer does not use the tool result (");
  }

  void toolContinuationCallingTheToolAgainFails() {
    const auto run = run_check("tool_continuation", [](const json&) {
      return calls(json::array({weather_call("Paris")}));
    });
    verify_gate_failed(run, "tool_continuation", "the answer does not use the tool result (");
  }

  // --- responses: a complete event stream whose text is the response's and answers

  void responsesStreamWithoutCompletedEventFails() {
    const auto run = run_check("responses", good_chat, [](const json& request) {
      FakeMessage m = good_responses(request);
      m.stream_ends = false;
      return m;
    });
    verify_gate_failed(run, "responses", "the event stream did not complete");
  }

  void responsesStreamDifferingFromTheResponseFails() {
    const auto run = run_check("responses", good_chat, [](const json& request) {
      FakeMessage m = good_responses(request);
      if (streamed(request)) m.content = "The secret is safe with me.";
      return m;
    });
    verify_gate_failed(run, "responses", "streamed text differs from the response");
  }

  void responsesMissingTheFactFails() {
    const auto run = run_check("responses", good_chat,
                               [](const json&) { return FakeMessage{"The text does not say."}; });
    verify_gate_failed(run, "responses", "the answer misses ");
  }

  // --- session: turn 3 recalls what turn 1 said

  void sessionWithEarlierTurnsDroppedFails() {
    // A stack that hands the model only the last user message.
    const auto run = run_check("session", [](const json& request) {
      json trimmed = request;
      trimmed["messages"] = json::array({request["messages"].back()});
      return good_chat(trimmed);
    });
    verify_gate_failed(run, "session", "turn 3 does not recall ");
  }

  // --- reasoning: reasoning apart from the content, at every effort, and an answer

  void reasoningLeftInTheContentFails() {
    // No reasoning parser: the thinking stays in the content between <think> tags.
    const auto run = run_check("reasoning", broken_chat([](const json&, FakeMessage& a) {
                                 a.content = "<think>" + a.reasoning + "</think>" + a.content;
                                 a.reasoning.clear();
                               }));
    verify_gate_failed(run, "reasoning", "no reasoning at effort low");
  }

  void reasoningCopiedIntoTheContentFails() {
    const auto run = run_check("reasoning", broken_chat([](const json&, FakeMessage& a) {
                                 a.content = a.reasoning + "\n\n" + a.content;
                               }));
    verify_gate_failed(run, "reasoning", "reasoning mixed into the content at effort low");
  }

  void reasoningWithoutAnAnswerAtHighEffortFails() {
    // At high effort the thinking uses up max_tokens before any content.
    const auto run = run_check("reasoning", broken_chat([](const json& request, FakeMessage& a) {
                                 if (request["reasoning_effort"] == "high") a.content.clear();
                               }));
    verify_gate_failed(run, "reasoning", "the content does not answer at effort high");
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestGateFailures)
#include "run_gate_failures_test.moc"
