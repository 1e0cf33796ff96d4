#pragma once
// Short videos through FFmpeg's libraries, in memory. Writing: MPEG-4 Part 2 in an MP4 container,
// which OpenCV and PyAV (the video loaders of vLLM) read. Reading: MP4/MOV, WebM/Matroska or AVI
// with any codec the installed libavcodec decodes.
#include <string_view>

#include "core/media/decoded.h"
#include "core/media/image.h"

namespace lb::media {

// Every frame, converted to RGB; more than kMaxFrames frames, frames larger than kMaxPixels or
// more than kMaxVideoPixels in all are an error (refused while decoding, before they add up).
Decoded<Video> decode_video(std::string_view bytes);

// All frames must share one size (even width and height). The same frames give the same bytes
// (bit-exact mode: no encoder version or time stamps in the file). qscale 1 (best) - 31.
Encoded encode_mp4(const std::vector<Image>& frames, int fps, int qscale = 2);

}  // namespace lb::media
