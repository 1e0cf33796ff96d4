#pragma once
// The readers' entry points: encoded bytes (or a file) in, pixels out, or an error that says what
// is wrong (and, for a file, which file).
#include <string>
#include <string_view>

#include "core/media/decoded.h"
#include "core/media/image.h"
#include "core/media/media_format.h"

namespace lb::media {

struct DecodedMedia {
  MediaFormat format = MediaFormat::Unknown;
  // An image is a video of one frame without a frame rate.
  Video video;
  bool is_video() const { return is_video_format(format); }
  int frame_count() const { return static_cast<int>(video.frames.size()); }
};

// Sniffs the format, then decodes. Unknown formats are "unsupported media format" errors.
Decoded<DecodedMedia> decode_media(std::string_view bytes);

struct MediaFile {
  std::string bytes;  // the file as it is, for sending
  DecodedMedia media;
};
// Reads and decodes a file; every error starts with the path ("imgs/a.png: not a readable
// PNG: ..."). Files larger than max_bytes are refused before they are read.
Decoded<MediaFile> read_media_file(const std::string& path,
                                   int64_t max_bytes = 256LL * 1024 * 1024);

}  // namespace lb::media
