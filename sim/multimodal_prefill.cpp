#include "multimodal_prefill.h"

namespace lb::sim {
namespace {

// Placeholder ids sit above every text piece and marker id; the medium's hash picks them, so
// the same picture gives the same tokens (a prefix-cache hit) and another one does not.
constexpr TokenId kMediaTokenBase = 6'000'000'000;
constexpr int64_t kUrlMediaSidePx = 448;

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

int64_t vision_tokens(const RequestMedia& media, const Profile& profile) {
  const int64_t patch = std::max(1, profile.vision_patch_px);
  const int64_t w = media.pixels ? media.width_px : kUrlMediaSidePx;
  const int64_t h = media.pixels ? media.height_px : kUrlMediaSidePx;
  const int64_t per_frame = std::max<int64_t>(1, ceil_div(w, patch) * ceil_div(h, patch));
  const int64_t frame_groups = media.video ? std::max<int64_t>(1, ceil_div(media.frames, 2)) : 1;
  return per_frame * frame_groups;
}

double vision_encoder_s(const std::vector<RequestMedia>& media, const Profile& profile) {
  double pixels = 0;
  for (const auto& m : media) {
    const double w = m.pixels ? m.width_px : kUrlMediaSidePx;
    const double h = m.pixels ? m.height_px : kUrlMediaSidePx;
    pixels += w * h * std::max(1, m.frames);
  }
  return pixels / 1e6 * profile.vision_encoder_s_per_mpx;
}

std::string media_limit_message(const char* modality, int limit) {
  return "At most " + std::to_string(limit) + " " + modality +
         "(s) may be provided in one prompt. Set `--limit-mm-per-prompt` to increase this limit.";
}

std::optional<ParseError> check_media_limits(const GenRequest& request, const Profile& profile) {
  int images = 0, videos = 0;
  for (const auto& m : request.messages)
    for (const auto& part : m.media) ++(part.video ? videos : images);
  if (profile.image_limit >= 0 && images > profile.image_limit)
    return ParseError{media_limit_message("image", profile.image_limit), ""};
  if (profile.video_limit >= 0 && videos > profile.video_limit)
    return ParseError{media_limit_message("video", profile.video_limit), ""};
  return std::nullopt;
}

std::optional<ParseError> attach_media(GenRequest& request, const Profile& profile) {
  size_t parts = 0;
  for (const auto& m : request.messages) parts += m.media.size();
  if (parts == 0) return std::nullopt;
  // vLLM checks the limits before it loads anything.
  if (auto err = check_media_limits(request, profile)) return err;
  for (auto& message : request.messages) {
    std::vector<RequestMedia> decoded;
    if (auto err = decode_media_parts(message.media, decoded)) return ParseError{err->message, ""};
    for (const auto& media : decoded) {
      const int64_t n = vision_tokens(media, profile);
      for (int64_t i = 0; i < n; ++i) {
        message.media_tokens.push_back(
            kMediaTokenBase +
            static_cast<TokenId>((media.content_hash + uint64_t(i)) % 1'000'000'000));
      }
      request.media.push_back(media);
    }
  }
  request.vision_encoder_s = vision_encoder_s(request.media, profile);
  request.prompt_tokens = std::make_shared<const std::vector<TokenId>>(
      render_chat(request.messages, request.tools, true));
  return std::nullopt;
}

}  // namespace lb::sim
