#include "core/artifacts/inventory.h"

#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/artifacts/sha256.h"

namespace lb::artifacts {
namespace {

int line_of_offset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  int line = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    line += text[i] == '\n';
  }
  return line;
}

// nlohmann reports no positions for values, so a bad entry is located by its quoted key. Only
// problems are located: a search per entry would be quadratic in a large inventory.
int line_of_key(std::string_view text, const std::string& key) {
  const std::string quoted = nlohmann::json(key).dump();
  const std::size_t at = text.find(quoted);
  return at == std::string_view::npos ? 0 : line_of_offset(text, at);
}

// nlohmann gives no position for a number too large for a double, only the number, quoted:
// "[json.exception.out_of_range.406] number overflow parsing '1e999'". Locate it by that.
InventoryProblem json_number_problem(std::string_view text, std::string_view what) {
  const std::size_t tag_end = what.find("] ");
  const std::string_view message =
      tag_end == std::string_view::npos ? what : what.substr(tag_end + 2);
  const std::size_t open = message.find('\'');
  const std::size_t close = message.rfind('\'');
  int line = 0;
  if (open != std::string_view::npos && close > open + 1) {
    const std::size_t at = text.find(message.substr(open + 1, close - open - 1));
    line = at == std::string_view::npos ? 0 : line_of_offset(text, at);
  }
  return {line, "invalid JSON: " + std::string(message)};
}

// Adds the entry unless the path is already listed; a repeat with another digest is a problem.
void add_entry(Inventory& inv, std::map<std::string, std::size_t>& seen, InventoryEntry entry) {
  const auto [it, inserted] = seen.emplace(entry.path, inv.entries.size());
  if (inserted) {
    inv.entries.push_back(std::move(entry));
    return;
  }
  const InventoryEntry& first = inv.entries[it->second];
  if (first.digest != entry.digest) {
    std::string message = "\"" + entry.path + "\" listed again with another hash";
    if (first.line > 0) {
      message += " (first on line " + std::to_string(first.line) + ")";
    }
    inv.problems.push_back({entry.line, std::move(message)});
  }
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// sha256sum writes "\" before the hash when the name holds a backslash or newline, and escapes
// those as "\\" and "\n".
bool unescape_name(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\\') {
      out += in[i];
      continue;
    }
    if (++i >= in.size()) {
      return false;
    }
    if (in[i] == '\\') {
      out += '\\';
    } else if (in[i] == 'n') {
      out += '\n';
    } else {
      return false;
    }
  }
  return true;
}

// Splits one line into hash and raw name; returns "" on success or the problem.
std::string split_sum_line(std::string_view line, std::string_view& hash, std::string& name) {
  bool escaped = false;
  if (line.substr(0, 7) == "SHA256 " || line.substr(0, 8) == "\\SHA256 ") {  // BSD --tag style
    escaped = line.front() == '\\';
    const std::size_t open = line.find('(');
    const std::size_t close = line.rfind(") = ");
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
      return "BSD-style line without \"(name) = hash\"";
    }
    hash = line.substr(close + 4);
    if (!unescape_name(line.substr(open + 1, close - open - 1), name) && escaped) {
      return "bad backslash escape in file name";
    }
    if (!escaped) {
      name = std::string(line.substr(open + 1, close - open - 1));
    }
    return "";
  }
  if (line.front() == '\\') {
    escaped = true;
    line.remove_prefix(1);
  }
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos) {
    return "expected \"<sha256>  <file>\"";
  }
  hash = line.substr(0, space);
  std::string_view rest = line.substr(space + 1);
  if (rest.empty() || (rest.front() != ' ' && rest.front() != '*')) {
    return "expected two spaces or \" *\" between hash and file name";
  }
  rest.remove_prefix(1);
  if (escaped) {
    if (!unescape_name(rest, name)) {
      return "bad backslash escape in file name";
    }
  } else {
    name = std::string(rest);
  }
  return "";
}

}  // namespace

