#pragma once
// Tolerant, field-by-field reads of a run folder's JSON files (and of any file a user hands the
// workbench): a run killed early or an older folder may lack any field, and a reader must still
// come out with what it could read and a sentence for each thing it could not.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

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

}  // namespace lb::record
