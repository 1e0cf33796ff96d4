#include "core/record/file_fields.h"

namespace lb::record {
namespace {

const char* kind_name(nlohmann::json::value_t t) {
  switch (t) {
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::number_float:
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "a number";
    case nlohmann::json::value_t::array:
      return "a list";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::boolean:
      return "true or false";
    default:
      return "null";
  }
}

std::string joined(std::string_view path, const char* key) {
  return path.empty() ? std::string(key) : std::string(path) + "." + key;
}

}  // namespace

nlohmann::json FileFields::parse_object(std::string_view text) {
  nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    note({}, "not valid JSON (cut short?)");
    return nullptr;
  }
  if (!doc.is_object()) {
    note({}, "not a JSON object");
    return nullptr;
  }
  return doc;
}

const nlohmann::json* FileFields::member(const nlohmann::json& parent, std::string_view path,
                                         const char* key, Kind kind, bool required) {
  if (!parent.is_object()) return nullptr;
  const auto it = parent.find(key);
  // A run writes null for a figure it could not measure: that is absence, not damage.
  if (it == parent.end() || it->is_null()) {
    if (required) note(joined(path, key), it == parent.end() ? "is missing" : "is null");
    return nullptr;
  }
  static const char* const kWanted[] = {"a string", "a number", "a list", "an object"};
  const bool fits =
      (kind == Kind::String && it->is_string()) || (kind == Kind::Number && it->is_number()) ||
      (kind == Kind::Array && it->is_array()) || (kind == Kind::Object && it->is_object());
  if (fits) return &*it;
  note(joined(path, key),
       std::string("is ") + kind_name(it->type()) + ", not " + kWanted[static_cast<int>(kind)]);
  return nullptr;
}

std::string FileFields::string(const nlohmann::json& parent, std::string_view path, const char* key,
                               std::string fallback, bool required) {
  const nlohmann::json* v = member(parent, path, key, Kind::String, required);
  return v ? v->get<std::string>() : fallback;
}

double FileFields::number(const nlohmann::json& parent, std::string_view path, const char* key,
                          double fallback) {
  const nlohmann::json* v = member(parent, path, key, Kind::Number, false);
  return v ? v->get<double>() : fallback;
}

const nlohmann::json& FileFields::array(const nlohmann::json& parent, std::string_view path,
                                        const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const nlohmann::json* v = member(parent, path, key, Kind::Array, false);
  return v ? *v : kEmpty;
}

const nlohmann::json& FileFields::object(const nlohmann::json& parent, std::string_view path,
                                         const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::object();
  const nlohmann::json* v = member(parent, path, key, Kind::Object, false);
  return v ? *v : kEmpty;
}

bool FileFields::expect_object(const nlohmann::json& value, std::string_view path) {
  if (value.is_object()) return true;
  note(path, std::string(path.empty() ? "the file is " : "is ") + kind_name(value.type()) +
                 ", not an object");
  return false;
}

std::string FileFields::item_path(std::string_view path, const char* key, size_t index) {
  return joined(path, key) + "[" + std::to_string(index) + "]";
}

void FileFields::note(std::string_view path, std::string_view what) {
  std::string text = "damaged: " + file_ + ": ";
  if (!path.empty()) text += std::string(path) + " ";
  damage_.push_back(text + std::string(what));
}

}  // namespace lb::record
