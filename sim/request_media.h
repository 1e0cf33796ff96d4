#pragma once
// Images and videos sent with a request: chat `image_url` / `video_url` content parts and the
// Responses API's `input_image`. data: URLs are decoded to pixels (media/ readers); http(s) URLs
// are counted but not fetched, so they carry no pixels.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "media/image.h"

namespace lb::sim {

struct MediaPart {
  bool video = false;
  std::string url;  // data: or http(s) URL as sent
};

struct RequestMedia {
  bool video = false;
  std::string mime;           // from the data: URL
  int64_t encoded_bytes = 0;  // after base64 decoding; 0 for http(s) URLs
  int width_px = 0;
  int height_px = 0;
  int frames = 0;             // 1 for an image
  uint64_t content_hash = 0;  // of the URL as sent: equal media hit the prefix cache
  std::shared_ptr<const media::Video> pixels;  // null for http(s) URLs
};

struct MediaError {
  std::string message;  // in vLLM's words where vLLM has them
};

// Decodes each part; the first unreadable one is an error.
std::optional<MediaError> decode_media_parts(const std::vector<MediaPart>& parts,
                                             std::vector<RequestMedia>& out);

// Standard base64 (padding optional, whitespace not allowed); nullopt when invalid.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace lb::sim
