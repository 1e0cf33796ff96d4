#pragma once
// The "multimodal" gate: every prompt of a multimodal prompt set (images, videos, both) is sent
// once with its media, and its answer passes when every fact check of the prompt holds. The
// score is n/N overall and per input kind (the prompt's category: image, video, mixed). A lane
// that refuses media (a 400 naming images or multimodal input) is "multimodal unsupported", a
// result of its own: not a failure of the answers, and not a crash.
//
// The prompts go over an API (core/run/drive/media_api.h): OpenAI chat, the Responses API
// (`input_image`) or Ollama's /api/chat (`images`). A prompt whose media the API cannot carry (a
// video over Responses or Ollama) is not sent: its kind reads "unsupported by the API" and it is
// left out of n/N.
#include <vector>

#include "core/plan/prompt_set.h"
#include "core/record/multimodal_gate_record.h"
#include "core/record/run_summary.h"
#include "core/run/drive/media_api.h"
#include "core/run/experiments/gate_checks.h"

namespace lb::run {

inline constexpr const char* kMultimodalUnsupported = "multimodal unsupported";
inline constexpr const char* kUnsupportedByApi = "unsupported by the API";

// The input kind a prompt is scored under: its category when it is image, video or mixed, else
// from its media (images only: image; videos only: video; both: mixed; none: text).
std::string multimodal_kind(const plan::PromptSpec& prompt);

// The APIs a lane's multimodal check is scored over, given the plan's `multimodal_api` ("chat",
// "responses", "both") and whether the lane's `responses` check passed: an Ollama lane over
// /api/chat; an OpenAI-compatible one over chat ("chat"; also over Responses when its `responses`
// check passed), over Responses alone, or over both.
std::vector<MediaApi> multimodal_apis(const LaneRuntime& lane, const std::string& multimodal_api,
                                      bool responses_passed);
// The gate's name in summary.json per API: "multimodal" over the lane's chat API (OpenAI chat or
// Ollama's), "multimodal (responses)" over the Responses API.
std::string multimodal_gate_key(MediaApi api);

// The check over API: its status ("stopped" on a Stop before any failure; "unsupported" with
// `why` when the server refused media or no prompt could go), passed/attempts/repeat (= N), the
// score "n/N", each failure (its prompt's id and kind in the failure's `more`) and, in `more`,
// the record::MultimodalGateRecord (API, route, per-kind scores, prompts not sent). Lane and
// check are left to the caller.
record::GateResult run_multimodal_gate(ExperimentContext& ctx, GateIo& io,
                                       const plan::PromptSet& set, MediaApi api = MediaApi::Chat);

}  // namespace lb::run
