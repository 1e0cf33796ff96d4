// StreamParser (framing + a server dialect's JSON handling) on arbitrary bytes. Byte 0 picks the
// dialect; the rest is a split input (split_input.h). Invariants: the StreamResult does not depend
// on where the reads were cut, and the same bytes parsed as a non-streamed document do not crash.
#include <string>
#include <vector>

#include "core/net/stream_parser.h"
#include "split_input.h"
#include "tests/core/net/result_fingerprint.h"

namespace {

using lb::net::Dialect;

constexpr Dialect kDialects[] = {Dialect::OpenAiChat, Dialect::OpenAiCompletions,
                                 Dialect::OpenAiResponses, Dialect::TgiGenerate,
                                 Dialect::OllamaChat};

std::string parse(Dialect dialect, const std::vector<std::string_view>& chunks, bool& terminal) {
  lb::net::StreamResult result;
  lb::net::StreamParser parser(dialect, 1 << 20, result);
  int64_t arrival_ns = 1;
  for (std::string_view c : chunks) {
    if (!parser.feed(c, arrival_ns++)) break;
  }
  parser.finish(arrival_ns);
  terminal = parser.terminal();
  for (const auto& e : result.events) {
    if (e.arrival_ns < 1 || e.arrival_ns > arrival_ns) {
      lb::fuzz::invariant_failed("an event arrived outside the reads");
    }
  }
  return lb::net::testing::fingerprint(result);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const Dialect dialect = kDialects[data[0] % std::size(kDialects)];
  const lb::fuzz::SplitInput in = lb::fuzz::split_input(data + 1, size - 1);
  bool whole_terminal = false;
  bool split_terminal = false;
  const std::string whole = parse(dialect, {in.body}, whole_terminal);
  const std::string split = parse(dialect, lb::fuzz::chunks_of(in), split_terminal);
  if (whole != split || whole_terminal != split_terminal) {
    std::fprintf(stderr, "whole:\n%s\nsplit:\n%s\n", whole.c_str(), split.c_str());
    lb::fuzz::invariant_failed("the result depends on where the reads were cut");
  }
  lb::net::StreamResult doc;
  lb::net::StreamParser(dialect, 1 << 20, doc).parse_document(in.body, 1);
  (void)lb::net::testing::fingerprint(doc);
  return 0;
}
