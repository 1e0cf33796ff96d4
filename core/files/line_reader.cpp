#include "core/files/line_reader.h"

#include <unistd.h>

#include <vector>

#include "core/files/regular_file.h"

namespace lb::files {

bool read_lines(const std::string& path, size_t max_line_bytes,
                const std::function<void(std::string_view line)>& line, LineCounts* counts,
                std::string* error) {
  LineCounts seen;
  const int fd = open_regular_file(path, error);
  if (fd < 0) return false;
  constexpr size_t kBlockBytes = 1 << 20;
  std::vector<char> block(kBlockBytes);
  std::string pending;    // the start of a line cut by the block's end
  bool skipping = false;  // within a line that is already too long
  auto hand_on = [&](std::string_view text) {
    if (skipping || text.size() > max_line_bytes) {
      ++seen.too_long;
    } else {
      line(text);
      ++seen.lines;
    }
    skipping = false;
  };
  long n = 0;
  while ((n = read_up_to(fd, block.data(), block.size())) > 0) {
    std::string_view rest(block.data(), static_cast<size_t>(n));
    for (size_t eol; (eol = rest.find('\n')) != std::string_view::npos;
         rest.remove_prefix(eol + 1)) {
      if (pending.empty()) {
        hand_on(rest.substr(0, eol));
      } else {
        pending.append(rest.data(), eol);
        hand_on(pending);
        pending.clear();
      }
    }
    if (!skipping && pending.size() + rest.size() > max_line_bytes) {
      skipping = true;  // count it once its end comes; hold none of it meanwhile
      pending.clear();
    }
    if (!skipping) pending.append(rest);
  }
  ::close(fd);
  if (!pending.empty() || skipping) hand_on(pending);
  if (counts) *counts = seen;
  if (n < 0) {
    if (error) *error = path + ": cannot be read to its end";
    return false;
  }
  return true;
}

}  // namespace lb::files
