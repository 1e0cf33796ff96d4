#pragma once
// The generated table behind builtin_prompt_sets.h (see builtin_prompt_sets.cmake).
#include <string_view>
#include <vector>

namespace lb::plan::detail {
struct BuiltinPromptSetEntry {
  std::string_view name;
  std::string_view jsonl;
};
const std::vector<BuiltinPromptSetEntry>& builtin_prompt_set_table();
}  // namespace lb::plan::detail
