#include "core/report/artifact_records.h"

#include <algorithm>

#include "core/artifacts/byte_size.h"
#include "core/artifacts/sha256.h"
#include "core/files/safe_file_name.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

int64_t count_of(const json& totals, const char* key) {
  const auto it = totals.find(key);
  return it != totals.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

std::string string_of(const json& doc, const char* key) {
  const auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
}

// SHA-256 over the sorted "path  sha256\n" lines of the files that were hashed.
std::string manifest_digest(const json& files) {
  std::vector<std::string> lines;
  for (const auto& f : files) {
    if (!f.is_object()) continue;
    const std::string path = string_of(f, "path"), actual = string_of(f, "actual");
    if (!path.empty() && artifacts::is_sha256_hex(actual)) lines.push_back(path + "  " + actual);
  }
  if (lines.empty()) return "";
  std::sort(lines.begin(), lines.end());
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return artifacts::sha256_hex(text);
}

}  // namespace

std::string artifact_file_name(const std::string& lane) {
  return "artifacts/" + files::safe_file_name(lane) + ".verification.json";
}

bool read_artifact_record(const std::string& lane, const json& doc, ArtifactRecord& record,
                          std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = artifact_file_name(lane) + ": " + why;
    return false;
  };
  if (!doc.is_object()) return fail("not a verification document (not a JSON object)");
  const auto totals = doc.find("totals");
  const auto passed = doc.find("passed");
  const auto files = doc.find("files");
  if (totals == doc.end() || !totals->is_object() || passed == doc.end() || !passed->is_boolean() ||
      files == doc.end() || !files->is_array())
    return fail("not a verification document (no totals, passed or files)");
  record = ArtifactRecord{};
  record.lane = lane;
  record.passed = passed->get<bool>();
  record.files_ok = count_of(*totals, "ok");
  record.files_failed = count_of(*totals, "mismatch") + count_of(*totals, "missing") +
                        count_of(*totals, "extra") + count_of(*totals, "unreadable");
  record.files_unpinned = count_of(*totals, "unpinned");
  record.refused = count_of(*totals, "refused");
  record.warnings = count_of(*totals, "warnings");
  record.headers_checked = count_of(*totals, "safetensors_checked");
  record.headers_invalid = count_of(*totals, "safetensors_invalid");
  record.bytes_hashed = count_of(*totals, "bytes_hashed");
  if (const auto inv = doc.find("inventory"); inv != doc.end() && inv->is_object())
    record.inventory_format = string_of(*inv, "format");
  record.revision = string_of(doc, "revision");
  record.manifest_sha256 = manifest_digest(*files);
  return true;
}

ReportTable artifacts_table(const std::vector<ArtifactRecord>& records) {
  ReportTable t;
  t.title = "Checkpoint verification";
  t.header = {"Lane",    "Result",  "Files ok", "Files failed",    "Unpinned",
              "Refused", "Headers", "Hashed",   "Manifest SHA-256"};
  for (const auto& r : records) {
    t.rows.push_back({r.lane, r.passed ? "PASS" : "FAIL", std::to_string(r.files_ok),
                      std::to_string(r.files_failed), std::to_string(r.files_unpinned),
                      std::to_string(r.refused),
                      r.headers_checked == 0
                          ? "none"
                          : std::to_string(r.headers_checked - r.headers_invalid) + "/" +
                                std::to_string(r.headers_checked) + " valid",
                      artifacts::human_bytes(static_cast<double>(r.bytes_hashed)),
                      r.manifest_sha256.empty() ? "—" : r.manifest_sha256.substr(0, 16)});
  }
  t.note =
      "lanebench-cli verify --attach: SHA-256 of every file against the pinned inventory, the "
      "refuse-list scan (pickle, code, native libraries, auto_map) and the safetensors headers. "
      "Manifest: SHA-256 over the sorted path and hash of every hashed file (first 16 hex digits "
      "shown; qualification-summary.json has all 64): equal manifests, identical files.";
  return t;
}

json artifacts_summary_json(const std::vector<ArtifactRecord>& records) {
  json out = json::object();
  for (const auto& r : records) {
    json j = {{"passed", r.passed},
              {"files_ok", r.files_ok},
              {"files_failed", r.files_failed},
              {"files_unpinned", r.files_unpinned},
              {"refused", r.refused},
              {"warnings", r.warnings},
              {"safetensors_checked", r.headers_checked},
              {"safetensors_invalid", r.headers_invalid},
              {"bytes_hashed", r.bytes_hashed},
              {"inventory_format", r.inventory_format},
              {"manifest_sha256", r.manifest_sha256}};
    if (!r.revision.empty()) j["revision"] = r.revision;
    out[r.lane] = std::move(j);
  }
  return out;
}

}  // namespace lb::report
