#pragma once
// The images and videos one request carried, as requests.jsonl records them: per item its kind,
// size and shape, and the hash of its bytes (never the bytes or a data: URL), and the client's
// time to encode them into the request body, which is spent before the request is sent and so is
// in neither TTFT nor the network time.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lb::metrics {

struct MediaItemStats {
  std::string kind;      // "image", "video"
  std::string mime;      // "image/png", "video/mp4", ...
  std::string source;    // the file as the prompt set names it, or the generator's name
  std::string sha256;    // of the encoded file; empty for media sent as an http(s) URL
  bool by_url = false;   // sent as an http(s) URL (the URL itself is not recorded)
  int64_t bytes = 0;     // encoded file size; 0 when sent by URL
  int64_t width_px = 0;  // 0 = not known
  int64_t height_px = 0;
  int64_t frames = 0;      // videos; 0 = not known
  int64_t pixels() const;  // width × height, × frames for a video with a known frame count
};

struct RequestMedia {
  std::vector<MediaItemStats> items;
  int64_t encode_ns = 0;  // base64 and request-body building for a request with media
  bool empty() const { return items.empty(); }
  int64_t count(const std::string& kind) const;
  int64_t bytes() const;
  int64_t pixels() const;
  int64_t frames() const;
};

// {"images", "videos", "bytes", "pixels", "frames", "encode_ms", "items": [...]}
nlohmann::json to_json(const RequestMedia& media);

}  // namespace lb::metrics
