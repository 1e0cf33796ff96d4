// parse_prometheus_text on arbitrary bytes: never crashes, every issue names a line of the input,
// every sample has a name and belongs to a family the snapshot lists, and the lookups agree.
#include <algorithm>
#include <string_view>

#include "core/metrics/prometheus_text.h"
#include "split_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const lb::metrics::PrometheusSnapshot snap = lb::metrics::parse_prometheus_text(text);
  const int line_count = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const auto& issue : snap.issues) {
    if (issue.line < 1 || issue.line > line_count || issue.message.empty()) {
      lb::fuzz::invariant_failed("an issue names no line of the input or says nothing");
    }
  }
  for (const auto& s : snap.samples) {
    if (s.name.empty()) lb::fuzz::invariant_failed("a sample without a name");
    if (!snap.families.count(s.family)) lb::fuzz::invariant_failed("a sample's family is unlisted");
    if (snap.find(s.name).empty() || !snap.sum(s.name)) {
      lb::fuzz::invariant_failed("find/sum miss a parsed sample");
    }
    (void)lb::metrics::to_string(snap.type_of_family(s.family));
  }
  return 0;
}
