#pragma once
// Turns a checkpoint verification report into the rows the Verify page lists and the one-line
// verdict above them. Pure: runs on whichever thread holds the report.
#include <QString>
#include <vector>

#include "core/artifacts/verification.h"
#include "models/verify_findings_model.h"

namespace lb::ui {

// Blockers first, then warnings, then verified files (only with include_ok), each by path.
std::vector<models::VerifyFinding> verify_findings(const artifacts::VerifyReport& report,
                                                   bool include_ok);
// "Verified: 4 files match …" / "Failed: 1 mismatch, 1 refused …" / the input error.
QString verify_verdict_text(const artifacts::VerifyReport& report);

}  // namespace lb::ui
