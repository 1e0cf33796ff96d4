#pragma once
// Plan texts shared by the plan tests. Kept out of the test sources because moc misreads some
// raw string literals (URLs with "//") and would then miss the test classes.
#include <string>

inline const char* kProductExample = R"({
  "name": "fp8 qualification",
  "lanes": [
    {"id": "bf16", "base_url": "sim:bf16"},
    {"id": "fp8", "base_url": "http://127.0.0.1:8001/v1", "model": "auto", "api_key_env": "FP8_KEY",
     "notes": {"weights": "fp8", "kv_cache": "fp8", "spec": "none", "prefix_caching": true}}
  ],
  "experiments": [
    {"kind": "regression", "prompts": "builtin:regression-20", "max_tokens": 256},
    {"kind": "throughput", "concurrency": [1, 5, 32], "requests": 64,
     "input_tokens": 4096, "output_tokens": 45},
    {"kind": "context_sweep", "prompt_tokens": [4096, 31225, 139428, 241250], "needle": true},
    {"kind": "prefix_cache", "burst": 5, "shared_prefix_tokens": 30000},
    {"kind": "speculative", "concurrency": [1, 5]},
    {"kind": "gates", "checks": ["json", "streaming", "tools", "tool_continuation", "responses",
                                 "session", "reasoning"], "repeat": 3}
  ]
})";

inline const char* kResolvedPlan = R"({
  "name": "resolved",
  "description": "two lanes",
  "lanes": [
    {"id": "base", "base_url": "sim:bf16?time_scale=0.1"},
    {"id": "cand", "base_url": "https://10.0.0.2:8443/v1", "api_key_env": "LB_TEST_CAND_KEY",
     "insecure": true, "http_version": "2", "notes": {"text": "FP8 weights, new build"}}
  ],
  "experiments": [
    {"kind": "throughput", "request_rate": 8, "burstiness": 0.5, "max_concurrency": 64,
     "duration_s": 60, "slo": {"ttft_ms": 500, "tpot_ms": 50}},
    {"kind": "throughput", "name": "sweep", "lanes": ["cand"], "concurrency": [1, 32]},
    {"kind": "context_sweep", "prompt_tokens": [4096]},
    {"kind": "prefix_cache"},
    {"kind": "speculative"},
    {"kind": "regression"},
    {"kind": "gates", "checks": ["json"]}
  ]
})";

inline const char* kManyErrorsPlan =
    R"({"name": "", "lanes": [{"id": "a", "base_url": "ftp://x"}, {"base_url": "sim:y"}],
            "experiments": [{"kind": "throughput", "requests": 0}, {"kind": "speculative",
            "concurrency": [1, -2]}], "extra": 1})";

// A valid one-lane plan with one experiment spliced in.
inline std::string with_experiment(const std::string& experiment) {
  return R"({"name": "t", "lanes": [{"id": "a", "base_url": "http://127.0.0.1:8000/v1"}],
             "experiments": [)" +
         experiment + "]}";
}

inline std::string with_lane(const std::string& lane) {
  return R"({"name": "t", "lanes": [)" + lane + R"(], "experiments": [{"kind": "gates"}]})";
}