std::string normalize_inventory_path(std::string_view raw, std::string* error) {
  if (raw.empty()) {
    *error = "empty file name";
    return {};
  }
  if (raw.front() == '/') {
    *error = "absolute path \"" + std::string(raw) + "\"; inventories list relative paths";
    return {};
  }
  std::string out;
  std::size_t start = 0;
  while (start <= raw.size()) {
    std::size_t end = raw.find('/', start);
    if (end == std::string_view::npos) {
      end = raw.size();
    }
    const std::string_view part = raw.substr(start, end - start);
    if (part == "..") {
      *error = "path \"" + std::string(raw) + "\" leaves the folder (\"..\")";
      return {};
    }
    if (!part.empty() && part != ".") {
      if (!out.empty()) {
        out += '/';
      }
      out += part;
    }
    start = end + 1;
  }
  if (out.empty()) {
    *error = "path \"" + std::string(raw) + "\" names no file";
  }
  return out;
}

Inventory parse_json_inventory(std::string_view text) {
  Inventory inv;
  inv.format = InventoryFormat::Json;
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    inv.problems.push_back(
        {line_of_offset(text, e.byte ? e.byte - 1 : 0), std::string("invalid JSON: ") + e.what()});
    return inv;
  } catch (const nlohmann::json::exception& e) {  // out_of_range: a number too large (1e999)
    inv.problems.push_back(json_number_problem(text, e.what()));
    return inv;
  }
  if (!doc.is_object()) {
    inv.problems.push_back({1, "expected a JSON object {\"path\": \"sha256\"}"});
    return inv;
  }
  std::map<std::string, std::size_t> seen;
  for (const auto& [key, value] : doc.items()) {
    if (!value.is_string() || !is_sha256_hex(value.get_ref<const std::string&>())) {
      inv.problems.push_back(
          {line_of_key(text, key), "\"" + key + "\": value is not a 64-digit SHA-256 hex string"});
      continue;
    }
    std::string error;
    std::string path = normalize_inventory_path(key, &error);
    if (path.empty()) {
      inv.problems.push_back({line_of_key(text, key), error});
      continue;
    }
    const std::size_t problems_before = inv.problems.size();
    add_entry(inv, seen,
              {std::move(path), lowercase_hex(value.get<std::string>()), DigestKind::Sha256, 0});
    if (inv.problems.size() > problems_before) {
      inv.problems.back().line = line_of_key(text, key);
    }
  }
  return inv;
}

Inventory parse_sha256sum_inventory(std::string_view text) {
  Inventory inv;
  inv.format = InventoryFormat::Sha256Sum;
  std::map<std::string, std::size_t> seen;
  int line_no = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    ++line_no;
    const std::string_view line = trim(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line.front() == '#') {
      continue;
    }
    std::string_view hash;
    std::string name;
    std::string problem = split_sum_line(line, hash, name);
    if (problem.empty() && !is_sha256_hex(hash)) {
      problem = "\"" + std::string(hash.substr(0, 80)) + "\" is not a 64-digit SHA-256 hex string";
    }
    std::string path;
    if (problem.empty()) {
      path = normalize_inventory_path(name, &problem);
    }
    if (!problem.empty()) {
      inv.problems.push_back({line_no, problem});
      continue;
    }
    add_entry(inv, seen, {std::move(path), lowercase_hex(hash), DigestKind::Sha256, line_no});
  }
  if (inv.entries.empty() && inv.problems.empty()) {
    inv.problems.push_back({0, "no entries"});
  }
  return inv;
}

Inventory parse_inventory_text(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    return parse_json_inventory(text);
  }
  return parse_sha256sum_inventory(text);
}

Inventory load_inventory_file(const std::filesystem::path& path) {
  Inventory inv;
  inv.source = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    inv.problems.push_back({0, path.string() + ": is a directory, expected an inventory file"});
    return inv;
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    inv.problems.push_back({0, path.string() + ": " + ec.message()});
    return inv;
  }
  if (size > kMaxInventoryBytes) {
    inv.problems.push_back(
        {0, path.string() + ": " + std::to_string(size) + " bytes is too large for an inventory"});
    return inv;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (!in && !in.eof()) {
    inv.problems.push_back({0, path.string() + ": read failed"});
    return inv;
  }
  Inventory parsed = parse_inventory_text(buffer.str());
  parsed.source = inv.source;
  return parsed;
}

const char* inventory_format_name(InventoryFormat format) {
  switch (format) {
    case InventoryFormat::Json:
      return "json";
    case InventoryFormat::Sha256Sum:
      return "sha256sum";
    case InventoryFormat::HfSnapshot:
      return "hf-snapshot";
  }
  return "unknown";
}

}  // namespace lb::artifacts
