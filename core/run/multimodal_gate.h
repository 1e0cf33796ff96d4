#pragma once
// The "multimodal" gate: every prompt of a multimodal prompt set (images, videos, both) is sent
// once with its media, and its answer passes when every fact check of the prompt holds. The
// score is n/N overall and per input kind (the prompt's category: image, video, mixed). A lane
// that refuses media (a 400 naming images or multimodal input) is "multimodal unsupported", a
// result of its own: not a failure of the answers, and not a crash.
#include <nlohmann/json.hpp>

#include "plan/prompt_set.h"
#include "run/gate_checks.h"

namespace lb::run {

inline constexpr const char* kMultimodalUnsupported = "multimodal unsupported";

// The input kind a prompt is scored under: its category when it is image, video or mixed, else
// from its media (images only: image; videos only: video; both: mixed; none: text).
std::string multimodal_kind(const plan::PromptSpec& prompt);

// {"status": "pass"|"fail"|"unsupported", "passed", "attempts", "repeat" (= N), "score" "n/N",
//  "kinds": {kind: {"passed", "total", "score"}}, "failures": [{"id", "kind", "why"}],
//  "prompts": name, and when unsupported "why" and "unsupported": "multimodal unsupported"}
nlohmann::json run_multimodal_gate(ExperimentContext& ctx, GateIo& io, const plan::PromptSet& set);

}  // namespace lb::run
