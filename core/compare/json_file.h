#pragma once
// Review files (review.json, sampled_review.json) written whole or not at all, and read back with
// errors that name the file.
#include <exception>
#include <optional>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace lb::compare {

// Writes `value` (indented) to PATH.tmp, then renames it over `path`. On failure returns false,
// leaves `path` as it was and puts "PATH: reason" in `error`.
bool save_json_file(const nlohmann::json& value, const std::string& path, std::string* error);

// The file's JSON, or nullopt with "PATH: reason" in `error`.
std::optional<nlohmann::json> read_json_file(const std::string& path, std::string* error);

// Reads `path` as JSON and converts it with `read`. An unreadable file, bad JSON or an exception
// thrown by `read` gives nullopt and "PATH: reason" in `error`.
template <class Read>
auto load_json_file(const std::string& path, std::string* error, Read read)
    -> std::optional<std::invoke_result_t<Read, const nlohmann::json&>> {
  std::optional<nlohmann::json> value = read_json_file(path, error);
  if (!value) return std::nullopt;
  try {
    return read(*value);
  } catch (const std::exception& e) {
    if (error) *error = path + ": " + e.what();
    return std::nullopt;
  }
}

}  // namespace lb::compare
