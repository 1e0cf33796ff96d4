#include "ui/review/media_thumbnail.h"

#include <QObject>

#include "ui/review/video_frames.h"

namespace lb::ui {
namespace {

Thumbnail named_thumbnail(const QString& why) {
  Thumbnail t;
  t.why = why;
  return t;
}

}  // namespace

bool needs_decoding(const plan::MediaRef& item) {
  return item.bytes && static_cast<qsizetype>(item.bytes->size()) <= kMaxThumbnailSourceBytes;
}

Thumbnail decode_thumbnail(const plan::MediaRef& item, int size_px, int max_frames) {
  if (!item.bytes) return named_thumbnail(QObject::tr("(not fetched)"));
  if (!needs_decoding(item)) return named_thumbnail(QObject::tr("(too large to preview)"));
  if (item.kind == plan::MediaKind::Video) {
    FrameStrip strip = video_frame_strip(*item.bytes, size_px, max_frames);
    if (strip.image.isNull()) return named_thumbnail(strip.error);
    Thumbnail t;
    t.image = std::move(strip.image);
    t.shown = strip.shown;
    t.total = strip.total;
    return t;
  }
  const QImage image = QImage::fromData(reinterpret_cast<const uchar*>(item.bytes->data()),
                                        static_cast<int>(item.bytes->size()));
  if (image.isNull()) return named_thumbnail(QObject::tr("(cannot be read)"));
  Thumbnail t;
  t.image = image.scaled(size_px, size_px, Qt::KeepAspectRatio, Qt::SmoothTransformation);
  return t;
}

}  // namespace lb::ui
