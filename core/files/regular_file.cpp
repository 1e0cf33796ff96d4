#include "core/files/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lb::files {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a link";
  return "not a regular file";
}

int no_file(std::string* error, const std::string& message) {
  if (error) *error = message;
  return -1;
}

}  // namespace

int open_regular_file(const std::string& path, std::string* error, Links links) {
  // O_NONBLOCK: a FIFO's open would wait for a writer. It is dropped once the file is known to
  // be regular (where it means nothing anyway).
  int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  if (links == Links::Refuse) flags |= O_NOFOLLOW;
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    if (errno == ELOOP && links == Links::Refuse)
      return no_file(error, path + ": a link, which is not followed; refused");
    return no_file(error, path + ": cannot read the file (" + std::strerror(errno) + ")");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const std::string kind = kind_of(st.st_mode);
    ::close(fd);
    return no_file(error, path + ": " + kind + ", not a regular file; refused");
  }
  ::fcntl(fd, F_SETFL, O_RDONLY);
  return fd;
}

std::string error_reason(const std::string& error, const std::string& path) {
  const std::string prefix = path + ": ";
  return error.rfind(prefix, 0) == 0 ? error.substr(prefix.size()) : error;
}

long read_up_to(int fd, char* buffer, size_t size) {
  size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, buffer + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  return static_cast<long>(got);
}

std::optional<std::string> read_regular_file(const std::string& path, size_t max_bytes,
                                             std::string* error, Links links) {
  const int fd = open_regular_file(path, error, links);
  if (fd < 0) return std::nullopt;
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0)
    text.reserve(std::min(static_cast<size_t>(st.st_size), max_bytes) + 1);
  char chunk[64 * 1024];
  long n = 0;
  // One byte past the limit tells a file at the limit from a larger one.
  while ((n = read_up_to(fd, chunk, std::min(sizeof chunk, max_bytes + 1 - text.size()))) > 0) {
    text.append(chunk, static_cast<size_t>(n));
    if (text.size() > max_bytes) break;
  }
  ::close(fd);
  if (n < 0)
    return no_file(error, path + ": cannot read the file (" + std::strerror(errno) + ")"),
           std::nullopt;
  if (text.size() > max_bytes) {
    const std::string limit = max_bytes >= kMiB ? std::to_string(max_bytes / kMiB) + " MiB"
                                                : std::to_string(max_bytes) + " bytes";
    no_file(error, path + ": larger than " + limit + "; refused");
    return std::nullopt;
  }
  return text;
}

}  // namespace lb::files
