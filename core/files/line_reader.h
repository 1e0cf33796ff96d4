#pragma once
// Line by line through a file that comes from elsewhere (a run folder's requests.jsonl): only a
// regular file is read (a FIFO is refused, never waited on), in blocks, and a line longer than a
// stated size is skipped and counted instead of being gathered whole.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace lb::files {

struct LineCounts {
  int64_t lines = 0;     // handed to the callback
  int64_t too_long = 0;  // longer than max_line_bytes: skipped
};

// Calls LINE with each line of PATH, without its '\n' (a last line without one too). False with
// *error ("PATH: a FIFO, not a regular file; refused") when PATH cannot be opened as a regular
// file or a read fails part way (the lines before it were handed on).
bool read_lines(const std::string& path, size_t max_line_bytes,
                const std::function<void(std::string_view line)>& line, LineCounts* counts,
                std::string* error);

}  // namespace lb::files
