// The media readers (media/media_reader.h decode_media: PNG, JPEG, and MP4/MOV, WebM, AVI
// through FFmpeg) on arbitrary bytes: never crash, a rejection says why, and what is accepted is
// consistent: a format with a MIME type, frames of the stated size within the limits, and an
// image that writes back as PNG and reads back as the same pixels.
#include <string_view>

#include "core/media/image_codec.h"
#include "core/media/media_reader.h"
#include "split_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lb::media;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto r = decode_media(bytes);
  if (!r.ok()) {
    if (r.error.empty()) lb::fuzz::invariant_failed("rejected media without an error");
    return 0;
  }
  const DecodedMedia& media = *r.value;
  if (mime_type(media.format).empty()) lb::fuzz::invariant_failed("accepted an unknown format");
  if (media.frame_count() < 1 || media.frame_count() > kMaxFrames) {
    lb::fuzz::invariant_failed("frame count outside 1..kMaxFrames");
  }
  if (!media.is_video() && media.frame_count() != 1)
    lb::fuzz::invariant_failed("image of >1 frame");
  for (const Image& frame : media.video.frames) {
    if (frame.empty() || int64_t(frame.width_px) * frame.height_px > kMaxPixels ||
        frame.rgb.size() != size_t(frame.width_px) * size_t(frame.height_px) * 3) {
      lb::fuzz::invariant_failed("a frame's pixels do not match its size");
    }
  }
  if (!media.is_video()) {
    const Image& image = media.video.frames.front();
    const Encoded png = encode_png(image);
    const auto again = png.ok() ? decode_png(png.bytes) : Decoded<Image>::fail(png.error);
    if (!again.ok() || !(*again.value == image)) {
      lb::fuzz::invariant_failed("an accepted image does not survive a PNG round trip");
    }
  }
  return 0;
}
