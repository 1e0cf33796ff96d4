#pragma once
// A publisher's pinned file list: which relative path must have which digest. Read from a JSON
// object {"path": "sha256hex"}, from `sha256sum` output (text "hash  path" and binary
// "hash *path" lines, backslash-escaped names, BSD "SHA256 (path) = hash" lines), or from a
// Hugging Face cache snapshot (see hf_cache_layout.h).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace lb::artifacts {

enum class DigestKind {
  Sha256,      // verifiable: hash the file and compare
  GitBlobSha1  // a Hugging Face blob named by git's SHA-1 (small non-LFS files); not SHA-256
};

enum class InventoryFormat { Json, Sha256Sum, HfSnapshot };

struct InventoryEntry {
  std::string path;    // normalised: relative, '/'-separated, no "." or ".." components
  std::string digest;  // lowercase hex
  DigestKind kind = DigestKind::Sha256;
  int line = 0;  // 1-based line in a sha256sum list; 0 for JSON and cache snapshots
};

struct InventoryProblem {
  int line = 0;  // 1-based; 0 for problems with the file as a whole
  std::string message;
};

struct Inventory {
  InventoryFormat format = InventoryFormat::Json;
  std::string source;  // file or folder the inventory came from
  std::vector<InventoryEntry> entries;
  std::vector<InventoryProblem> problems;  // any problem makes the inventory unusable
  bool ok() const { return problems.empty(); }
};

// Upper bound for an inventory file: a listing of a million files fits well inside it.
inline constexpr std::uintmax_t kMaxInventoryBytes = std::uintmax_t{256} << 20;

Inventory parse_json_inventory(std::string_view text);
Inventory parse_sha256sum_inventory(std::string_view text);
// JSON when the first non-blank character is '{', sha256sum lines otherwise.
Inventory parse_inventory_text(std::string_view text);
Inventory load_inventory_file(const std::filesystem::path& path);

// "./a//b" -> "a/b". Empty result with *error set for absolute paths, ".." components and
// empty names: an inventory must not point outside the folder it describes.
std::string normalize_inventory_path(std::string_view raw, std::string* error);

const char* inventory_format_name(InventoryFormat format);

}  // namespace lb::artifacts
