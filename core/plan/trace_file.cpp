#include "core/plan/trace_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <istream>
#include <memory>
#include <sstream>

#include "core/files/regular_file.h"
#include "core/plan/trace_rows.h"

namespace lb::plan {
namespace {

constexpr size_t kSkippedShown = 10;

std::string at_line(std::string_view source, int64_t line, const std::string& message) {
  return std::string(source) + ":" + std::to_string(line) + ": " + message;
}

std::string seconds_text(int64_t ns) {
  std::ostringstream out;
  out << static_cast<double>(ns) / 1e9 << " s";
  return out.str();
}

// Reads rows one line at a time, so a trace of millions of rows is never held as text.
class TraceScanner {
 public:
  TraceScanner(std::istream& in, std::string_view source, const TraceReadOptions& options)
      : in_(in), source_(source), options_(options) {}

  TraceReadResult scan() {
    if (!open_format()) {
      return finish();
    }
    std::string line;
    while (next_line(line) && !stop_) {
      add_row(line);
      if (errors_.size() >= kSkippedShown) {
        break;  // enough to fix the file by
      }
    }
    if (errors_.empty() && trace_.requests.empty()) {
      errors_.push_back(std::string(source_) + ": the trace holds no requests" +
                        (trace_.skipped_rows > 0
                             ? " (" + std::to_string(trace_.skipped_rows) + " bad rows skipped)"
                             : std::string()));
    }
    return finish();
  }

 private:
  bool next_line(std::string& line) {
    while (std::getline(in_, line)) {
      ++line_no_;
      if (line.find_first_not_of(" \t\r") != std::string::npos) {
        return true;
      }
    }
    return false;
  }

  // Finds the format (from the first non-empty line when not given) and reads the CSV header.
  bool open_format() {
    std::string first;
    if (!next_line(first)) {
      errors_.push_back(std::string(source_) + ": the trace is empty");
      return false;
    }
    if (first.rfind("\xEF\xBB\xBF", 0) == 0) {
      first.erase(0, 3);  // a UTF-8 byte order mark
    }
    TraceFormat format = options_.format;
    const auto seen = detail::detect_trace_format(first);
    if (format == TraceFormat::Auto) {
      if (!seen) {
        errors_.push_back(at_line(source_, line_no_,
                                  "cannot tell the trace format from this line; expected a "
                                  "Mooncake JSON object or an Azure or BurstGPT CSV header "
                                  "(or give 'format')"));
        return false;
      }
      format = *seen;
    }
    trace_.format = format;
    reader_ = detail::make_trace_row_reader(format);
    if (!reader_->has_header()) {
      add_row(first);
      return true;
    }
    if (std::string e = reader_->header(first); !e.empty()) {
      errors_.push_back(at_line(source_, line_no_, e + " (format " + to_string(format) + ")"));
      return false;
    }
    return true;
  }

  void bad_row(const std::string& message) {
    const std::string text = at_line(source_, line_no_, message);
    if (!options_.skip_bad_rows) {
      errors_.push_back(text);
      return;
    }
    ++trace_.skipped_rows;
    if (trace_.skipped.size() < kSkippedShown) {
      trace_.skipped.push_back(text);
    }
  }

  void add_row(const std::string& line) {
    detail::TraceRow row;
    if (std::string e = reader_->row(line, row); !e.empty()) {
      bad_row(e);
      return;
    }
    if (!trace_.requests.empty() && !in_order(row)) {
      return;
    }
    if (trace_.requests.empty()) {
      first_ns_ = row.timestamp_ns;
    }
    const int64_t offset_ns = row.timestamp_ns - first_ns_;
    if (options_.max_offset_ns > 0 && offset_ns >= options_.max_offset_ns) {
      trace_.truncated = true;
      stop_ = true;
      return;
    }
    last_ns_ = row.timestamp_ns;
    last_line_ = line_no_;
    trace_.requests.push_back(
        {offset_ns, row.input_tokens, row.output_tokens, std::move(row.hash_ids), line_no_});
    if (options_.max_requests > 0 &&
        static_cast<int64_t>(trace_.requests.size()) >= options_.max_requests) {
      trace_.truncated = next_line_exists();
      stop_ = true;
    }
  }

