#include "core/artifacts/verification.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "core/artifacts/file_tree.h"
#include "core/artifacts/hf_cache_layout.h"

namespace lb::artifacts {
namespace fs = std::filesystem;
namespace {

struct PendingHash {
  std::size_t verdict;  // index into report.files
};

// Chooses the inventory and the folder to walk; false on an input error (set in the report).
bool resolve_inventory(const fs::path& dir, const VerifyOptions& options, VerifyReport& report,
                       FileTree& tree, Inventory& inventory, bool& have_inventory) {
  std::string error;
  const auto snapshot = detect_hf_snapshot(dir, &error);
  if (!error.empty() && options.inventory.empty()) {
    report.input_error = error;
    return false;
  }
  const fs::path root = snapshot ? snapshot->snapshot_dir : dir;
  report.root = root.string();
  tree = walk_file_tree(root);
  if (!tree.ok()) {
    report.input_error = tree.error;
    return false;
  }
  if (!options.inventory.empty()) {
    inventory = load_inventory_file(options.inventory);
    report.inventory_problems = inventory.problems;
    have_inventory = true;
  } else if (snapshot) {
    inventory = hf_snapshot_inventory(*snapshot, tree);
    report.revision = snapshot->revision;
    have_inventory = true;
  }
  if (have_inventory) {
    report.inventory_source = inventory.source;
    report.inventory_format = inventory_format_name(inventory.format);
  } else {
    report.inventory_format = "none";
  }
  return report.inventory_problems.empty();
}

// The inventory file's own path inside the folder, so it does not count as an extra file.
std::string inventory_relative_path(const fs::path& root, const fs::path& inventory) {
  if (inventory.empty()) {
    return {};
  }
  std::error_code ec;
  const fs::path rel =
      fs::relative(fs::weakly_canonical(inventory, ec), fs::weakly_canonical(root, ec), ec);
  if (ec || rel.empty() || *rel.begin() == "..") {
    return {};
  }
  return rel.generic_string();
}

FileVerdict verdict_for_absent(const fs::path& root, const InventoryEntry& want, bool hf_layout) {
  FileVerdict v{want.path, FileStatus::Missing, want.digest, "", 0, ""};
  std::error_code ec;
  if (fs::is_directory(root / want.path, ec)) {
    v.status = FileStatus::Unreadable;
    v.detail = "is a directory where the inventory expects a file";
  } else if (hf_layout) {
    v.detail = "cache blob missing";
  }
  return v;
}

FileVerdict verdict_for_entry(const TreeEntry& entry, const InventoryEntry& want, bool hf_layout) {
  FileVerdict v{want.path, FileStatus::Ok, want.digest, "", entry.size_bytes, ""};
  if (entry.kind == TreeEntryKind::DanglingLink && hf_layout) {
    v.status = FileStatus::Missing;
    v.detail = "cache blob missing (link to " + entry.link_target.string() + ")";
  } else if (entry.kind != TreeEntryKind::File) {
    v.status = FileStatus::Unreadable;
    v.detail = entry.error;
  } else if (want.kind == DigestKind::GitBlobSha1) {
    v.status = FileStatus::GitBlob;
    v.detail = "git-blob, not verifiable by SHA-256";
  }
  return v;
}

void compare_with_inventory(const Inventory& inventory, const FileTree& tree,
                            const std::string& skip_path, VerifyReport& report,
                            std::vector<HashJob>& jobs, std::vector<PendingHash>& pending) {
  const bool hf = inventory.format == InventoryFormat::HfSnapshot;
  std::map<std::string, const TreeEntry*> by_path;
  for (const auto& e : tree.entries) {
    by_path.emplace(e.relative_path, &e);
  }
  for (const auto& want : inventory.entries) {
    const auto it = by_path.find(want.path);
    FileVerdict v = it == by_path.end() ? verdict_for_absent(report.root, want, hf)
                                        : verdict_for_entry(*it->second, want, hf);
    if (it != by_path.end()) {
      by_path.erase(it);
    }
    if (v.status == FileStatus::Ok) {
      jobs.push_back({fs::path(report.root) / want.path, v.size_bytes});
      pending.push_back({report.files.size()});
    }
    report.files.push_back(std::move(v));
  }
  for (const auto& [path, entry] : by_path) {
    if (path == skip_path) {
      continue;
    }
    const std::string why = entry->kind == TreeEntryKind::File ? "" : entry->error;
    report.files.push_back({path, FileStatus::Extra, "", "", entry->size_bytes, why});
  }
}

// Without an inventory every file is hashed, so its digest can be printed and pinned later.
void list_unpinned(const FileTree& tree, VerifyReport& report, std::vector<HashJob>& jobs,
                   std::vector<PendingHash>& pending) {
  for (const auto& e : tree.entries) {
    if (e.kind != TreeEntryKind::File) {
      report.files.push_back({e.relative_path, FileStatus::Unreadable, "", "", 0, e.error});
      continue;
    }
    jobs.push_back({e.path, e.size_bytes});
    pending.push_back({report.files.size()});
    report.files.push_back({e.relative_path, FileStatus::Unpinned, "", "", e.size_bytes, ""});
  }
}

void apply_digests(const std::vector<FileDigest>& digests, const std::vector<PendingHash>& pending,
                   VerifyReport& report) {
  for (std::size_t i = 0; i < digests.size(); ++i) {
    FileVerdict& v = report.files[pending[i].verdict];
    const FileDigest& d = digests[i];
    report.totals.bytes_hashed += d.size_bytes;
    if (d.cancelled) {
      v.status = FileStatus::Cancelled;
    } else if (!d.error.empty()) {
      v.status = FileStatus::Unreadable;
      v.detail = d.error;
    } else {
      v.actual = d.sha256;
      v.size_bytes = d.size_bytes;
      if (v.status == FileStatus::Ok && v.actual != v.expected) {
        v.status = FileStatus::Mismatch;
      }
    }
  }
}

void check_headers(const FileTree& tree, VerifyReport& report) {
  for (const auto& e : tree.entries) {
    const std::string& p = e.relative_path;
    if (e.kind != TreeEntryKind::File || p.size() < 12 ||
        p.compare(p.size() - 12, 12, ".safetensors") != 0) {
      continue;
    }
    SafetensorsCheck check = check_safetensors_file(e.path);
    check.path = p;
    report.safetensors.push_back(std::move(check));
  }
}

void count_totals(VerifyReport& report) {
  VerifyTotals& t = report.totals;
  for (const auto& f : report.files) {
    switch (f.status) {
      case FileStatus::Ok:
        ++t.ok;
        break;
      case FileStatus::Mismatch:
        ++t.mismatch;
        break;
      case FileStatus::Missing:
        ++t.missing;
        break;
      case FileStatus::Extra:
        ++t.extra;
        break;
      case FileStatus::Unreadable:
        ++t.unreadable;
        break;
      case FileStatus::GitBlob:
        ++t.git_blob;
        break;
      case FileStatus::Unpinned:
        ++t.unpinned;
        break;
      case FileStatus::Cancelled:
        ++t.cancelled;
        break;
    }
  }
  for (const auto& f : report.findings) {
    (f.severity == Severity::Refuse ? t.refused : t.warnings)++;
  }
  t.safetensors_checked = report.safetensors.size();
  for (const auto& s : report.safetensors) {
    t.safetensors_invalid += !s.ok();
  }
}

}  // namespace

VerifyReport verify_checkpoint(const fs::path& dir, const VerifyOptions& options) {
  VerifyReport report;
  FileTree tree;
  Inventory inventory;
  bool have_inventory = false;
  if (!resolve_inventory(dir, options, report, tree, inventory, have_inventory)) {
    return report;
  }

  std::vector<HashJob> jobs;
  std::vector<PendingHash> pending;
  if (have_inventory) {
    compare_with_inventory(inventory, tree, inventory_relative_path(report.root, options.inventory),
                           report, jobs, pending);
  } else {
    list_unpinned(tree, report, jobs, pending);
  }
  report.findings = scan_tree(tree);
  check_headers(tree, report);

  const auto start = std::chrono::steady_clock::now();
  apply_digests(hash_files(jobs, options.hashing), pending, report);
  report.hash_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::sort(report.files.begin(), report.files.end(),
            [](const FileVerdict& a, const FileVerdict& b) { return a.path < b.path; });
  count_totals(report);
  return report;
}

bool VerifyReport::passed() const {
  const VerifyTotals& t = totals;
  return input_ok() && !files.empty() && t.mismatch == 0 && t.missing == 0 && t.extra == 0 &&
         t.unreadable == 0 && t.unpinned == 0 && t.cancelled == 0 && t.refused == 0 &&
         t.safetensors_invalid == 0;
}

const char* file_status_name(FileStatus status) {
  switch (status) {
    case FileStatus::Ok:
      return "ok";
    case FileStatus::Mismatch:
      return "mismatch";
    case FileStatus::Missing:
      return "missing";
    case FileStatus::Extra:
      return "extra";
    case FileStatus::Unreadable:
      return "unreadable";
    case FileStatus::GitBlob:
      return "git-blob";
    case FileStatus::Unpinned:
      return "unpinned";
    case FileStatus::Cancelled:
      return "cancelled";
  }
  return "unknown";
}

}  // namespace lb::artifacts
