#include "core/artifacts/payload_scan.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/artifacts/zip_directory.h"
#include "core/text/ascii_text.h"

namespace lb::artifacts {
namespace {

struct ExtensionRule {
  const char* extension;
  Severity severity;
  const char* reason;
};

constexpr std::array kExtensionRules{
    ExtensionRule{".bin", Severity::Refuse, "PyTorch .bin weights are loaded with pickle"},
    ExtensionRule{".pt", Severity::Refuse, "PyTorch .pt files are loaded with pickle"},
    ExtensionRule{".pth", Severity::Refuse, "PyTorch .pth files are loaded with pickle"},
    ExtensionRule{".pkl", Severity::Refuse, "pickle file (.pkl)"},
    ExtensionRule{".pickle", Severity::Refuse, "pickle file (.pickle)"},
    ExtensionRule{".ckpt", Severity::Refuse, "checkpoint (.ckpt) loaded with pickle"},
    ExtensionRule{".joblib", Severity::Refuse, "joblib file (pickle inside)"},
    ExtensionRule{".py", Severity::Refuse, "Python source: executable code"},
    ExtensionRule{".pyc", Severity::Refuse, "compiled Python: executable code"},
    ExtensionRule{".pyo", Severity::Refuse, "compiled Python: executable code"},
    ExtensionRule{".pyd", Severity::Refuse, "Python native extension"},
    ExtensionRule{".so", Severity::Refuse, "native shared library (.so)"},
    ExtensionRule{".dll", Severity::Refuse, "native library (.dll)"},
    ExtensionRule{".dylib", Severity::Refuse, "native library (.dylib)"},
    ExtensionRule{".exe", Severity::Refuse, "Windows executable (.exe)"},
    ExtensionRule{".npy", Severity::Warn, "NumPy array: pickled objects load with allow_pickle"},
    ExtensionRule{".npz", Severity::Warn, "NumPy archive: pickled objects load with allow_pickle"},
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void scan_name(const TreeEntry& entry, std::vector<ScanFinding>& out) {
  const std::string name = text::ascii_lower(entry.path.filename().string());
  for (const auto& rule : kExtensionRules) {
    if (ends_with(name, rule.extension)) {
      out.push_back({entry.relative_path, rule.severity, rule.reason});
    }
  }
  if (name.find(".so.") != std::string::npos) {  // versioned: libfoo.so.1
    out.push_back({entry.relative_path, Severity::Refuse, "native shared library (.so.N)"});
  }
}

std::string native_magic(const unsigned char* m, std::size_t n) {
  if (n >= 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F') {
    return "ELF";
  }
  if (n >= 2 && m[0] == 'M' && m[1] == 'Z') {
    return "PE (Windows)";
  }
  if (n >= 4) {
    const std::uint32_t be = (std::uint32_t{m[0]} << 24) | (std::uint32_t{m[1]} << 16) |
                             (std::uint32_t{m[2]} << 8) | m[3];
    for (std::uint32_t magic : {0xfeedfaceu, 0xfeedfacfu, 0xcefaedfeu, 0xcffaedfeu, 0xcafebabeu}) {
      if (be == magic) {
        return "Mach-O";
      }
    }
  }
  return "";
}

void scan_zip(const TreeEntry& entry, std::vector<ScanFinding>& out) {
  const ZipListing listing = list_zip_entries(entry.path);
  for (const auto& name : listing.names) {
    if (name == "data.pkl" || ends_with(name, "/data.pkl")) {
      out.push_back({entry.relative_path, Severity::Refuse,
                     "PyTorch zip checkpoint: \"" + name + "\" is a pickle"});
      return;
    }
  }
  for (const auto& name : listing.names) {
    if (ends_with(text::ascii_lower(name), ".pkl")) {
      out.push_back({entry.relative_path, Severity::Refuse,
                     "zip archive holding a pickle: \"" + name + "\""});
      return;
    }
  }
  out.push_back({entry.relative_path, Severity::Warn,
                 listing.error.empty() ? "zip archive; members not inspected"
                                       : "zip archive, unreadable directory: " + listing.error});
}

void scan_magic(const TreeEntry& entry, std::vector<ScanFinding>& out) {
  std::ifstream in(entry.path, std::ios::binary);
  unsigned char m[8] = {};
  in.read(reinterpret_cast<char*>(m), sizeof m);
  const auto n = static_cast<std::size_t>(in.gcount());
  if (n >= 2 && m[0] == 0x80 && m[1] >= 2 && m[1] <= 5) {
    out.push_back({entry.relative_path, Severity::Refuse,
                   "pickle stream (protocol " + std::to_string(m[1]) + " magic)"});
  } else if (n >= 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4) {
    scan_zip(entry, out);
  } else if (n >= 2 && m[0] == '#' && m[1] == '!') {
    out.push_back({entry.relative_path, Severity::Refuse, "script with a \"#!\" interpreter line"});
  } else if (const std::string kind = native_magic(m, n); !kind.empty()) {
    out.push_back(
        {entry.relative_path, Severity::Refuse, "native executable code (" + kind + " magic)"});
  }
}

// Any object key anywhere in the document: configs nest (text_config, vision_config...).
void find_remote_code(const nlohmann::json& j, const std::string& pointer, const TreeEntry& entry,
                      std::vector<ScanFinding>& out, int depth) {
  if (depth > 64) {
    return;
  }
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      find_remote_code(j[i], pointer + "/" + std::to_string(i), entry, out, depth + 1);
    }
    return;
  }
  if (!j.is_object()) {
    return;
  }
  for (const auto& [key, value] : j.items()) {
    std::string where = pointer;
    where += '/';
    where += key;
    if (key == "auto_map") {
      out.push_back({entry.relative_path, Severity::Refuse,
                     "auto_map at " + where + ": loading it runs code from the repository"});
    } else if (key == "trust_remote_code" && !(value.is_boolean() && !value.get<bool>()) &&
               !value.is_null()) {
      out.push_back({entry.relative_path, Severity::Refuse,
                     "trust_remote_code set at " + where + " (" + value.dump() + ")"});
    }
    find_remote_code(value, where, entry, out, depth + 1);
  }
}

void scan_json(const TreeEntry& entry, std::vector<ScanFinding>& out) {
  if (entry.size_bytes > kMaxInspectedJsonBytes) {
    out.push_back({entry.relative_path, Severity::Warn, "JSON too large to inspect for auto_map"});
    return;
  }
  std::ifstream in(entry.path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  if (doc.is_discarded()) {
    out.push_back({entry.relative_path, Severity::Warn,
                   "not valid JSON; not inspected for auto_map/trust_remote_code"});
    return;
  }
  find_remote_code(doc, "", entry, out, 0);
}

}  // namespace

std::vector<ScanFinding> scan_entry(const TreeEntry& entry) {
  std::vector<ScanFinding> out;
  if (entry.kind != TreeEntryKind::File) {
    return out;
  }
  scan_name(entry, out);
  scan_magic(entry, out);
  if (ends_with(text::ascii_lower(entry.path.filename().string()), ".json")) {
    scan_json(entry, out);
  }
  const bool refused = std::any_of(
      out.begin(), out.end(), [](const ScanFinding& f) { return f.severity == Severity::Refuse; });
  if (entry.executable && !refused) {
    out.push_back({entry.relative_path, Severity::Warn, "execute permission set on a data file"});
  }
  return out;
}

std::vector<ScanFinding> scan_tree(const FileTree& tree) {
  std::vector<ScanFinding> out;
  for (const auto& entry : tree.entries) {
    auto found = scan_entry(entry);
    out.insert(out.end(), std::make_move_iterator(found.begin()),
               std::make_move_iterator(found.end()));
  }
  return out;
}

const char* severity_name(Severity severity) {
  return severity == Severity::Refuse ? "refuse" : "warn";
}

}  // namespace lb::artifacts
