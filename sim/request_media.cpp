#include "request_media.h"

#include <array>

#include "core/media/media_reader.h"

namespace lb::sim {
namespace {

constexpr uint64_t kFnvOffset = 1469598103934665603ULL;

uint64_t hash_text(std::string_view text) {
  uint64_t h = kFnvOffset;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::optional<MediaError> decode_bytes(const MediaPart& part, const std::string& bytes,
                                       RequestMedia& media) {
  media.encoded_bytes = static_cast<int64_t>(bytes.size());
  auto decoded = media::decode_media(bytes);
  const char* what = part.video ? "video" : "image";
  if (!decoded.ok())
    return MediaError{std::string("Failed to load ") + what + ": " + decoded.error};
  if (decoded.value->is_video() != part.video) {
    return MediaError{std::string("Failed to load ") + what + ": the data is " +
                      (decoded.value->is_video() ? "a video" : "an image")};
  }
  media.width_px = decoded.value->video.width_px;
  media.height_px = decoded.value->video.height_px;
  media.frames = decoded.value->frame_count();
  media.pixels = std::make_shared<const media::Video>(std::move(decoded.value->video));
  return std::nullopt;
}

std::optional<MediaError> decode_data_url(const MediaPart& part, RequestMedia& media) {
  const std::string_view url = part.url;
  const auto comma = url.find(',');
  const std::string_view header = url.substr(5, comma == std::string_view::npos ? 0 : comma - 5);
  if (comma == std::string_view::npos || header.size() < 7 ||
      header.substr(header.size() - 7) != ";base64") {
    return MediaError{"Failed to load media: only base64 data: URLs are supported"};
  }
  media.mime = std::string(header.substr(0, header.size() - 7));
  auto bytes = base64_decode(url.substr(comma + 1));
  if (!bytes) return MediaError{"Failed to load media: invalid base64 in the data: URL"};
  return decode_bytes(part, *bytes, media);
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  static const std::array<int8_t, 256> table = [] {
    std::array<int8_t, 256> t{};
    t.fill(-1);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i)
      t[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
    return t;
  }();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return std::nullopt;
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t bits = 0;
  int count = 0;
  for (unsigned char c : text) {
    const int v = table[c];
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  return out;
}

std::optional<MediaError> decode_media_parts(const std::vector<MediaPart>& parts,
                                             std::vector<RequestMedia>& out) {
  for (const auto& part : parts) {
    RequestMedia media;
    media.video = part.video;
    media.content_hash = hash_text(part.url);
    if (part.url.rfind("data:", 0) == 0) {
      if (auto err = decode_data_url(part, media)) return err;
    } else if (part.fetched) {
      media.mime = part.fetched_mime;
      if (auto err = decode_bytes(part, *part.fetched, media)) return err;
    } else if (part.url.rfind("http://", 0) != 0 && part.url.rfind("https://", 0) != 0) {
      return MediaError{"Invalid media URL: expected a data: or http(s) URL"};
    }
    out.push_back(std::move(media));
  }
  return std::nullopt;
}

}  // namespace lb::sim
