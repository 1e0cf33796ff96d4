#pragma once
// Checkpoint verifications attached to a run: artifacts/<lane>.verification.json, the document of
// `lanebench-cli verify DIR --attach RUN:LANE`. They put artifact identity in the qualification
// record: a gate row per lane, an Artifacts table, and a manifest digest that names the exact set
// of files that was measured.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/gate_table.h"

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

// The records of a run folder's attached documents (RunFolder::artifacts), in the same order; each
// document that is not a verification adds a sentence to PROBLEMS instead.
std::vector<ArtifactRecord> read_artifact_records(
    const std::vector<std::pair<std::string, nlohmann::json>>& docs,
    std::vector<std::string>& problems);

// The relative path of a lane's attached verification inside a run folder.
std::string artifact_file_name(const std::string& lane);

// Adds the "Artifacts verified" row (one cell per lane of TABLE; lanes without a record are "not
// run"); nothing when there is no record.
void add_artifacts_row(GateTable& table, const std::vector<ArtifactRecord>& records);
// {"<lane>": {"passed", "files_ok", ..., "manifest_sha256"}} for qualification-summary.json: counts
// and digests only, no paths.
nlohmann::json artifacts_summary_json(const std::vector<ArtifactRecord>& records);

}  // namespace lb::report
