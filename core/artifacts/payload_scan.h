#pragma once
// The refuse-list: files a loader could turn into code execution. Severity policy:
//   Refuse — the file can run code when loaded or opened by the usual tools: pickle streams
//            (by magic or by the .bin/.pt/.pth/.pkl/.pickle/.ckpt/.joblib names loaders pickle),
//            PyTorch zip archives holding data.pkl, Python code (.py/.pyc/.pyo/.pyd), native
//            libraries and executables (.so/.dll/.dylib/.exe, ELF/PE/Mach-O magic), scripts
//            with a "#!" line, and any JSON that names auto_map or sets trust_remote_code.
//   Warn   — suspicious but not code by itself: an execute bit on a data file (copies from
//            FAT/NTFS/SMB mounts set it everywhere), NumPy .npy/.npz (pickle only when loaded
//            with allow_pickle), other zip archives, JSON too large or too broken to inspect.
// A single refusal fails verification; warnings are printed and do not.
#include <string>
#include <vector>

#include "core/artifacts/file_tree.h"

namespace lb::artifacts {

enum class Severity { Warn, Refuse };

struct ScanFinding {
  std::string path;  // relative to the scanned folder
  Severity severity = Severity::Refuse;
  std::string reason;
};

// JSON configs larger than this are reported (Warn) instead of parsed.
inline constexpr std::uintmax_t kMaxInspectedJsonBytes = std::uintmax_t{64} << 20;

std::vector<ScanFinding> scan_entry(const TreeEntry& entry);
std::vector<ScanFinding> scan_tree(const FileTree& tree);  // File entries only

const char* severity_name(Severity severity);

}  // namespace lb::artifacts
