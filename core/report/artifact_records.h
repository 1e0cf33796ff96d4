#pragma once
// Checkpoint verifications attached to a run: artifacts/<lane>.verification.json, the document of
// `lanebench-cli verify DIR --attach RUN:LANE`. They put artifact identity in the qualification
// record: a gate row per lane, an Artifacts table, and a manifest digest that names the exact set
// of files that was measured.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::report {

struct ArtifactRecord {
  std::string lane;
  bool passed = false;
  int64_t files_ok = 0;
  int64_t files_failed = 0;  // mismatch + missing + extra + unreadable
  int64_t files_unpinned = 0;
  int64_t refused = 0;
  int64_t warnings = 0;
  int64_t headers_checked = 0;
  int64_t headers_invalid = 0;
  int64_t bytes_hashed = 0;
  std::string inventory_format;  // "sha256sum", "json", "hf-cache", "none", ...
  std::string revision;          // Hugging Face snapshot revision, when known
  // SHA-256 over the sorted "path  sha256" lines of every hashed file: equal digests mean the
  // same files with the same contents.
  std::string manifest_sha256;
};

// The record of LANE's verification document; false with ERROR when it is not one.
bool read_artifact_record(const std::string& lane, const nlohmann::json& doc,
                          ArtifactRecord& record, std::string* error);

// The relative path of a lane's attached verification inside a run folder.
std::string artifact_file_name(const std::string& lane);

// {"<lane>": {"passed", "files_ok", ..., "manifest_sha256"}} for qualification-summary.json: counts
// and digests only, no paths.
nlohmann::json artifacts_summary_json(const std::vector<ArtifactRecord>& records);

}  // namespace lb::report
