#pragma once
// What another benchmark tool's result file says, read into LaneBench's own value types: one
// RequestRecord per request the tool kept, on a synthetic steady-clock timeline (sends relative
// to the tool's first send), so LaneBench's own metric definitions can be applied to them.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/request_record.h"

namespace lb::interop {

enum class ImportFormat { Auto, Vllm, GuideLlm };
const char* to_string(ImportFormat format);
// "vllm", "guidellm" or "auto"; false for anything else.
bool parse_import_format(const std::string& text, ImportFormat* out);

// One load level of the tool's run (a vLLM result object, a GuideLLM benchmark).
struct ImportedPhase {
  std::string phase;       // LaneBench's phase name: "c32", "r2", ... (unique in the file)
  std::string tool_label;  // how the tool described the load ("concurrent streams=32")
  // Per-request data (warm-ups are not in either tool's files). Empty when the file only has
  // aggregates (vLLM without --save-detailed).
  std::vector<metrics::RequestRecord> records;
  bool per_request = false;
  int64_t cancelled = 0;  // requests the tool lists as incomplete
  // The tool's own aggregates, in LaneBench's summary key names where they mean the same
  // thing (mean_ttft_ms, completed, duration, ...), kept next to LaneBench's recomputation.
  nlohmann::json reported = nlohmann::json::object();
  double reported_duration_s = -1;           // the tool's benchmark duration
  bool has_send_times = true;                // false: sends unknown, the window is the tool's
  std::vector<std::string> generated_texts;  // request order, when the tool kept them
};

struct ImportedBenchmark {
  ImportFormat format = ImportFormat::Auto;
  std::string tool;                // "vllm bench serve", "guidellm"
  std::string tool_version;        // empty when the file does not record it
  std::string model;               // last path component when the tool recorded a local path
  std::string date;                // as the tool wrote it, when it did
  std::vector<std::string> notes;  // how the numbers were derived, where it matters
  std::vector<ImportedPhase> phases;
};

struct ImportReadResult {
  bool ok = false;
  std::string error;  // "FILE: ..." naming what is wrong
  ImportedBenchmark benchmark;
};

}  // namespace lb::interop
