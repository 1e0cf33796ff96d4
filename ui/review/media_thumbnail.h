#pragma once
// One prompt medium turned into what the Review page's media strip shows: an image scaled into a
// thumbnail, a video as a strip of its frames, or why neither can be shown. A pure function of
// value types (QImage, not QPixmap), so the media strip runs it on a worker thread.
#include <QImage>
#include <QString>

#include "core/plan/prompt_set.h"

namespace lb::ui {

struct Thumbnail {
  QImage image;   // null when the medium is named instead
  QString why;    // "(not fetched)", "(too large to preview)", "(cannot be read)", a reader error
  int shown = 0;  // videos: frames in the strip
  int total = 0;  // videos: frames in the file
};

// Larger files are named instead of decoded, so one huge file cannot hold up the strip.
inline constexpr qsizetype kMaxThumbnailSourceBytes = 16 << 20;

// Whether decode_thumbnail has work to do (bytes to read), or the tile is named at once.
bool needs_decoding(const plan::MediaRef& item);
// Images fit a size_px square (aspect ratio kept); videos are size_px high, max_frames wide.
Thumbnail decode_thumbnail(const plan::MediaRef& item, int size_px, int max_frames);

}  // namespace lb::ui
