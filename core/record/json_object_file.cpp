#include "core/record/json_object_file.h"

#include <filesystem>
#include <system_error>

#include "core/files/regular_file.h"

namespace lb::record {

std::optional<std::string> read_run_file(const std::string& dir, const std::string& name,
                                         std::string* error) {
  constexpr size_t kMaxRunFileBytes = 256 * files::kMiB;
  const std::string path = (std::filesystem::path(dir) / name).string();
  error->clear();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  std::string why;
  auto text = files::read_regular_file(path, kMaxRunFileBytes, &why);
  if (!text) *error = files::error_reason(why, path);
  return text;
}

nlohmann::json read_json_object_file(const std::string& dir, const char* name,
                                     std::vector<std::string>& problems) {
  std::string error;
  const auto text = read_run_file(dir, name, &error);
  if (!text) {
    if (!error.empty()) problems.push_back(std::string(name) + ": cannot be read (" + error + ")");
    return nullptr;
  }
  nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (doc.is_discarded()) {
    problems.push_back(std::string(name) + ": not valid JSON");
    return nullptr;
  }
  if (!doc.is_object()) {
    problems.push_back(std::string(name) + ": not a JSON object");
    return nullptr;
  }
  return doc;
}

}  // namespace lb::record
