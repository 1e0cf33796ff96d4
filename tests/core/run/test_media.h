#pragma once
// Media for run-layer tests, made with QImage: a PNG of one colour with a given size, and bytes
// that stand for a video (the client sends a video's bytes as they are, without reading them).
#include <QBuffer>
#include <QColor>
#include <QImage>

#include <memory>
#include <string>

#include "core/plan/prompt_set.h"

namespace lb::test {

inline std::string png_bytes(int width_px, int height_px, QColor colour) {
  QImage image(width_px, height_px, QImage::Format_RGB32);
  image.fill(colour);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes.toStdString();
}

inline lb::plan::MediaRef png_media(int width_px, int height_px, QColor colour,
                                    const std::string& source) {
  lb::plan::MediaRef m;
  m.kind = lb::plan::MediaKind::Image;
  m.mime = "image/png";
  m.bytes = std::make_shared<const std::string>(png_bytes(width_px, height_px, colour));
  m.source = source;
  m.width_px = width_px;
  m.height_px = height_px;
  return m;
}

inline lb::plan::MediaRef video_media(int width_px, int height_px, int frames, size_t size_bytes,
                                      const std::string& source) {
  lb::plan::MediaRef m;
  m.kind = lb::plan::MediaKind::Video;
  m.mime = "video/mp4";
  std::string bytes;
  for (size_t i = 0; i < size_bytes; ++i) bytes += static_cast<char>((i * 131 + 7) & 0xff);
  m.bytes = std::make_shared<const std::string>(std::move(bytes));
  m.source = source;
  m.width_px = width_px;
  m.height_px = height_px;
  m.frames = frames;
  return m;
}

inline lb::plan::MediaRef url_media(const std::string& url) {
  lb::plan::MediaRef m;
  m.kind = lb::plan::MediaKind::Image;
  m.mime = "image/jpeg";
  m.url = url;
  m.source = url;
  return m;
}

}  // namespace lb::test
