#include "core/artifacts/file_tree.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

namespace lb::artifacts {
namespace fs = std::filesystem;
namespace {

using DirId = std::pair<dev_t, ino_t>;

class TreeWalker {
 public:
  TreeWalker(const std::vector<std::string>& skip, FileTree& out) : skip_(skip), out_(out) {}

  void walk(const fs::path& dir, const std::string& prefix, int depth) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) {
      return;
    }
    if (!visited_.insert({st.st_dev, st.st_ino}).second) {
      return;
    }
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      add_error(prefix.empty() ? "." : prefix, dir, TreeEntryKind::Unreadable,
                "cannot list directory: " + ec.message());
      return;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (std::find(skip_.begin(), skip_.end(), name) != skip_.end()) {
        continue;
      }
      std::string rel = prefix;
      if (!rel.empty()) {
        rel += '/';
      }
      rel += name;
      visit(it->path(), rel, depth);
    }
    if (ec) {
      add_error(prefix.empty() ? "." : prefix, dir, TreeEntryKind::Unreadable,
                "directory listing stopped: " + ec.message());
    }
    visited_.erase({st.st_dev, st.st_ino});  // only ancestors count as a loop
  }

 private:
  void visit(const fs::path& path, const std::string& rel, int depth) {
    TreeEntry entry;
    entry.relative_path = rel;
    entry.path = path;
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      entry.is_link = true;
      std::error_code ec;
      entry.link_target = fs::read_symlink(path, ec);
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      const int err = errno;
      entry.kind = err == ELOOP    ? TreeEntryKind::LinkLoop
                   : err == ENOENT ? TreeEntryKind::DanglingLink
                                   : TreeEntryKind::Unreadable;
      entry.error = err == ELOOP    ? "symbolic link loop"
                    : err == ENOENT ? "dangling symbolic link (target does not exist)"
                                    : std::string("cannot stat: ") + std::strerror(err);
      out_.entries.push_back(std::move(entry));
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      if (visited_.count({st.st_dev, st.st_ino})) {
        add_error(rel, path, TreeEntryKind::LinkLoop,
                  "directory link loops back into its own ancestors; not followed");
      } else if (depth + 1 > kMaxTreeDepth) {
        add_error(rel, path, TreeEntryKind::Unreadable,
                  "deeper than " + std::to_string(kMaxTreeDepth) + " levels; not followed");
      } else {
        walk(path, rel, depth + 1);
      }
      return;
    }
    if (!S_ISREG(st.st_mode)) {
      entry.kind = TreeEntryKind::Special;
      entry.error = "not a regular file (fifo, socket or device); not read";
    } else {
      entry.size_bytes = static_cast<std::uint64_t>(st.st_size);
      entry.executable = (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0;
    }
    out_.entries.push_back(std::move(entry));
  }

  void add_error(const std::string& rel, const fs::path& path, TreeEntryKind kind,
                 std::string message) {
    TreeEntry entry;
    entry.relative_path = rel;
    entry.path = path;
    entry.kind = kind;
    entry.error = std::move(message);
    out_.entries.push_back(std::move(entry));
  }

  const std::vector<std::string>& skip_;
  FileTree& out_;
  std::set<DirId> visited_;
};

}  // namespace

FileTree walk_file_tree(const fs::path& root, const std::vector<std::string>& skip_names) {
  FileTree tree;
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0) {
    tree.error = root.string() + ": " + std::strerror(errno);
    return tree;
  }
  if (!S_ISDIR(st.st_mode)) {
    tree.error = root.string() + ": not a directory";
    return tree;
  }
  std::error_code ec;
  fs::directory_iterator probe(root, ec);
  if (ec) {
    tree.error = root.string() + ": cannot list: " + ec.message();
    return tree;
  }
  TreeWalker(skip_names, tree).walk(root, "", 0);
  std::sort(tree.entries.begin(), tree.entries.end(), [](const TreeEntry& a, const TreeEntry& b) {
    return a.relative_path < b.relative_path;
  });
  return tree;
}

const char* tree_entry_kind_name(TreeEntryKind kind) {
  switch (kind) {
    case TreeEntryKind::File:
      return "file";
    case TreeEntryKind::DanglingLink:
      return "dangling-link";
    case TreeEntryKind::LinkLoop:
      return "link-loop";
    case TreeEntryKind::Special:
      return "special";
    case TreeEntryKind::Unreadable:
      return "unreadable";
  }
  return "unknown";
}

}  // namespace lb::artifacts
