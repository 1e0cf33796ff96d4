#pragma once
// Media in a request, as the serving engine takes them: refused by a text-only lane (vLLM with
// --limit-mm-per-prompt 0), else decoded, turned into placeholder tokens that the prefill must
// process (one per vision patch, as vLLM's multimodal processors expand them), and charged a
// vision-encoder time that grows with pixels and frames.
#include <optional>
#include <string>

#include "gen_request.h"
#include "profile.h"

namespace lb::sim {

// Tokens of one medium: one per vision_patch_px x vision_patch_px patch, per pair of frames for
// a video. A medium given by http(s) URL and not fetched counts as a 448 x 448 image.
int64_t vision_tokens(const RequestMedia& media, const Profile& profile);
// Encoder time: vision_encoder_s_per_mpx per million pixels over every frame.
double vision_encoder_s(const std::vector<RequestMedia>& media, const Profile& profile);

// vLLM's 400 for more media than a lane takes, e.g. "At most 0 image(s) may be provided in one
// prompt. Set `--limit-mm-per-prompt` to increase this limit."
std::string media_limit_message(const char* modality, int limit);

// vLLM's 400 when the request has more images or videos than the lane takes (text-only: any),
// checked before anything is fetched or decoded.
std::optional<ParseError> check_media_limits(const GenRequest& request, const Profile& profile);

// Decodes the media of `request`'s messages, sets their placeholder tokens and re-renders the
// prompt; returns the 400 to answer instead (text-only lane, unreadable media).
std::optional<ParseError> attach_media(GenRequest& request, const Profile& profile);

}  // namespace lb::sim
