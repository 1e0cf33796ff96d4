#pragma once
// Reading files that come from elsewhere (plans, prompt sets, traces, run folders, imports).
// Such a path may name a FIFO (an open that never returns), a device (/dev/zero never ends) or
// a socket; only regular files are read, and whole-file reads stop at a stated size.
#include <cstddef>
#include <optional>
#include <string>

namespace lb::files {

inline constexpr size_t kMiB = size_t{1} << 20;

enum class Links {
  Follow,  // a link to a regular file is read (the user's own plan may be a link)
  Refuse,  // a link is refused: the file is copied out of a shared folder
};

// A read-only descriptor (O_CLOEXEC, blocking) for PATH when it is a regular file, else -1 and
// *error naming the file and what it is. Never blocks on a FIFO.
int open_regular_file(const std::string& path, std::string* error, Links links = Links::Follow);

// The whole of PATH when it is a regular file of at most MAX_BYTES, else nullopt and *error
// ("PATH: larger than N MiB; refused", "PATH: a FIFO, not a regular file; refused", ...).
std::optional<std::string> read_regular_file(const std::string& path, size_t max_bytes,
                                             std::string* error, Links links = Links::Follow);

// ERROR of one of the readers above without its leading "PATH: ": what the file is or why it
// could not be read, for a caller that words the path itself.
std::string error_reason(const std::string& error, const std::string& path);

// Reads up to SIZE bytes (fewer only at the end of the file or on an error); -1 on an error.
long read_up_to(int fd, char* buffer, size_t size);

}  // namespace lb::files
