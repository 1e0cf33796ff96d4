#include "core/plan/prompt_set_media.h"

#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "core/media/media_reader.h"

namespace lb::plan {
namespace {

using nlohmann::json;

struct MediaKey {
  const char* key;
  MediaKind kind;
  bool url;
};
constexpr MediaKey kMediaKeys[] = {{"image", MediaKind::Image, false},
                                   {"video", MediaKind::Video, false},
                                   {"image_url", MediaKind::Image, true},
                                   {"video_url", MediaKind::Video, true}};

std::optional<MediaRef> url_ref(const MediaKey& key, const std::string& url, std::string& error) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    error = "expected an http:// or https:// URL (local files go in \"" +
            std::string(key.kind == MediaKind::Video ? "video" : "image") + "\")";
    return std::nullopt;
  }
  MediaRef ref;
  ref.kind = key.kind;
  ref.url = url;
  ref.source = url;
  return ref;
}

// PATH inside the set's folder, links resolved, or nullopt with *error: a set from elsewhere
// must not send the user's other files (an absolute path, ../, a link out) to a server.
std::optional<std::filesystem::path> path_in_set(const std::string& path,
                                                 const std::string& base_dir, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path written(path);
  const fs::path base = fs::canonical(base_dir.empty() ? fs::path(".") : fs::path(base_dir), ec);
  const fs::path resolved = ec ? fs::path() : fs::weakly_canonical(base / written, ec);
  const fs::path inside = ec ? fs::path() : resolved.lexically_relative(base);
  const bool escapes =
      written.is_absolute() || inside.empty() || inside == "." || *inside.begin() == "..";
  if (!escapes) return resolved;
  error = path + ": outside the prompt set's folder (" +
          (written.is_absolute() ? "an absolute path" : "a ../ path or a link out of it") +
          "); media files must be in the set's folder or below it";
  return std::nullopt;
}

std::optional<MediaRef> file_ref(const MediaKey& key, const std::string& path,
                                 const std::string& base_dir, std::string& error) {
  if (path.empty()) {
    error = "must not be empty";
    return std::nullopt;
  }
  if (path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0) {
    error = std::string("a URL goes in \"") +
            (key.kind == MediaKind::Video ? "video_url" : "image_url") + "\"; \"" + key.key +
            "\" takes a file path";
    return std::nullopt;
  }
  const auto resolved = path_in_set(path, base_dir, error);
  if (!resolved) return std::nullopt;
  auto file = media::read_media_file(resolved->string());
  if (!file.ok()) {
    error = file.error;
    return std::nullopt;
  }
  const bool is_video = file.value->media.is_video();
  if (is_video != (key.kind == MediaKind::Video)) {
    error = path + ": is " + (is_video ? "a video" : "an image") + "; list it as \"" +
            (is_video ? "video" : "image") + "\"";
    return std::nullopt;
  }
  MediaRef ref;
  ref.kind = key.kind;
  ref.mime = std::string(media::mime_type(file.value->media.format));
  ref.source = std::filesystem::path(path).lexically_normal().string();
  ref.width_px = file.value->media.video.width_px;
  ref.height_px = file.value->media.video.height_px;
  ref.frames = is_video ? file.value->media.frame_count() : 0;
  ref.bytes = std::make_shared<const std::string>(std::move(file.value->bytes));
  return ref;
}

}  // namespace

std::string media_base_dir(std::string_view source_name) {
  return std::filesystem::path(std::string(source_name)).parent_path().string();
}

std::vector<MediaFieldError> parse_media_field(const json& value, const std::string& base_dir,
                                               std::vector<MediaRef>& out) {
  std::vector<MediaFieldError> errors;
  if (!value.is_array()) {
    errors.push_back({"media",
                      "expected an array of {\"image\"|\"video\"|\"image_url\"|"
                      "\"video_url\": string} objects"});
    return errors;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string at = "media[" + std::to_string(i) + "]";
    const json& item = value[i];
    if (!item.is_object() || item.size() != 1) {
      errors.push_back({at,
                        "expected an object with exactly one of \"image\", \"video\", "
                        "\"image_url\", \"video_url\""});
      continue;
    }
    // item.begin(), not *item.items().begin(): that proxy is a temporary, and a structured
    // binding to it dangles once the statement ends.
    const auto first = item.begin();
    const std::string& name = first.key();
    const json& path = first.value();
    const MediaKey* key = nullptr;
    for (const auto& k : kMediaKeys) key = name == k.key ? &k : key;
    if (!key) {
      errors.push_back({at + "." + name,
                        "unknown field (expected image, video, image_url or "
                        "video_url)"});
      continue;
    }
    if (!path.is_string()) {
      errors.push_back(
          {at + "." + name, "expected a string, got " + std::string(path.type_name())});
      continue;
    }
    std::string error;
    auto ref = key->url ? url_ref(*key, path.get<std::string>(), error)
                        : file_ref(*key, path.get<std::string>(), base_dir, error);
    if (ref) {
      out.push_back(std::move(*ref));
    } else {
      errors.push_back({at + "." + name, error});
    }
  }
  return errors;
}

}  // namespace lb::plan