  // Backwards timestamps and long gaps are the trace's own shape gone wrong: reported, and the
  // rows never reordered.
  bool in_order(const detail::TraceRow& row) {
    if (row.timestamp_ns < last_ns_) {
      bad_row("timestamp goes backwards by " + seconds_text(last_ns_ - row.timestamp_ns) +
              " from line " + std::to_string(last_line_) +
              "; rows are replayed in file order and never reordered");
      return false;
    }
    const auto max_gap_ns = static_cast<int64_t>(options_.max_gap_s * 1e9);
    if (max_gap_ns > 0 && row.timestamp_ns - last_ns_ > max_gap_ns) {
      errors_.push_back(at_line(source_, line_no_,
                                "gap of " + seconds_text(row.timestamp_ns - last_ns_) +
                                    " after line " + std::to_string(last_line_) +
                                    " is longer than max_gap_s (" + seconds_text(max_gap_ns) +
                                    ")"));
      last_ns_ = row.timestamp_ns;  // the rows after it are judged from here
      last_line_ = line_no_;
      return false;
    }
    return true;
  }

  bool next_line_exists() {
    std::string line;
    return next_line(line);
  }

  TraceReadResult finish() {
    TraceReadResult result;
    result.errors = std::move(errors_);
    if (result.errors.empty()) {
      result.trace = std::move(trace_);
    }
    return result;
  }

  std::istream& in_;
  std::string_view source_;
  const TraceReadOptions& options_;
  std::unique_ptr<detail::TraceRowReader> reader_;
  Trace trace_;
  std::vector<std::string> errors_;
  int64_t line_no_ = 0;
  int64_t first_ns_ = 0;
  int64_t last_ns_ = 0;
  int64_t last_line_ = 0;
  bool stop_ = false;
};

}  // namespace

const char* to_string(TraceFormat format) {
  switch (format) {
    case TraceFormat::Auto:
      return "auto";
    case TraceFormat::Mooncake:
      return "mooncake";
    case TraceFormat::Azure:
      return "azure";
    case TraceFormat::BurstGpt:
      return "burstgpt";
  }
  return "auto";
}

const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> names = {"auto", "mooncake", "azure", "burstgpt"};
  return names;
}

std::optional<TraceFormat> trace_format_from_string(std::string_view name) {
  for (TraceFormat f :
       {TraceFormat::Auto, TraceFormat::Mooncake, TraceFormat::Azure, TraceFormat::BurstGpt}) {
    if (name == to_string(f)) {
      return f;
    }
  }
  return std::nullopt;
}

std::string TraceReadResult::error_text() const {
  std::string out;
  for (const auto& e : errors) {
    out += e + "\n";
  }
  return out;
}

TraceReadResult read_trace_text(std::string_view text, std::string_view source_name,
                                const TraceReadOptions& options) {
  std::istringstream in{std::string(text)};
  return TraceScanner(in, source_name, options).scan();
}

TraceReadResult read_trace_file(const std::string& path, const TraceReadOptions& options) {
  // A FIFO would block the plan's loading and /dev/zero never ends: only a regular file is
  // read (it is checked, then opened by name: a trace is streamed, not held whole).
  std::string error;
  const int fd = files::open_regular_file(path, &error);
  if (fd < 0) {
    TraceReadResult result;
    std::error_code ec;
    result.errors.push_back(path + ": cannot read the trace file" +
                            (std::filesystem::exists(path, ec)
                                 ? " (" + files::error_reason(error, path) + ")"
                                 : std::string()));
    return result;
  }
  ::close(fd);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    TraceReadResult result;
    result.errors.push_back(path + ": cannot read the trace file");
    return result;
  }
  return TraceScanner(in, path, options).scan();
}

}  // namespace lb::plan
