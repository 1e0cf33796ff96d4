#include "core/metrics/request_media.h"

#include <nlohmann/json.hpp>

namespace lb::metrics {

int64_t MediaItemStats::pixels() const {
  const int64_t per_frame = width_px * height_px;
  return kind == "video" && frames > 0 ? per_frame * frames : per_frame;
}

int64_t RequestMedia::count(const std::string& kind) const {
  int64_t n = 0;
  for (const auto& item : items) n += item.kind == kind ? 1 : 0;
  return n;
}

int64_t RequestMedia::bytes() const {
  int64_t n = 0;
  for (const auto& item : items) n += item.bytes;
  return n;
}

int64_t RequestMedia::pixels() const {
  int64_t n = 0;
  for (const auto& item : items) n += item.pixels();
  return n;
}

int64_t RequestMedia::frames() const {
  int64_t n = 0;
  for (const auto& item : items) n += item.frames;
  return n;
}

nlohmann::json to_json(const RequestMedia& media) {
  nlohmann::json items = nlohmann::json::array();
  for (const auto& m : media.items) {
    nlohmann::json item = {{"kind", m.kind},         {"mime", m.mime},
                           {"source", m.source},     {"bytes", m.bytes},
                           {"width_px", m.width_px}, {"height_px", m.height_px},
                           {"frames", m.frames},     {"pixels", m.pixels()}};
    if (m.by_url)
      item["by_url"] = true;
    else
      item["sha256"] = m.sha256;
    items.push_back(std::move(item));
  }
  return {
      {"images", media.count("image")}, {"videos", media.count("video")},
      {"bytes", media.bytes()},         {"pixels", media.pixels()},
      {"frames", media.frames()},       {"encode_ms", static_cast<double>(media.encode_ns) / 1e6},
      {"items", std::move(items)}};
}

}  // namespace lb::metrics
