#include "core/metrics/value_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace lb::metrics {
namespace {

constexpr size_t kBlockBytes = 64 * 1024;  // written, and read back, this much at a time

std::string spool_dir() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && dir[0] != '\0' ? dir : "/tmp";
}

// An unnamed file in DIR: O_TMPFILE, or where the file system lacks it a named one unlinked at
// once. -1 with the reason in WHY.
int open_unnamed(const std::string& dir, std::string& why) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string name = dir + "/lanebench-spool-XXXXXX";
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) {
    why = "cannot create a spool file in " + dir + ": " + std::strerror(errno);
    return -1;
  }
  ::unlink(name.c_str());
  return fd;
}

bool write_all(int fd, const unsigned char* data, size_t n, std::string& why) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      why = std::string("cannot write the spool file: ") + std::strerror(w < 0 ? errno : ENOSPC);
      return false;
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// False at an error (errno says which) or an early end of the file (errno 0).
bool read_at(int fd, unsigned char* data, size_t n, int64_t offset) {
  errno = 0;
  while (n > 0) {
    const ssize_t r = ::pread(fd, data, n, offset);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) errno = 0;
    if (r <= 0) return false;
    data += r;
    n -= static_cast<size_t>(r);
    offset += r;
  }
  return true;
}

}  // namespace

ByteSpool::ByteSpool(size_t record_bytes) : record_bytes_(record_bytes) {}

ByteSpool::~ByteSpool() {
  if (fd_ >= 0) ::close(fd_);
}

ByteSpool::ByteSpool(ByteSpool&& other) noexcept
    : record_bytes_(other.record_bytes_),
      count_(other.count_),
      fd_(std::exchange(other.fd_, -1)),
      file_bytes_(std::exchange(other.file_bytes_, 0)),
      pending_(std::move(other.pending_)),
      fallback_reason_(std::move(other.fallback_reason_)) {
  other.count_ = 0;
}

ByteSpool& ByteSpool::operator=(ByteSpool&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    record_bytes_ = other.record_bytes_;
    count_ = std::exchange(other.count_, 0);
    fd_ = std::exchange(other.fd_, -1);
    file_bytes_ = std::exchange(other.file_bytes_, 0);
    pending_ = std::move(other.pending_);
    fallback_reason_ = std::move(other.fallback_reason_);
  }
  return *this;
}

void ByteSpool::append(const void* record) {
  const auto* p = static_cast<const unsigned char*>(record);
  pending_.insert(pending_.end(), p, p + record_bytes_);
  ++count_;
  if (fallback_reason_.empty() && pending_.size() >= kBlockBytes) flush();
}

void ByteSpool::fall_back(const std::string& why) const {
  // What reached the file stays there and is still read back; from now on records stay in
  // memory (a partial write's tail beyond file_bytes_ is never read: those records are pending).
  fallback_reason_ = why;
}

void ByteSpool::flush() const {
  if (!fallback_reason_.empty() || pending_.empty()) return;
  std::string why;
  if (fd_ < 0) fd_ = open_unnamed(spool_dir(), why);
  if (fd_ < 0) return fall_back(why);
  if (!write_all(fd_, pending_.data(), pending_.size(), why)) return fall_back(why);
  file_bytes_ += static_cast<int64_t>(pending_.size());
  pending_.clear();
}

void ByteSpool::for_each(const std::function<void(const unsigned char*)>& visit) const {
  if (fd_ >= 0) {
    const size_t per_block = std::max<size_t>(1, kBlockBytes / record_bytes_) * record_bytes_;
    std::vector<unsigned char> block(per_block);
    for (int64_t at = 0; at < file_bytes_;) {
      const auto n = static_cast<size_t>(std::min<int64_t>(per_block, file_bytes_ - at));
      if (!read_at(fd_, block.data(), n, at))
        throw std::runtime_error(std::string("cannot read back the spool file: ") +
                                 (errno != 0 ? std::strerror(errno) : "it ended early"));
      for (size_t i = 0; i < n; i += record_bytes_) visit(block.data() + i);
      at += static_cast<int64_t>(n);
    }
  }
  for (size_t i = 0; i < pending_.size(); i += record_bytes_) visit(pending_.data() + i);
}

}  // namespace lb::metrics
