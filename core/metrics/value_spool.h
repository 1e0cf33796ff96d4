#pragma once
// An append-only sequence of fixed-size values kept in an unnamed file instead of memory, read
// back in order block by block: what a long phase's summary needs from every request without
// holding every request. The file is created unlinked in $TMPDIR (or /tmp), so nothing is left
// behind when the process ends, however it ends. Should the file not be created, or a write
// fail (a full disk), what reached the file stays there and the records from then on stay in
// memory: the figures stay exact and only the memory bound is lost, which memory_fallback()
// tells.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace lb::metrics {

// The untyped core: records of `record_bytes` each.
class ByteSpool {
 public:
  explicit ByteSpool(size_t record_bytes);
  ~ByteSpool();
  ByteSpool(ByteSpool&& other) noexcept;
  ByteSpool& operator=(ByteSpool&& other) noexcept;
  ByteSpool(const ByteSpool&) = delete;
  ByteSpool& operator=(const ByteSpool&) = delete;

  void append(const void* record);
  // Each record in append order; `visit` gets a pointer to record_bytes bytes.
  void for_each(const std::function<void(const unsigned char*)>& visit) const;
  int64_t size() const { return count_; }
  bool memory_fallback() const { return !fallback_reason_.empty(); }
  // Why the spool keeps its records in memory; empty while it has a file.
  const std::string& fallback_reason() const { return fallback_reason_; }

 private:
  void flush() const;
  void fall_back(const std::string& why) const;

  size_t record_bytes_;
  int64_t count_ = 0;
  mutable int fd_ = -1;
  mutable int64_t file_bytes_ = 0;              // written to the file so far
  mutable std::vector<unsigned char> pending_;  // not yet written (all of it in memory mode)
  mutable std::string fallback_reason_;
};

template <class T>
class ValueSpool {
  static_assert(std::is_trivially_copyable_v<T>, "a spool stores raw bytes");

 public:
  ValueSpool() : bytes_(sizeof(T)) {}
  void append(const T& value) { bytes_.append(&value); }
  template <class Visit>
  void for_each(Visit&& visit) const {
    bytes_.for_each([&](const unsigned char* p) {
      T value;
      std::memcpy(&value, p, sizeof(T));
      visit(value);
    });
  }
  int64_t size() const { return bytes_.size(); }
  bool memory_fallback() const { return bytes_.memory_fallback(); }
  const std::string& fallback_reason() const { return bytes_.fallback_reason(); }

 private:
  ByteSpool bytes_;
};

}  // namespace lb::metrics
