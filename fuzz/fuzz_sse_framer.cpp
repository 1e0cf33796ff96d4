// SseFramer on arbitrary bytes cut at fuzzer-chosen read boundaries. Invariants: framing does not
// depend on where reads end (same events as one whole read), a generous limit never trips, and a
// tight limit fails cleanly and stays failed.
#include "core/net/sse_framer.h"
#include "framing_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto make = [](size_t limit_bytes, std::vector<std::string>& events) {
    // Type, id, legacy flag and data in one printable string.
    return lb::net::SseFramer(limit_bytes, [&events](const lb::net::SseEvent& e) {
      events.push_back(std::string(e.type) + '\x1f' + std::string(e.id) + '\x1f' +
                       (e.legacy_error ? "E" : "-") + '\x1f' + std::string(e.data));
    });
  };
  lb::fuzz::check_framing(data, size, make, "data: x\n\n", 64);
  return 0;
}
