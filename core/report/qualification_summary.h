#pragma once
// qualification-summary.json: the machine-readable record of a qualification
// that can be shared: decision, lanes (notes and serving manifest), gate table,
// headline and per-experiment figures, regression outcome and caveats. Built
// field by field from a whitelist, every string redacted (no URLs, host names,
// IP addresses, keys, user names or paths), then scanned once more: if anything
// private remains, nothing is written.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/report/privacy_scrub.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"

namespace lb::report {

inline constexpr const char* kQualificationSummaryFormat = "lanebench.qualification-summary/1";

nlohmann::json qualification_summary(const RunFolder& folder, const ReportModel& model,
                                     const PrivacyScrubber& scrubber);

// The summary as text, or nullopt with error naming what private item survived.
std::optional<std::string> qualification_summary_text(const RunFolder& folder,
                                                      const ReportModel& model,
                                                      const PrivacyScrubber& scrubber,
                                                      std::string* error);

// Every string and key of VALUE passed through redact_private.
nlohmann::json redact_json(const nlohmann::json& value, const PrivacyScrubber& scrubber);

}  // namespace lb::report
