#pragma once
// SHA-256 through OpenSSL EVP: one-shot for memory, streaming for files (large sequential reads,
// so hashing runs at the digest's speed rather than the syscall rate).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace lb::artifacts {

// Read size for file hashing: large enough that read() and EVP call overhead vanish next to the
// digest itself, small enough that progress and cancellation stay responsive (~1 ms at 2 GB/s).
inline constexpr std::size_t kHashChunkBytes = std::size_t{2} << 20;

class Sha256Stream {
 public:
  Sha256Stream();
  ~Sha256Stream();
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;

  void update(const void* data, std::size_t size_bytes);
  std::string final_hex();  // lowercase, 64 characters; the stream is reset afterwards

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

std::string sha256_hex(std::string_view data);

struct FileDigest {
  std::string sha256;  // empty when error is set
  std::uint64_t size_bytes = 0;
  std::string error;  // "" on success; otherwise why the file could not be read to the end
  bool cancelled = false;
  bool ok() const { return error.empty() && !cancelled; }
};

// Called after each chunk with the bytes just read.
using ChunkCallback = std::function<void(std::uint64_t chunk_bytes)>;

// Streams the file through SHA-256 with `buffer` (at least one chunk long, reused across files).
// Stops early, with cancelled set, once *cancel becomes true.
FileDigest sha256_file(const std::filesystem::path& path, char* buffer, std::size_t buffer_bytes,
                       const ChunkCallback& on_chunk = {},
                       const std::atomic<bool>* cancel = nullptr);

bool is_sha256_hex(std::string_view text);  // 64 hex digits, either case
bool is_sha1_hex(std::string_view text);    // 40 hex digits, either case (git blob names)
std::string lowercase_hex(std::string_view text);

}  // namespace lb::artifacts
