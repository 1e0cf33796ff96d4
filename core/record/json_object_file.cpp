#include "core/record/json_object_file.h"

#include <filesystem>
#include <system_error>

#include "core/files/regular_file.h"

namespace lb::record {

nlohmann::json read_json_object_file(const std::string& dir, const char* name,
                                     std::vector<std::string>& problems) {
  constexpr size_t kMaxRunJsonBytes = 256 * files::kMiB;  // far above any file a run writes
  const std::filesystem::path path = std::filesystem::path(dir) / name;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  std::string error;
  const auto text = files::read_regular_file(path.string(), kMaxRunJsonBytes, &error);
  if (!text) {
    problems.push_back(std::string(name) + ": cannot be read (" + error + ")");
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
