#pragma once
// The wire fixtures that are response streams, with the dialect each is parsed in.
#include <string>
#include <vector>

#include "core/net/http_types.h"
#include "core/net/stream_parser.h"
#include "wire_fixture.h"

namespace lb::net::testing {

struct FixtureStream {
  const char* file;
  Dialect dialect;
};

inline const std::vector<FixtureStream>& fixture_streams() {
  static const std::vector<FixtureStream> all = {
      {"vllm_chat_stream.sse", Dialect::OpenAiChat},
      {"vllm_chat_stream_logprobs.sse", Dialect::OpenAiChat},
      {"vllm_chat_stream_tool_calls.sse", Dialect::OpenAiChat},
      {"vllm_completions_stream.sse", Dialect::OpenAiCompletions},
      {"vllm_stream_error.sse", Dialect::OpenAiChat},
      {"vllm_responses_stream.sse", Dialect::OpenAiResponses},
      {"sglang_chat_stream.sse", Dialect::OpenAiChat},
      {"sglang_stream_error.sse", Dialect::OpenAiChat},
      {"llamacpp_chat_stream.sse", Dialect::OpenAiChat},
      {"llamacpp_stream_error.sse", Dialect::OpenAiChat},
      {"tgi_chat_stream.sse", Dialect::OpenAiChat},
      {"tgi_generate_stream.sse", Dialect::TgiGenerate},
      {"ollama_v1_chat_stream.sse", Dialect::OpenAiChat},
      {"ollama_api_chat.ndjson.txt", Dialect::OllamaChat},
      {"sse_edge_crlf_ping.sse", Dialect::OpenAiChat},
      {"sse_edge_error_event.sse", Dialect::OpenAiChat},
      {"sse_edge_no_space_comments_event_no_done.sse", Dialect::OpenAiChat},
      {"sse_edge_tcp_split.sse", Dialect::OpenAiChat},
      {"llamacpp_chat_stream_logprobs.sse", Dialect::OpenAiChat},
      {"sglang_chat_stream_logprobs.sse", Dialect::OpenAiChat},
      {"vllm_completions_stream_logprobs.sse", Dialect::OpenAiCompletions},
      {"ollama_api_chat_logprobs.ndjson.txt", Dialect::OllamaChat},
      {"tgi_generate_stream_top_tokens.sse", Dialect::TgiGenerate},
      {"logprobs_bad_values.sse", Dialect::OpenAiChat},
  };
  return all;
}

// The bytes a server sends for this fixture. The NDJSON fixture's ':' documentation lines are
// not NDJSON, so they are dropped; SSE fixtures are sent verbatim (':' lines are comments).
inline std::string fixture_wire_bytes(const FixtureStream& f) {
  std::string bytes = lb::test::load_fixture(std::string("wire/") + f.file);
  if (f.dialect == Dialect::OllamaChat) bytes = lb::test::strip_leading_comment_lines(bytes, ':');
  return bytes;
}

// Parses `bytes` cut at `cuts` (ascending offsets); each read gets arrival time = its index.
inline StreamResult parse_split(Dialect dialect, const std::string& bytes,
                                const std::vector<size_t>& cuts, size_t limit = 8 << 20) {
  StreamResult result;
  StreamParser parser(dialect, limit, result);
  size_t pos = 0;
  int64_t read = 0;
  for (size_t cut : cuts) {
    if (!parser.feed(std::string_view(bytes).substr(pos, cut - pos), ++read)) {
      resolve_logprobs(result);
      return result;
    }
    pos = cut;
  }
  if (parser.feed(std::string_view(bytes).substr(pos), ++read)) parser.finish(read);
  resolve_logprobs(result);
  return result;
}

}  // namespace lb::net::testing
