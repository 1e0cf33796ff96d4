#include "core/run/experiments/gate_checks.h"

#include <algorithm>
#include <cctype>

#include "core/net/secret_text.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/needle_prompt.h"
#include "core/run/experiments/json_schema_check.h"
#include "core/run/folder/written_first_sink.h"
#include "core/text/ascii_text.h"

namespace lb::run {
namespace {

using nlohmann::json;

GateAttempt pass() { return {GateOutcome::Pass, ""}; }
GateAttempt fail(std::string why) { return {GateOutcome::Fail, std::move(why)}; }

// nullopt when the call succeeded; otherwise the attempt's outcome.
std::optional<GateAttempt> call_failed(const net::StreamResult& r) {
  if (r.error == net::ErrorKind::None && r.http_status == 200) return std::nullopt;
  const std::string why = "HTTP " + std::to_string(r.http_status) + ": " + r.error_message;
  if (says_unsupported(r)) return GateAttempt{GateOutcome::Unsupported, why};
  return fail(why);
}

json user(const std::string& text) { return {{"role", "user"}, {"content", text}}; }

const json& city_schema() {
  static const json schema = {
      {"type", "object"},
      {"properties",
       {{"city", {{"type", "string"}}},
        {"country", {{"type", "string"}}},
        {"population", {{"type", "integer"}}},
        {"size", {{"type", "string"}, {"enum", {"small", "medium", "large"}}}}}},
      {"required", {"city", "country", "population", "size"}}};
  return schema;
}

GateAttempt json_gate(GateIo& io, int) {
  json body = {
      {"messages",
       {user("Describe the capital of France as JSON: its name, country, "
             "population and size (small, medium or large).")}},
      {"max_tokens", 256},
      {"response_format",
       {{"type", "json_schema"}, {"json_schema", {{"name", "city"}, {"schema", city_schema()}}}}}};
  const auto r = io.post("/chat/completions", body, false);
  if (auto f = call_failed(r)) return *f;
  const json answer = parse_answer_json(r.content);
  if (answer.is_discarded()) return fail("the answer is not JSON: " + r.content.substr(0, 120));
  if (auto why = json_schema_violation(answer, city_schema()); !why.empty()) return fail(why);
  return pass();
}

GateAttempt streaming_gate(GateIo& io, int attempt) {
  json body = {{"messages",
                {user("Write a short paragraph about lighthouses, variant " +
                      std::to_string(attempt) + ".")}},
               {"max_tokens", 64}};
  const auto whole = io.post("/chat/completions", body, false);
  if (auto f = call_failed(whole)) return *f;
  const auto streamed = io.post("/chat/completions", body, true);
  if (auto f = call_failed(streamed)) return *f;
  if (whole.content.empty()) return fail("empty greedy answer");
  if (streamed.finish_reason.empty()) return fail("the stream ended without a finish_reason");
  if (streamed.content != whole.content)
    return fail("streamed text differs from the non-streamed greedy text");
  return pass();
}

const json& weather_tools() {
  static const json tools = json::array({{{"type", "function"},
                                          {"function",
                                           {{"name", "get_weather"},
                                            {"description", "Current weather of a city"},
                                            {"parameters",
                                             {{"type", "object"},
                                              {"properties", {{"city", {{"type", "string"}}}}},
                                              {"required", {"city"}}}}}}}});
  return tools;
}

// Whether some call's arguments name the city, in any case ("Paris", "paris, France").
bool some_call_names(const std::vector<net::ToolCall>& calls, std::string city) {
  city = text::ascii_lower(city);
  return std::any_of(calls.begin(), calls.end(), [&](const net::ToolCall& call) {
    return text::ascii_lower(call.arguments).find(city) != std::string::npos;
  });
}

GateAttempt tools_gate(GateIo& io, int) {
  json body = {{"messages", {user("What is the weather in Paris and in Tokyo right now?")}},
               {"tools", weather_tools()},
               {"max_tokens", 256}};
  const auto r = io.post("/chat/completions", body, true);
  if (auto f = call_failed(r)) return *f;
  if (r.tool_calls.size() < 2)
    return fail("expected parallel tool calls, got " + std::to_string(r.tool_calls.size()));
  const json& schema = weather_tools()[0]["function"]["parameters"];
  for (const auto& call : r.tool_calls) {
    if (call.name != "get_weather") return fail("unknown tool " + call.name);
    const json args = json::parse(call.arguments, nullptr, false);
    if (args.is_discarded()) return fail("arguments are not JSON: " + call.arguments);
    if (auto why = json_schema_violation(args, schema); !why.empty()) return fail(why);
  }
  // Two calls are not enough: they must ask for both cities (not Paris twice).
  for (const char* city : {"Paris", "Tokyo"})
    if (!some_call_names(r.tool_calls, city)) return fail(std::string("no call asks for ") + city);
  return pass();
}

GateAttempt tool_continuation_gate(GateIo& io, int attempt) {
  const std::string temp = std::to_string(11 + attempt * 7);
  json call = {{"id", "call_1"},
               {"type", "function"},
               {"function", {{"name", "get_weather"}, {"arguments", R"({"city":"Paris"})"}}}};
  json body = {{"messages",
                {user("What is the weather in Paris right now?"),
                 {{"role", "assistant"}, {"content", nullptr}, {"tool_calls", {call}}},
                 {{"role", "tool"},
                  {"tool_call_id", "call_1"},
                  {"content", R"({"temp_c": )" + temp + R"(, "sky": "clear"})"}}}},
               {"tools", weather_tools()},
               {"max_tokens", 128}};
  const auto r = io.post("/chat/completions", body, true);
  if (auto f = call_failed(r)) return *f;
  if (r.content.find(temp) == std::string::npos)
    return fail("the answer does not use the tool result (" + temp + " C)");
  return pass();
}

GateAttempt responses_gate(GateIo& io, int attempt) {
  const Needle n = make_needle(0x7e5 + static_cast<uint64_t>(attempt));
  json body = {{"input", n.sentence() + "\n\n" + n.question()}, {"max_output_tokens", 64}};
  const auto streamed = io.post("/responses", body, true);
  if (auto f = call_failed(streamed)) return *f;
  const auto whole = io.post("/responses", body, false);
  if (auto f = call_failed(whole)) return *f;
  if (streamed.finish_reason.empty()) return fail("the event stream did not complete");
  if (streamed.content != whole.content) return fail("streamed text differs from the response");
  if (!needle_retrieved(streamed.content, n)) return fail("the answer misses " + n.value);
  return pass();
}

GateAttempt session_gate(GateIo& io, int attempt) {
  const Needle n = make_needle(0x5e55 + static_cast<uint64_t>(attempt));
  json messages = json::array({user("Please remember this for later. " + n.sentence())});
  const auto first =
      io.post("/chat/completions", {{"messages", messages}, {"max_tokens", 64}}, true);
  if (auto f = call_failed(first)) return *f;
  messages.push_back({{"role", "assistant"}, {"content", first.content}});
  messages.push_back(user("Thanks. Now a different topic: name three colours."));
  const auto second =
      io.post("/chat/completions", {{"messages", messages}, {"max_tokens", 64}}, true);
  if (auto f = call_failed(second)) return *f;
  messages.push_back({{"role", "assistant"}, {"content", second.content}});
  messages.push_back(
      user("Back to what I asked you to remember: what is the secret " + n.thing + "?"));
  const auto third =
      io.post("/chat/completions", {{"messages", messages}, {"max_tokens", 64}}, true);
  if (auto f = call_failed(third)) return *f;
  if (!needle_retrieved(third.content, n)) return fail("turn 3 does not recall " + n.value);
  return pass();
}

GateAttempt reasoning_gate(GateIo& io, int attempt) {
  for (const char* effort : {"low", "medium", "high"}) {
    const Needle n = make_needle(0x4ea5 + static_cast<uint64_t>(attempt));
    json body = {{"messages", {user(n.sentence() + "\n\n" + n.question())}},
                 {"reasoning_effort", effort},
                 {"max_tokens", 1024}};
    const auto r = io.post("/chat/completions", body, true);
    if (auto f = call_failed(r)) return *f;
    const std::string at = std::string(" at effort ") + effort;
    if (r.reasoning.empty()) return fail("no reasoning" + at);
    if (r.content.find(r.reasoning) != std::string::npos)
      return fail("reasoning mixed into the content" + at);
    if (!needle_retrieved(r.content, n)) return fail("the content does not answer" + at);
  }
  return pass();
}

}  // namespace

const char* to_string(GateOutcome outcome) {
  switch (outcome) {
    case GateOutcome::Pass:
      return "pass";
    case GateOutcome::Fail:
      return "fail";
    case GateOutcome::Unsupported:
      return "unsupported";
  }
  return "fail";
}

bool says_unsupported(const net::StreamResult& r) {
  if (r.http_status == 404 || r.http_status == 501) return true;
  if (r.http_status != 400 && r.http_status != 422) return false;
  const std::string text = text::ascii_lower(r.error_message + " " + r.body);
  for (const char* phrase : {"not supported", "unsupported", "does not support"})
    if (text.find(phrase) != std::string::npos) return true;
  return false;
}

bool says_media_unsupported(const net::StreamResult& r) {
  if (r.http_status == 404 || r.http_status == 501) return true;
  if (r.http_status != 400 && r.http_status != 422) return false;
  const std::string text = text::ascii_lower(r.error_message + " " + r.body);
  // The lane took media but could not read or fetch this one: a bad medium, not a refusal.
  for (const char* phrase : {"failed to fetch media", "failed to load"})
    if (text.find(phrase) != std::string::npos) return false;
  for (const char* word : {"image", "video", "multimodal", "multi-modal", "vision", "mm_per_prompt",
                           "limit-mm-per-prompt", "mmproj"})
    if (text.find(word) != std::string::npos) return true;
  return false;
}

net::StreamResult GateIo::post_prompt(const plan::PromptSpec& prompt, MediaApi api) {
  ChatRequestOptions options;
  options.model = lane_.endpoint.model;
  options.max_tokens = prompt.max_tokens;
  options.server = lane_.probe.kind;
  options.max_media_bytes = lane_.plan.max_media_bytes;
  int64_t t_sched_ns = steady_now_ns();
  RequestBody built = media_api_body(api, prompt, options);
  t_sched_ns += built.media.encode_ns;  // client-side encoding is not queueing
  net::StreamResult result;
  if (!built.refused.empty()) {
    result.error = net::ErrorKind::Refused;
    result.error_message = std::move(built.refused);
    result.t_done_ns = steady_now_ns();
  } else {
    auto req = lane_.endpoint.make_request(media_api_url(lane_.endpoint, api));
    req.dialect = media_api_dialect(api);
    req.body = std::move(built.body);
    req.timeouts.total_ms = request_timeout_ms(ctx_.spec());
    req.max_stream_tokens = stream_token_cap(options.max_tokens);
    result = ctx_.client().fetch(std::move(req));
  }
  record(result, t_sched_ns, std::move(built.media));
  return result;
}

net::StreamResult GateIo::post(const std::string& path, nlohmann::json body, bool stream) {
  body["model"] = lane_.endpoint.model;
  body["temperature"] = 0;
  body["stream"] = stream;
  if (stream && path == "/chat/completions") body["stream_options"] = {{"include_usage", true}};
  auto req = lane_.endpoint.make_request(lane_.endpoint.api_url(path));
  req.stream = stream;
  req.dialect = path == "/responses" ? net::Dialect::OpenAiResponses : net::Dialect::OpenAiChat;
  req.body = std::make_shared<const std::string>(body.dump());
  req.timeouts.total_ms = request_timeout_ms(ctx_.spec());
  if (const auto it = body.find("max_tokens"); it != body.end() && it->is_number_integer())
    req.max_stream_tokens = stream_token_cap(it->get<int64_t>());
  const int64_t t_sched_ns = steady_now_ns();
  net::StreamResult result = ctx_.client().fetch(std::move(req));
  record(result, t_sched_ns);
  return result;
}

void GateIo::record(const net::StreamResult& result, int64_t t_sched_ns,
                    metrics::RequestMedia media) {
  metrics::RequestRecord r;
  r.lane_id = lane_.endpoint.id;
  r.experiment = ctx_.spec().name_or_kind();
  r.phase = check_;
  r.index = next_index_++;
  r.t_sched_ns = t_sched_ns;
  r.media = std::move(media);
  r.result = result;
  // As every phase does: the sink hears of the request once its line is written.
  WrittenFirstSink(ctx_.sink(), ctx_.writer()).record(r);
}

GateAttempt run_gate_check(const std::string& check, GateIo& io, int attempt) {
  if (check == "json") return json_gate(io, attempt);
  if (check == "streaming") return streaming_gate(io, attempt);
  if (check == "tools") return tools_gate(io, attempt);
  if (check == "tool_continuation") return tool_continuation_gate(io, attempt);
  if (check == "responses") return responses_gate(io, attempt);
  if (check == "session") return session_gate(io, attempt);
  if (check == "reasoning") return reasoning_gate(io, attempt);
  return fail("unknown check " + check);
}

}  // namespace lb::run
