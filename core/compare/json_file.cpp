#include "compare/json_file.h"

#include <filesystem>
#include <fstream>

namespace lb::compare {

bool save_json_file(const nlohmann::json& value, const std::string& path, std::string* error) {
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << value.dump(2) << '\n';
    out.flush();
    if (!out) {
      if (error) *error = temp + ": cannot write";
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    if (error) *error = path + ": cannot replace (" + ec.message() + ")";
    std::filesystem::remove(temp, ec);
    return false;
  }
  return true;
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
