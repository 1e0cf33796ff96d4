#pragma once
// Reads a GuideLLM benchmarks report (benchmarks.json): {"metadata": {"guidellm_version"},
// "benchmarks": [ {config|args: {strategy}, metrics: {...}, requests: {successful, incomplete,
// errored}} ]}. Request entries are read from both report generations: the 0.2/0.3 one
// (start_time, first_token_time, last_token_time, end_time, error) and the later one
// (info.timings.request_start, first_token_iteration, last_token_iteration, token_iterations,
// request_end, info.error); the computed prompt_tokens/output_tokens are in both.
#include <string>

#include <nlohmann/json.hpp>

#include "core/interop/imported_benchmark.h"

namespace lb::interop {

bool looks_like_guidellm_report(const nlohmann::json& object);

ImportReadResult read_guidellm_report(const nlohmann::json& report, const std::string& file_name);

}  // namespace lb::interop
