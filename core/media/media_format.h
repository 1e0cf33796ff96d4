#pragma once
// Telling encoded media apart by their first bytes (never by a file name's extension).
#include <string_view>

namespace lb::media {

enum class MediaFormat { Unknown, Png, Jpeg, Mp4, Webm, Avi };

MediaFormat sniff_format(std::string_view bytes);
bool is_video_format(MediaFormat format);
// "image/png", "image/jpeg", "video/mp4", "video/webm", "video/x-msvideo"; "" for Unknown.
std::string_view mime_type(MediaFormat format);
// "PNG", "JPEG", "MP4", "WebM", "AVI", "unknown"
std::string_view format_name(MediaFormat format);

}  // namespace lb::media
