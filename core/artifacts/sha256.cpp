#include "core/artifacts/sha256.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace lb::artifacts {

struct Sha256Stream::Context {
  EVP_MD_CTX* md = nullptr;
};

namespace {

void init_digest(EVP_MD_CTX* md) {
  if (EVP_DigestInit_ex(md, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("EVP_DigestInit_ex(sha256) failed");
  }
}

std::string to_hex(const unsigned char* bytes, unsigned int size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(std::size_t{size} * 2, '0');
  for (std::size_t i = 0; i < size; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0x0f];
  }
  return out;
}

bool all_hex(std::string_view text) {
  for (char c : text) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) {
      return false;
    }
  }
  return true;
}

// Closes the descriptor on every return path.
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) {
      ::close(fd);
    }
  }
};

}  // namespace

Sha256Stream::Sha256Stream() : ctx_(std::make_unique<Context>()) {
  ctx_->md = EVP_MD_CTX_new();
  if (!ctx_->md) {
    throw std::runtime_error("EVP_MD_CTX_new failed");
  }
  init_digest(ctx_->md);
}

Sha256Stream::~Sha256Stream() { EVP_MD_CTX_free(ctx_->md); }

void Sha256Stream::update(const void* data, std::size_t size_bytes) {
  if (EVP_DigestUpdate(ctx_->md, data, size_bytes) != 1) {
    throw std::runtime_error("EVP_DigestUpdate failed");
  }
}

std::string Sha256Stream::final_hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx_->md, digest, &size) != 1) {
    throw std::runtime_error("EVP_DigestFinal_ex failed");
  }
  init_digest(ctx_->md);
  return to_hex(digest, size);
}

std::string sha256_hex(std::string_view data) {
  Sha256Stream stream;
  stream.update(data.data(), data.size());
  return stream.final_hex();
}

FileDigest sha256_file(const std::filesystem::path& path, char* buffer, std::size_t buffer_bytes,
                       const ChunkCallback& on_chunk, const std::atomic<bool>* cancel) {
  FileDigest result;
  // O_NONBLOCK: a fifo posing as a file must not block the open; no effect on regular files.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    result.error = std::string("cannot open: ") + std::strerror(errno);
    return result;
  }
  FdCloser closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    result.error = S_ISDIR(st.st_mode) ? "is a directory, not a file" : "not a regular file";
    return result;
  }
  // Sequential hint doubles the kernel's read-ahead window on cold files.
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  Sha256Stream stream;
  for (;;) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      result.cancelled = true;
      return result;
    }
    const ssize_t n = ::read(fd, buffer, buffer_bytes);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      result.error = std::string("read failed after ") + std::to_string(result.size_bytes) +
                     " bytes: " + std::strerror(errno);
      return result;
    }
    if (n == 0) {
      break;
    }
    stream.update(buffer, static_cast<std::size_t>(n));
    result.size_bytes += static_cast<std::uint64_t>(n);
    if (on_chunk) {
      on_chunk(static_cast<std::uint64_t>(n));
    }
  }
  result.sha256 = stream.final_hex();
  return result;
}

bool is_sha256_hex(std::string_view text) { return text.size() == 64 && all_hex(text); }
bool is_sha1_hex(std::string_view text) { return text.size() == 40 && all_hex(text); }

std::string lowercase_hex(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'F') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

}  // namespace lb::artifacts
