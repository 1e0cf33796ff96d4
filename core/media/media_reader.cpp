#include "core/media/media_reader.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/media/image_codec.h"
#include "core/media/video_codec.h"

namespace lb::media {

Decoded<DecodedMedia> decode_media(std::string_view bytes) {
  DecodedMedia media;
  media.format = sniff_format(bytes);
  if (media.format == MediaFormat::Unknown) {
    return Decoded<DecodedMedia>::fail(
        bytes.empty() ? "empty media file"
                      : "unsupported media format (expected PNG, JPEG, MP4, WebM or AVI)");
  }
  if (media.is_video()) {
    auto video = decode_video(bytes);
    if (!video.ok()) return Decoded<DecodedMedia>::fail(video.error);
    media.video = std::move(*video.value);
  } else {
    auto image = decode_image(bytes);
    if (!image.ok()) return Decoded<DecodedMedia>::fail(image.error);
    media.video.width_px = image.value->width_px;
    media.video.height_px = image.value->height_px;
    media.video.frames.push_back(std::move(*image.value));
  }
  return {std::move(media), {}};
}

Decoded<MediaFile> read_media_file(const std::string& path, int64_t max_bytes) {
  const auto fail = [&](const std::string& why) {
    return Decoded<MediaFile>::fail(path + ": " + why);
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return fail("no such file");
  if (!std::filesystem::is_regular_file(status)) return fail("not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return fail("cannot read the file: " + ec.message());
  if (static_cast<int64_t>(size) > max_bytes) {
    return fail("the file is " + std::to_string(size) + " bytes, more than the " +
                std::to_string(max_bytes) + " allowed");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot open the file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return fail("cannot read the file");
  MediaFile file;
  file.bytes = buffer.str();
  auto decoded = decode_media(file.bytes);
  if (!decoded.ok()) return fail(decoded.error);
  file.media = std::move(*decoded.value);
  return {std::move(file), {}};
}

}  // namespace lb::media
