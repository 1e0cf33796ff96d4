#include "core/plan/builtin_prompt_sets.h"

#include "core/plan/builtin_multimodal_set.h"
#include "core/plan/builtin_prompt_sets_table.h"

namespace lb::plan {

std::optional<std::string_view> builtin_prompt_set_text(std::string_view name) {
  for (const auto& entry : detail::builtin_prompt_set_table()) {
    if (entry.name == name) return entry.jsonl;
  }
  return std::nullopt;
}

std::vector<std::string> builtin_prompt_set_names() {
  std::vector<std::string> names;
  for (const auto& entry : detail::builtin_prompt_set_table()) names.emplace_back(entry.name);
  names.emplace_back(kMultimodalSetName);  // generated in code: builtin_multimodal_set.h
  return names;
}

}  // namespace lb::plan
