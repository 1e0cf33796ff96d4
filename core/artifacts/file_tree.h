#pragma once
// Lists the files under a checkpoint folder without trusting it: symbolic links are followed
// (Hugging Face snapshots are made of them) but loops, dangling links and special files become
// per-entry errors, and the walk never recurses forever.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace lb::artifacts {

enum class TreeEntryKind {
  File,          // a regular file (possibly reached through links)
  DanglingLink,  // a link whose target does not exist
  LinkLoop,      // a link chain that never ends (ELOOP) or a directory link back into the walk
  Special,       // fifo, socket, device: never opened, since reading a fifo could block forever
  Unreadable,    // stat or directory listing failed for another reason
};

struct TreeEntry {
  std::string relative_path;   // generic form, '/'-separated, relative to the root
  std::filesystem::path path;  // root / relative_path (not resolved)
  TreeEntryKind kind = TreeEntryKind::File;
  bool is_link = false;               // the entry itself is a symbolic link
  std::filesystem::path link_target;  // what the link says (may be relative), when is_link
  std::uint64_t size_bytes = 0;       // for files
  bool executable = false;            // any execute bit on the (resolved) file
  std::string error;                  // for non-File kinds
};

struct FileTree {
  std::vector<TreeEntry> entries;  // sorted by relative_path
  std::string error;               // set when the root itself cannot be listed
  bool ok() const { return error.empty(); }
};

inline constexpr int kMaxTreeDepth = 64;

// Directory entries named in `skip_names` are not listed (e.g. ".git", ".cache").
FileTree walk_file_tree(const std::filesystem::path& root,
                        const std::vector<std::string>& skip_names = {".git", ".cache"});

const char* tree_entry_kind_name(TreeEntryKind kind);

}  // namespace lb::artifacts
