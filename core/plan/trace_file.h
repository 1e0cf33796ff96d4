#pragma once
// Request traces for replay (docs/traces.md): Mooncake JSONL, the Azure LLM inference trace CSV
// and BurstGPT CSV, read into one schedule of requests with offsets from the first. Rows are kept
// in file order: a timestamp that goes backwards, or a gap longer than the allowed one, is
// reported with its file and line, never sorted away. Errors read "FILE:LINE: message".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::plan {

enum class TraceFormat { Auto, Mooncake, Azure, BurstGpt };

// "auto", "mooncake", "azure", "burstgpt".
const char* to_string(TraceFormat format);
std::optional<TraceFormat> trace_format_from_string(std::string_view name);
const std::vector<std::string>& trace_format_names();

// Mooncake's hash ids each stand for a block of this many prompt tokens.
inline constexpr int64_t kTraceBlockTokens = 512;

struct TraceRequest {
  int64_t offset_ns = 0;  // from the first request of the trace, in trace time
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  std::vector<int64_t> hash_ids;  // Mooncake only: block i covers tokens [512 i, 512 (i + 1))
  int64_t line = 0;               // 1-based line of the row in its file
};

struct TraceReadOptions {
  TraceFormat format = TraceFormat::Auto;
  bool skip_bad_rows = false;  // skip (and count) malformed rows instead of failing
  double max_gap_s = 0;        // > 0: a gap longer than this between rows is an error
  int64_t max_requests = 0;    // > 0: stop after this many requests
  int64_t max_offset_ns = 0;   // > 0: stop before the first request at or after this offset
};

struct Trace {
  TraceFormat format = TraceFormat::Auto;  // as detected or given, never Auto
  std::vector<TraceRequest> requests;      // file order; offsets non-decreasing
  int64_t skipped_rows = 0;                // malformed rows skipped under skip_bad_rows
  std::vector<std::string> skipped;        // the first few skipped rows' errors
  bool truncated = false;                  // max_requests or max_offset_ns cut the trace
};

struct TraceReadResult {
  std::optional<Trace> trace;       // set only when errors is empty
  std::vector<std::string> errors;  // "FILE:LINE: message" (or "FILE: message")
  bool ok() const { return trace.has_value() && errors.empty(); }
  std::string error_text() const;  // one error per line
};

// `source_name` names the file in messages.
TraceReadResult read_trace_text(std::string_view text, std::string_view source_name,
                                const TraceReadOptions& options);
TraceReadResult read_trace_file(const std::string& path, const TraceReadOptions& options);

}  // namespace lb::plan
