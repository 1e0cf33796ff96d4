#include "core/compare/json_file.h"

#include <filesystem>
#include <fstream>

#include "core/files/confined_write.h"

namespace lb::compare {

bool save_json_file(const nlohmann::json& value, const std::string& path, std::string* error) {
  // Review files live in run folders from elsewhere: a link planted at the file or at its
  // temporary name is replaced or refused, never written through.
  const std::filesystem::path target(path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  return files::write_confined(dir, target.filename().string(), value.dump(2) + "\n", error);
}

std::optional<nlohmann::json> read_json_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = path + ": cannot read the file";
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    if (error) *error = path + ": " + e.what();
    return std::nullopt;
  }
}

}  // namespace lb::compare
