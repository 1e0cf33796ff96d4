// NdjsonFramer on arbitrary bytes cut at fuzzer-chosen read boundaries: the lines do not depend
// on where reads end, no line is empty or holds a '\n', and a tight limit fails cleanly.
#include <string>
#include <vector>

#include "net/ndjson_framer.h"
#include "split_input.h"

namespace {

struct Framed {
  std::vector<std::string> lines;
  bool final_dispatched = false;
  bool failed = false;
};

Framed frame(const std::vector<std::string_view>& chunks, size_t max_line_bytes) {
  Framed out;
  lb::net::NdjsonFramer framer(max_line_bytes, [&](std::string_view line) {
    if (line.find('\n') != std::string_view::npos || line.empty()) {
      lb::fuzz::invariant_failed("a dispatched line is empty or holds LF");
    }
    out.lines.emplace_back(line);
  });
  for (std::string_view c : chunks) {
    if (!framer.feed(c)) break;
  }
  out.final_dispatched = framer.finish();
  out.failed = framer.failed();
  if (out.failed && (framer.error().empty() || framer.feed("{}\n"))) {
    lb::fuzz::invariant_failed("a failed framer must say why and refuse more bytes");
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const lb::fuzz::SplitInput in = lb::fuzz::split_input(data, size);
  const size_t roomy = in.body.size() + 16;
  const Framed whole = frame({in.body}, roomy);
  const Framed split = frame(lb::fuzz::chunks_of(in), roomy);
  if (whole.failed || split.failed) lb::fuzz::invariant_failed("limit above the input tripped");
  if (whole.lines != split.lines || whole.final_dispatched != split.final_dispatched) {
    lb::fuzz::invariant_failed("lines depend on where the reads were cut");
  }
  frame(lb::fuzz::chunks_of(in), 32);  // the failure path: must not crash or leak
  return 0;
}
