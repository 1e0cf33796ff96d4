#pragma once
// Images and videos sent with a request: chat `image_url` / `video_url` content parts and the
// Responses API's `input_image`. data: URLs are decoded to pixels (media/ readers), and so are
// http(s) URLs once fetched (media_fetch.h); a URL not fetched is counted without pixels.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/media/image.h"

namespace lb::sim {

struct MediaPart {
  bool video = false;
  std::string url;  // data: or http(s) URL as sent
  // An http(s) URL's bytes and Content-Type once fetched; null when not fetched.
  std::shared_ptr<const std::string> fetched;
  std::string fetched_mime;
};

struct RequestMedia {
  bool video = false;
  std::string mime;           // from the data: URL or the fetched URL's Content-Type
  int64_t encoded_bytes = 0;  // after base64 decoding, or as fetched; 0 for a URL not fetched
  int width_px = 0;
  int height_px = 0;
  int frames = 0;             // 1 for an image
  uint64_t content_hash = 0;  // of the URL as sent: equal media hit the prefix cache
  std::shared_ptr<const media::Video> pixels;  // null for a URL not fetched
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
