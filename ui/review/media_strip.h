#pragma once
// The images and videos a prompt was sent with, shown above the two answers on the Review page:
// a thumbnail per image (decoded with QImage) and, per video, a strip of its frames from first to
// last (decoded with core/media's reader), so a reviewer sees what both lanes were asked about.
// Media sent as an http(s) URL, or that cannot be read, are named instead (size, frames, file).
// The strip hides itself for a text-only prompt.
#include <QWidget>
#include <vector>

#include "plan/prompt_set.h"

class QHBoxLayout;
class QLabel;

namespace lb::ui {

class MediaStrip : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kThumbnailPx = 96;
  // Images larger than this are named instead of decoded, so a huge file cannot stall the page.
  static constexpr qsizetype kMaxDecodedBytes = 16 << 20;
  static constexpr int kMaxStripFrames = 6;  // frames shown of a video, evenly spaced

  explicit MediaStrip(QWidget* parent = nullptr);
  void show_media(const std::vector<plan::MediaRef>& media);
  void clear_media() { show_media({}); }

  int tile_count() const { return static_cast<int>(tiles_.size()); }
  QLabel* tile(int index) const { return tiles_.at(static_cast<size_t>(index)); }

 private:
  QLabel* image_tile(const plan::MediaRef& item);
  QLabel* video_tile(const plan::MediaRef& item);
  QLabel* named_tile(const plan::MediaRef& item, const QString& why);

  QHBoxLayout* row_ = nullptr;
  std::vector<QLabel*> tiles_;
};

// "video clip.mp4 · 64×48 · 8 frames · 12.3 KB" (parts not known are left out).
QString media_caption(const plan::MediaRef& item);

}  // namespace lb::ui
