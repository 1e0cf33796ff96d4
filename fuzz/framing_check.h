#pragma once
// The invariants shared by the SSE and NDJSON framing targets, on one fuzz input: framing does not
// depend on where reads end (the same items as one whole read), a limit above the input never
// trips, and a tight limit fails cleanly (a reason given, more bytes refused) and stays failed.
#include <string>
#include <string_view>
#include <vector>

#include "split_input.h"

namespace lb::fuzz {

struct Framed {
  std::vector<std::string> items;  // each dispatched line or event, as a comparable string
  bool final_dispatched = false;
  bool failed = false;
};

// MAKE(limit_bytes, items) returns a framer (feed, finish, failed, error) whose callback appends
// to ITEMS. PROBE is one complete item in its format, fed to a failed framer.
template <typename MakeFramer>
Framed frame(const std::vector<std::string_view>& chunks, size_t limit_bytes,
             const MakeFramer& make, std::string_view probe) {
  Framed out;
  auto framer = make(limit_bytes, out.items);
  for (std::string_view c : chunks) {
    if (!framer.feed(c)) break;
  }
  out.final_dispatched = framer.finish();
  out.failed = framer.failed();
  if (out.failed && (framer.error().empty() || framer.feed(probe))) {
    invariant_failed("a failed framer must say why and refuse more bytes");
  }
  return out;
}

template <typename MakeFramer>
void check_framing(const uint8_t* data, size_t size, const MakeFramer& make, std::string_view probe,
                   size_t tight_limit_bytes) {
  const SplitInput in = split_input(data, size);
  const size_t roomy = in.body.size() + 16;
  const Framed whole = frame({in.body}, roomy, make, probe);
  const Framed split = frame(chunks_of(in), roomy, make, probe);
  if (whole.failed || split.failed) invariant_failed("limit above the input tripped");
  if (whole.items != split.items || whole.final_dispatched != split.final_dispatched) {
    invariant_failed("framing depends on where the reads were cut");
  }
  frame(chunks_of(in), tight_limit_bytes, make, probe);  // the failure path: no crash or leak
}

}  // namespace lb::fuzz
