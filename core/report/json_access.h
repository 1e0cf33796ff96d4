#pragma once
// Tolerant reads of a run folder's files: a run killed early or an older folder may lack any
// field, and a report must still come out, with "n/a" where a figure is missing.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::report {

// The value at a path of object keys; a static null when any step is missing.
const nlohmann::json& json_at(const nlohmann::json& root, std::initializer_list<const char*> path);
// A number at the path, or fallback (-1) when absent or not a number. A {"value": x} label
// (figure with provenance) yields x.
double number_at(const nlohmann::json& root, std::initializer_list<const char*> path,
                 double fallback = -1);
std::string string_at(const nlohmann::json& root, std::initializer_list<const char*> path);
// An object's keys in the order the run recorded (phase_order) when present, else key order.
std::vector<std::string> phase_order(const nlohmann::json& lane_section);
// "c32" -> 32; -1 when the name is not a concurrency level.
long long concurrency_of(const std::string& phase);
// An object's keys with concurrency levels in numeric order (c1, c4, c16), others after them.
std::vector<std::string> keys_by_concurrency(const nlohmann::json& object);

// One file of a run folder from elsewhere, read field by field. A field of the wrong type reads
// as its fallback and a required one that is missing as well (null counts as missing: a run
// writes it for what it could not measure); each is noted as
// "damaged: FILE: PATH is not a string", so that the page says what is wrong instead of letting
// nlohmann::json's type_error out. PATH is the parent's place in the file ("experiments[2]",
// "" at the top).
class FileFields {
 public:
  explicit FileFields(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  // The whole document: noted when it is not JSON (a truncated file) or not an object.
  nlohmann::json parse_object(std::string_view text);
  std::string string(const nlohmann::json& parent, std::string_view path, const char* key,
                     std::string fallback = {}, bool required = false);
  double number(const nlohmann::json& parent, std::string_view path, const char* key,
                double fallback);
  // Static empty values when absent or of another type.
  const nlohmann::json& array(const nlohmann::json& parent, std::string_view path, const char* key);
  const nlohmann::json& object(const nlohmann::json& parent, std::string_view path,
                               const char* key);
  // True for an object; otherwise noted ("experiments[2] is a string, not an object").
  bool expect_object(const nlohmann::json& value, std::string_view path);
  // "experiments[2]" for the entry INDEX of the list KEY at PATH.
  static std::string item_path(std::string_view path, const char* key, size_t index);

  void note(std::string_view path, std::string_view what);  // "damaged: FILE: PATH what"
  const std::vector<std::string>& damage() const { return damage_; }
  bool damaged() const { return !damage_.empty(); }

 private:
  enum class Kind { String, Number, Array, Object };
  const nlohmann::json* member(const nlohmann::json& parent, std::string_view path, const char* key,
                               Kind kind, bool required);

  std::string file_;
  std::vector<std::string> damage_;
};

}  // namespace lb::report
