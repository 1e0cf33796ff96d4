#pragma once
// `verify`: identity, then loader surface. Every file named by the inventory is hashed and
// compared; files the inventory does not name are extra; every file is put through the
// refuse-list scan; every .safetensors header is validated. The inventory is a file given by
// the caller, or, for a Hugging Face cache folder, the snapshot's own links.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/artifacts/inventory.h"
#include "core/artifacts/parallel_hasher.h"
#include "core/artifacts/payload_scan.h"
#include "core/artifacts/safetensors_header.h"

namespace lb::artifacts {

enum class FileStatus {
  Ok,          // SHA-256 matches the inventory
  Mismatch,    // SHA-256 differs (expected vs actual)
  Missing,     // in the inventory, not in the folder (or its cache blob is gone)
  Extra,       // in the folder, not in the inventory
  Unreadable,  // present but could not be read: dangling link, link loop, directory, I/O error
  GitBlob,     // Hugging Face blob named by git SHA-1: not verifiable by SHA-256
  Unpinned,    // no inventory at all: hashed, but nothing to compare with
  Cancelled,
};

struct FileVerdict {
  std::string path;  // relative to the verified folder
  FileStatus status = FileStatus::Ok;
  std::string expected;  // inventory digest (hex), when there is one
  std::string actual;    // computed SHA-256, when hashed
  std::uint64_t size_bytes = 0;
  std::string detail;  // why, for Unreadable / Missing / GitBlob / Extra
};

struct VerifyTotals {
  std::size_t ok = 0, mismatch = 0, missing = 0, extra = 0, unreadable = 0, git_blob = 0,
              unpinned = 0, cancelled = 0;
  std::size_t refused = 0;  // refuse-list findings
  std::size_t warnings = 0;
  std::size_t safetensors_checked = 0;
  std::size_t safetensors_invalid = 0;
  std::uint64_t bytes_hashed = 0;
};

struct VerifyOptions {
  std::filesystem::path inventory;  // empty: the Hugging Face snapshot's links, if any
  HashOptions hashing;
};

struct VerifyReport {
  std::string root;                // the folder actually verified (a snapshot for HF repos)
  std::string inventory_source;    // file or snapshot; empty when there is none
  std::string inventory_format;    // "json", "sha256sum", "hf-snapshot" or "none"
  std::string revision;            // Hugging Face snapshot revision, when known
  std::vector<FileVerdict> files;  // sorted by path
  std::vector<ScanFinding> findings;
  std::vector<SafetensorsCheck> safetensors;  // every .safetensors file checked
  VerifyTotals totals;
  double hash_seconds = 0.0;
  // Input errors: the folder cannot be listed, or the inventory cannot be used.
  std::string input_error;
  std::vector<InventoryProblem> inventory_problems;

  bool input_ok() const { return input_error.empty() && inventory_problems.empty(); }
  bool passed() const;
  int exit_code() const { return !input_ok() ? 2 : passed() ? 0 : 1; }  // lanebench-cli's codes
};

VerifyReport verify_checkpoint(const std::filesystem::path& dir, const VerifyOptions& options);

const char* file_status_name(FileStatus status);
nlohmann::json verify_report_json(const VerifyReport& report);

}  // namespace lb::artifacts
