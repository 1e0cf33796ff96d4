#pragma once
// Row readers of the trace formats (plan/trace_file.h). Internal to trace reading: each turns one
// line into a timestamp and token counts, or says what is wrong with it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/plan/trace_file.h"

namespace lb::plan::detail {

struct TraceRow {
  int64_t timestamp_ns = 0;  // on the trace's own clock (Azure: since 1970, as written, no zone)
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  std::vector<int64_t> hash_ids;
};

class TraceRowReader {
 public:
  virtual ~TraceRowReader() = default;
  virtual bool has_header() const = 0;
  // The CSV header: finds the columns. Returns "" or what is wrong.
  virtual std::string header(std::string_view line) = 0;
  // One data row. Returns "" or what is wrong.
  virtual std::string row(std::string_view line, TraceRow& out) const = 0;
};

std::unique_ptr<TraceRowReader> make_trace_row_reader(TraceFormat format);

// The format a trace's first non-empty line shows, if any.
std::optional<TraceFormat> detect_trace_format(std::string_view first_line);

// "2023-11-16 18:15:46.6805900" (fraction optional, up to 9 digits; a 'T' may separate date and
// time; years 1970 to 2200) as ns since 1970-01-01 on the clock the trace was written in.
std::optional<int64_t> parse_trace_datetime_ns(std::string_view text);

}  // namespace lb::plan::detail
