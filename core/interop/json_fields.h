#pragma once
// Reading optional fields of another tool's JSON without trusting it: a field of the wrong type
// is an error that names the field and what it holds, never an exception or a silent zero.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::interop {

// Collects the first problem; later reads are no-ops once one is found.
class JsonFields {
 public:
  explicit JsonFields(std::string where) : where_(std::move(where)) {}

  // nullopt when absent or null; an error when present with another type.
  std::optional<double> number(const nlohmann::json& obj, const char* key);
  std::optional<int64_t> integer(const nlohmann::json& obj, const char* key);
  std::optional<std::string> string(const nlohmann::json& obj, const char* key);
  // The array at key (nullptr when absent or null); an error when it is something else.
  const nlohmann::json* array(const nlohmann::json& obj, const char* key);
  const nlohmann::json* object(const nlohmann::json& obj, const char* key);
  // Numbers of an array, null elements as `null_as`; an error on any other element type.
  std::vector<double> numbers(const nlohmann::json& arr, const std::string& name,
                              double null_as = -1);

  void fail(const std::string& message);
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& where() const { return where_; }

 private:
  std::string where_;
  std::string error_;
};

// "a string", "an array", ... for messages.
std::string json_type_phrase(const nlohmann::json& value);

// obj[key] when obj is an object holding a string (or a boolean / number of that type) there;
// `fallback` otherwise. Unlike json::value() it never throws on a null or mistyped value.
std::string string_or(const nlohmann::json& obj, const char* key, const std::string& fallback);
bool bool_or(const nlohmann::json& obj, const char* key, bool fallback);
int64_t integer_or(const nlohmann::json& obj, const char* key, int64_t fallback);

// Nested lookup a.b.c; nullptr when any step is missing or not an object.
const nlohmann::json* find_path(const nlohmann::json& root,
                                std::initializer_list<const char*> path);

}  // namespace lb::interop
