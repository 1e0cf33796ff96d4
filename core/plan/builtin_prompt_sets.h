#pragma once
// Prompt sets shipped with the program (resources/prompts/*.jsonl, compiled in at build time so
// "builtin:NAME" works from any directory).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::plan {

// The JSONL text of the built-in set NAME (without the "builtin:" prefix), e.g. "regression-20".
std::optional<std::string_view> builtin_prompt_set_text(std::string_view name);
// Every built-in set, including generated ones with no JSONL text (multimodal-30).
std::vector<std::string> builtin_prompt_set_names();

}  // namespace lb::plan
