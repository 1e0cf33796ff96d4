// The machine-readable form of a verification (`lanebench-cli verify --json`).
#include <nlohmann/json.hpp>

#include "core/artifacts/verification.h"

namespace lb::artifacts {
namespace {

nlohmann::json file_json(const FileVerdict& f) {
  nlohmann::json j = {
      {"path", f.path}, {"status", file_status_name(f.status)}, {"size_bytes", f.size_bytes}};
  if (!f.expected.empty()) {
    j["expected"] = f.expected;
  }
  if (!f.actual.empty()) {
    j["actual"] = f.actual;
  }
  if (!f.detail.empty()) {
    j["detail"] = f.detail;
  }
  return j;
}

nlohmann::json totals_json(const VerifyTotals& t) {
  return {{"ok", t.ok},
          {"mismatch", t.mismatch},
          {"missing", t.missing},
          {"extra", t.extra},
          {"unreadable", t.unreadable},
          {"git_blob", t.git_blob},
          {"unpinned", t.unpinned},
          {"cancelled", t.cancelled},
          {"refused", t.refused},
          {"warnings", t.warnings},
          {"safetensors_checked", t.safetensors_checked},
          {"safetensors_invalid", t.safetensors_invalid},
          {"bytes_hashed", t.bytes_hashed}};
}

}  // namespace

nlohmann::json verify_report_json(const VerifyReport& report) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& f : report.files) {
    files.push_back(file_json(f));
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : report.findings) {
    findings.push_back(
        {{"path", f.path}, {"severity", severity_name(f.severity)}, {"reason", f.reason}});
  }
  nlohmann::json headers = nlohmann::json::array();
  for (const auto& s : report.safetensors) {
    headers.push_back({{"path", s.path},
                       {"ok", s.ok()},
                       {"tensors", s.tensors},
                       {"header_bytes", s.header_bytes},
                       {"issues", s.issues},
                       {"unlisted_issues", s.unlisted_issues}});
  }
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : report.inventory_problems) {
    problems.push_back({{"line", p.line}, {"message", p.message}});
  }
  nlohmann::json out = {{"root", report.root},
                        {"inventory",
                         {{"source", report.inventory_source},
                          {"format", report.inventory_format},
                          {"problems", problems}}},
                        {"files", files},
                        {"findings", findings},
                        {"safetensors", headers},
                        {"totals", totals_json(report.totals)},
                        {"hash_seconds", report.hash_seconds},
                        {"passed", report.passed()},
                        {"exit_code", report.exit_code()}};
  if (!report.revision.empty()) {
    out["revision"] = report.revision;
  }
  if (!report.input_error.empty()) {
    out["input_error"] = report.input_error;
  }
  return out;
}

}  // namespace lb::artifacts
