#pragma once
// The outcome of reading encoded bytes: a value, or an error that says what is wrong with them.
#include <optional>
#include <string>

namespace lb::media {

template <class T>
struct Decoded {
  std::optional<T> value;
  std::string error;  // set when value is empty
  bool ok() const { return value.has_value(); }
  static Decoded fail(std::string message) { return {std::nullopt, std::move(message)}; }
};

// Encoded bytes, or an error (bad dimensions, encoder failure).
struct Encoded {
  std::string bytes;
  std::string error;
  bool ok() const { return error.empty(); }
};

}  // namespace lb::media
