// read_trace_text (Mooncake JSONL, Azure and BurstGPT CSV) on arbitrary bytes: never crashes, a
// rejected trace says why with its source name, and an accepted trace is a schedule the replay
// can send: not empty, starting at 0, offsets non-decreasing, rows in file order, token counts
// within bounds, skipped rows counted. The first byte picks the options: bits 0-1 the format
// (auto, mooncake, azure, burstgpt), bit 2 skip_bad_rows, bit 3 a 60 s max_gap_s, bit 4 a cut
// at 5 requests.
#include <string_view>

#include "core/plan/trace_file.h"
#include "split_input.h"

namespace {

lb::plan::TraceReadOptions options_from(uint8_t bits) {
  lb::plan::TraceReadOptions o;
  const lb::plan::TraceFormat formats[] = {
      lb::plan::TraceFormat::Auto, lb::plan::TraceFormat::Mooncake, lb::plan::TraceFormat::Azure,
      lb::plan::TraceFormat::BurstGpt};
  o.format = formats[bits & 3];
  o.skip_bad_rows = (bits & 4) != 0;
  o.max_gap_s = (bits & 8) != 0 ? 60 : 0;
  o.max_requests = (bits & 16) != 0 ? 5 : 0;
  return o;
}

void check_accepted(const lb::plan::Trace& t, const lb::plan::TraceReadOptions& o) {
  if (t.requests.empty()) lb::fuzz::invariant_failed("an accepted trace without requests");
  if (t.requests.front().offset_ns != 0) lb::fuzz::invariant_failed("first offset is not 0");
  if (o.max_requests > 0 && static_cast<int64_t>(t.requests.size()) > o.max_requests)
    lb::fuzz::invariant_failed("more requests than max_requests");
  if (t.skipped_rows < static_cast<int64_t>(t.skipped.size()) ||
      (!o.skip_bad_rows && t.skipped_rows))
    lb::fuzz::invariant_failed("skipped rows miscounted");
  for (size_t i = 0; i < t.requests.size(); ++i) {
    const auto& r = t.requests[i];
    if (r.input_tokens < 1 || r.output_tokens < 1 || r.input_tokens > 10'000'000 ||
        r.output_tokens > 10'000'000)
      lb::fuzz::invariant_failed("token counts out of bounds");
    if (i > 0 && (r.offset_ns < t.requests[i - 1].offset_ns || r.line <= t.requests[i - 1].line))
      lb::fuzz::invariant_failed("requests out of file order");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const lb::plan::TraceReadOptions o = options_from(data[0]);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const lb::plan::TraceReadResult r = lb::plan::read_trace_text(text, "fuzz.trace", o);
  if (!r.ok()) {
    if (r.errors.empty()) lb::fuzz::invariant_failed("a rejected trace without an error");
    for (const auto& e : r.errors)
      if (e.rfind("fuzz.trace:", 0) != 0) lb::fuzz::invariant_failed("an error without its file");
    return 0;
  }
  check_accepted(*r.trace, o);
  return 0;
}
