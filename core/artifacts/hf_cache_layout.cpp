#include "core/artifacts/hf_cache_layout.h"

#include <algorithm>
#include <fstream>
#include <vector>

#include "core/artifacts/sha256.h"

namespace lb::artifacts {
namespace fs = std::filesystem;
namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

std::string read_ref(const fs::path& ref_file) {
  std::ifstream in(ref_file);
  std::string revision;
  std::getline(in, revision);
  while (!revision.empty() && (revision.back() == '\r' || revision.back() == ' ')) {
    revision.pop_back();
  }
  return revision;
}

std::optional<HfSnapshot> resolve_repo(const fs::path& repo, std::string* error) {
  const fs::path snapshots = repo / "snapshots";
  std::vector<std::string> revisions;
  std::error_code ec;
  for (fs::directory_iterator it(snapshots, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    revisions.push_back(it->path().filename().string());
  }
  std::sort(revisions.begin(), revisions.end());
  const std::string main_ref = read_ref(repo / "refs" / "main");
  if (!main_ref.empty() && is_dir(snapshots / main_ref)) {
    return HfSnapshot{repo, snapshots / main_ref, main_ref};
  }
  if (revisions.size() == 1) {
    return HfSnapshot{repo, snapshots / revisions[0], revisions[0]};
  }
  std::string list;
  for (const auto& r : revisions) {
    list += (list.empty() ? "" : ", ") + r;
  }
  *error = repo.string() + ": " +
           (revisions.empty() ? std::string("no snapshots")
                              : "several snapshots (" + list +
                                    "); name one: " + (snapshots / "<revision>").string());
  return std::nullopt;
}

}  // namespace

std::optional<HfSnapshot> detect_hf_snapshot(const fs::path& dir, std::string* error) {
  error->clear();
  const fs::path abs = fs::absolute(dir).lexically_normal();
  const fs::path trimmed = abs.has_filename() ? abs : abs.parent_path();
  if (is_dir(trimmed / "snapshots") && is_dir(trimmed / "blobs")) {
    return resolve_repo(trimmed, error);
  }
  const fs::path parent = trimmed.parent_path();
  if (parent.filename() == "snapshots" && is_dir(parent.parent_path() / "blobs")) {
    return HfSnapshot{parent.parent_path(), trimmed, trimmed.filename().string()};
  }
  return std::nullopt;
}

Inventory hf_snapshot_inventory(const HfSnapshot& snapshot, const FileTree& snapshot_tree) {
  Inventory inv;
  inv.format = InventoryFormat::HfSnapshot;
  inv.source = snapshot.snapshot_dir.string();
  for (const auto& entry : snapshot_tree.entries) {
    if (!entry.is_link) {
      continue;
    }
    const std::string blob = entry.link_target.filename().string();
    if (is_sha256_hex(blob)) {
      inv.entries.push_back({entry.relative_path, lowercase_hex(blob), DigestKind::Sha256, 0});
    } else if (is_sha1_hex(blob)) {
      inv.entries.push_back({entry.relative_path, lowercase_hex(blob), DigestKind::GitBlobSha1, 0});
    }
  }
  return inv;
}

}  // namespace lb::artifacts
