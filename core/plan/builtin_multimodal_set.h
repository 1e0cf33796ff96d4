#pragma once
// builtin:multimodal-30: the generated known-answer items (media/known_answer_items.h) as a
// prompt set, each with its checks. Made in code, not read from resources/prompts.
#include "core/plan/prompt_set.h"

namespace lb::plan {

inline constexpr std::string_view kMultimodalSetName = "multimodal-30";
PromptSet multimodal_prompt_set();

}  // namespace lb::plan
