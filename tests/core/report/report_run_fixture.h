#pragma once
// One small real qualification run on in-process simulator lanes (regression, throughput, gates,
// context sweep), kept on disk for the report tests to read back.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/record/experiment_kind.h"

namespace lb::test {

// The plan the report tests run: two sim lanes, every experiment the report tables cover.
nlohmann::json report_test_plan(const std::string& bf16_notes_text = {});

// Runs PLAN into a fresh folder under the temp directory named DIR_NAME and returns its path;
// fails the test (qFatal) when the run cannot start.
std::filesystem::path run_plan_into(const nlohmann::json& plan, const std::string& dir_name);

// The run folder DIR's summary.json as the file holds it (what a test compares the report with);
// null when it is absent or not JSON.
nlohmann::json summary_json(const std::string& dir);
// Its experiment sections of KIND, in run order.
std::vector<nlohmann::json> summary_sections(const std::string& dir, record::ExperimentKind kind);

}  // namespace lb::test
