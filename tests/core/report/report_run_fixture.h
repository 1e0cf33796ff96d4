#pragma once
// One small real qualification run on in-process simulator lanes (regression, throughput, gates,
// context sweep), kept on disk for the report tests to read back.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::test {

// The plan the report tests run: two sim lanes, every experiment the report tables cover.
nlohmann::json report_test_plan(const std::string& bf16_notes_text = {});

// Runs PLAN into a fresh folder under the temp directory named DIR_NAME and returns its path;
// fails the test (qFatal) when the run cannot start.
std::filesystem::path run_plan_into(const nlohmann::json& plan, const std::string& dir_name);

}  // namespace lb::test
