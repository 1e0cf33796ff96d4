#pragma once
// Reads the result file `vllm bench serve --save-result` writes (benchmark_serving.py before it):
// one JSON object, or several on separate lines (--append-result). With --save-detailed it also
// holds per-request input_lens, output_lens, ttfts, itls (seconds), latencies, start_times,
// generated_texts and errors; without it only the aggregates (mean_ttft_ms, p99_itl_ms, ...).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/interop/imported_benchmark.h"

namespace lb::interop {

// True when the object has the shape of a vLLM result (completed + duration + a latency key).
bool looks_like_vllm_result(const nlohmann::json& object);

// `objects`: the file's JSON objects in order; `file_name` names the file in errors.
ImportReadResult read_vllm_results(const std::vector<nlohmann::json>& objects,
                                   const std::string& file_name);

}  // namespace lb::interop
