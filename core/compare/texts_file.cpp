#include "core/compare/texts_file.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/files/regular_file.h"
#include "core/files/safe_file_name.h"

namespace lb::compare {
namespace {

constexpr size_t kMaxTextsFileBytes = 512 * files::kMiB;

}  // namespace

TextsResult parse_texts_json(std::string_view json_text, std::string_view source_name) {
  TextsResult result;
  const std::string source(source_name);
  nlohmann::json array;
  try {
    array = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    result.error = source + ": not valid JSON (" + e.what() + ")";
    return result;
  }
  if (!array.is_array()) {
    result.error = source + ": expected a JSON array of strings, got a JSON " + array.type_name();
    return result;
  }
  std::vector<std::string> texts;
  texts.reserve(array.size());
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_string()) {
      result.error = source + ": element " + std::to_string(i) + " is " +
                     (array[i].is_null() ? "null" : std::string("a ") + array[i].type_name()) +
                     ", expected a string";
      return result;
    }
    texts.push_back(array[i].get<std::string>());
  }
  result.texts = std::move(texts);
  return result;
}

TextsResult load_texts_file(const std::string& path) {
  std::string error;
  const auto text = files::read_regular_file(path, kMaxTextsFileBytes, &error);
  if (!text) {
    TextsResult result;
    result.error = error;
    return result;
  }
  return parse_texts_json(*text, path);
}

std::string lane_texts_path(const std::string& run_dir, const std::string& lane) {
  // LANE may come from a summary written elsewhere: it names a file in texts/, nothing else.
  const std::string name = files::safe_file_name(lane) + ".texts.json";
  return (std::filesystem::path(run_dir) / "texts" / name).string();
}

std::string resolve_texts_argument(const std::string& argument) {
  const auto colon = argument.rfind(':');
  if (colon != std::string::npos && colon > 0 && colon + 1 < argument.size()) {
    std::error_code ec;
    const std::string dir = argument.substr(0, colon);
    if (std::filesystem::is_directory(dir, ec)) {
      return lane_texts_path(dir, argument.substr(colon + 1));
    }
  }
  return argument;
}

}  // namespace lb::compare
