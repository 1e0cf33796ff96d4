// parse_inventory_text (JSON {path: sha256} or sha256sum lines) on arbitrary bytes: never
// crashes; a rejection names its problems; every accepted entry is a normalised relative path
// with a lowercase SHA-256, listed once; and an accepted inventory written back in its own format
// (sha256sum lines escaped the way sha256sum escapes them) parses again to the same entries.
#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/artifacts/inventory.h"
#include "core/artifacts/sha256.h"
#include "split_input.h"

namespace {

using lb::artifacts::Inventory;
using lb::fuzz::invariant_failed;

std::map<std::string, std::string> entries_of(const Inventory& inv) {
  std::map<std::string, std::string> out;
  for (const auto& e : inv.entries) out.emplace(e.path, e.digest);
  return out;
}

void check_entries(const Inventory& inv) {
  std::map<std::string, std::string> seen;
  for (const auto& e : inv.entries) {
    std::string error;
    if (lb::artifacts::normalize_inventory_path(e.path, &error) != e.path) {
      invariant_failed("an accepted path is not in normal form");
    }
    if (!lb::artifacts::is_sha256_hex(e.digest) ||
        lb::artifacts::lowercase_hex(e.digest) != e.digest) {
      invariant_failed("an accepted digest is not lowercase SHA-256 hex");
    }
    if (!seen.emplace(e.path, e.digest).second) invariant_failed("a path listed twice");
  }
}

// What sha256sum writes: a leading backslash when the name holds '\\' or '\n', which it escapes.
std::string as_sha256sum(const Inventory& inv) {
  std::string out;
  for (const auto& e : inv.entries) {
    const bool escape = e.path.find_first_of("\\\n") != std::string::npos;
    std::string name;
    for (const char c : e.path) {
      if (escape && c == '\\') {
        name += "\\\\";
      } else if (escape && c == '\n') {
        name += "\\n";
      } else {
        name += c;
      }
    }
    out += (escape ? "\\" : "") + e.digest + "  " + name + "\n";
  }
  return out;
}

// A name ending in blanks or CR cannot survive: list lines are trimmed (editors, CRLF files).
bool sum_round_trips(const Inventory& inv) {
  return std::none_of(inv.entries.begin(), inv.entries.end(), [](const auto& e) {
    const char last = e.path.back();
    return last == ' ' || last == '\t' || last == '\r';
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Inventory inv = lb::artifacts::parse_inventory_text(text);
  const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const auto& p : inv.problems) {
    if (p.message.empty()) invariant_failed("a problem without a message");
    if (p.line < 0 || p.line > lines) invariant_failed("a problem on a line the input lacks");
  }
  if (!inv.ok()) return 0;
  check_entries(inv);
  if (inv.format == lb::artifacts::InventoryFormat::Json) {
    nlohmann::json doc = nlohmann::json::object();
    for (const auto& e : inv.entries) doc[e.path] = e.digest;
    const Inventory again = lb::artifacts::parse_json_inventory(doc.dump());
    if (!again.ok() || entries_of(again) != entries_of(inv)) {
      invariant_failed("a JSON inventory changes when written back and parsed again");
    }
  } else if (sum_round_trips(inv)) {
    const Inventory again = lb::artifacts::parse_sha256sum_inventory(as_sha256sum(inv));
    if (!again.ok() || entries_of(again) != entries_of(inv)) {
      std::fprintf(stderr, "%s\n", as_sha256sum(inv).c_str());
      invariant_failed("a sha256sum list changes when written back and parsed again");
    }
  }
  return 0;
}
