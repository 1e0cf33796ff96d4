#pragma once
// The Hugging Face hub cache: models--org--name/{blobs,refs,snapshots}. A snapshot file is a
// link ../../blobs/<name>; for LFS files (weights) <name> is the file's SHA-256, for small
// files kept in git it is git's blob SHA-1, which says nothing about the SHA-256.
#include <filesystem>
#include <optional>
#include <string>

#include "core/artifacts/file_tree.h"
#include "core/artifacts/inventory.h"

namespace lb::artifacts {

struct HfSnapshot {
  std::filesystem::path repo_dir;      // models--org--name
  std::filesystem::path snapshot_dir;  // repo_dir/snapshots/<revision>
  std::string revision;
};

// Recognises `dir` as a repo folder (models--org--name) or as one of its snapshot folders.
// A repo folder resolves to the revision refs/main names, else to its only snapshot; with
// several snapshots and no usable refs/main, *error lists them. nullopt with *error empty: not
// a Hugging Face cache layout.
std::optional<HfSnapshot> detect_hf_snapshot(const std::filesystem::path& dir, std::string* error);

// The inventory the snapshot's links declare. Entries whose link target is not named by a
// digest are left out (they show up as extra files).
Inventory hf_snapshot_inventory(const HfSnapshot& snapshot, const FileTree& snapshot_tree);

}  // namespace lb::artifacts
