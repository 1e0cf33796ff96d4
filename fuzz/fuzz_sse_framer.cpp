// SseFramer on arbitrary bytes cut at fuzzer-chosen read boundaries. Invariants: framing does not
// depend on where reads end (same events as one whole read), a generous limit never trips, and a
// tight limit fails cleanly and stays failed.
#include <string>
#include <vector>

#include "net/sse_framer.h"
#include "split_input.h"

namespace {

struct Framed {
  std::vector<std::string> events;  // type, id, legacy flag and data in one printable string
  bool final_dispatched = false;
  bool failed = false;
};

Framed frame(const std::vector<std::string_view>& chunks, size_t max_event_bytes) {
  Framed out;
  lb::net::SseFramer framer(max_event_bytes, [&](const lb::net::SseEvent& e) {
    out.events.push_back(std::string(e.type) + '\x1f' + std::string(e.id) + '\x1f' +
                         (e.legacy_error ? "E" : "-") + '\x1f' + std::string(e.data));
  });
  for (std::string_view c : chunks) {
    if (!framer.feed(c)) break;
  }
  out.final_dispatched = framer.finish();
  out.failed = framer.failed();
  if (out.failed && (framer.error().empty() || framer.feed("data: x\n\n"))) {
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
  if (whole.events != split.events || whole.final_dispatched != split.final_dispatched) {
    lb::fuzz::invariant_failed("events depend on where the reads were cut");
  }
  frame(lb::fuzz::chunks_of(in), 64);  // the failure path: must not crash or leak
  return 0;
}
