// NdjsonFramer on arbitrary bytes cut at fuzzer-chosen read boundaries: the lines do not depend
// on where reads end, no line is empty or holds a '\n', and a tight limit fails cleanly.
#include "core/net/ndjson_framer.h"
#include "framing_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto make = [](size_t limit_bytes, std::vector<std::string>& lines) {
    return lb::net::NdjsonFramer(limit_bytes, [&lines](std::string_view line) {
      if (line.find('\n') != std::string_view::npos || line.empty()) {
        lb::fuzz::invariant_failed("a dispatched line is empty or holds LF");
      }
      lines.emplace_back(line);
    });
  };
  lb::fuzz::check_framing(data, size, make, "{}\n", 32);
  return 0;
}
