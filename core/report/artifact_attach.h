#pragma once
// Keeping a checkpoint verification in a run folder (artifacts/<lane>.verification.json), where
// the report takes it up. Used by `lanebench-cli verify --attach` and the Verify page.
#include <string>

#include <nlohmann/json.hpp>

namespace lb::report {

// True when RUN_DIR is a run folder whose plan has LANE; otherwise false with ERROR naming the
// lanes it does have.
bool check_attach_target(const std::string& run_dir, const std::string& lane, std::string* error);

// Writes DOC (a verification document, as `verify --json` prints it) as RUN_DIR/artifacts/
// LANE.verification.json through a temporary file and a rename, after check_attach_target.
// PATH receives the file written.
bool attach_verification(const std::string& run_dir, const std::string& lane,
                         const nlohmann::json& doc, std::string* path, std::string* error);

}  // namespace lb::report
