#include "core/media/media_format.h"

namespace lb::media {

MediaFormat sniff_format(std::string_view bytes) {
  if (bytes.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8)) return MediaFormat::Png;
  if (bytes.substr(0, 3) == std::string_view("\xff\xd8\xff", 3)) return MediaFormat::Jpeg;
  // ISO base media (MP4, MOV): a box whose type is "ftyp" comes first.
  if (bytes.size() >= 12 && bytes.substr(4, 4) == "ftyp") return MediaFormat::Mp4;
  if (bytes.substr(0, 4) == std::string_view("\x1a\x45\xdf\xa3", 4)) return MediaFormat::Webm;
  if (bytes.size() >= 12 && bytes.substr(0, 4) == "RIFF" && bytes.substr(8, 4) == "AVI ") {
    return MediaFormat::Avi;
  }
  return MediaFormat::Unknown;
}

bool is_video_format(MediaFormat format) {
  return format == MediaFormat::Mp4 || format == MediaFormat::Webm || format == MediaFormat::Avi;
}

std::string_view mime_type(MediaFormat format) {
  switch (format) {
    case MediaFormat::Png:
      return "image/png";
    case MediaFormat::Jpeg:
      return "image/jpeg";
    case MediaFormat::Mp4:
      return "video/mp4";
    case MediaFormat::Webm:
      return "video/webm";
    case MediaFormat::Avi:
      return "video/x-msvideo";
    case MediaFormat::Unknown:
      break;
  }
  return "";
}

std::string_view format_name(MediaFormat format) {
  switch (format) {
    case MediaFormat::Png:
      return "PNG";
    case MediaFormat::Jpeg:
      return "JPEG";
    case MediaFormat::Mp4:
      return "MP4";
    case MediaFormat::Webm:
      return "WebM";
    case MediaFormat::Avi:
      return "AVI";
    case MediaFormat::Unknown:
      break;
  }
  return "unknown";
}

}  // namespace lb::media
