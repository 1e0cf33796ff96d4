#pragma once
// The images and videos a prompt was sent with, shown above the two answers on the Review page:
// a thumbnail per image and, per video, a strip of its frames from first to last, so a reviewer
// sees what both lanes were asked about. Media sent as an http(s) URL, too large, or that cannot
// be read, are named instead (size, frames, file). The strip hides itself for a text-only prompt.
//
// A click on a tile (or Enter on it, focused with Tab) opens the medium enlarged in a window of
// its own: an image at up to 720 px, a video as up to 12 of its frames at that height.
//
// Decoding runs on a worker thread (media_thumbnail.h): each tile shows a placeholder until its
// QImage comes back to the GUI thread. A result for a prompt the user has already left is
// dropped, and a worker skips the items of a prompt that is no longer shown.
#include <QPointer>
#include <QWidget>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/plan/prompt_set.h"

class QDialog;
class QHBoxLayout;
class QLabel;

namespace lb::ui {

struct Thumbnail;

class MediaStrip : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kThumbnailPx = 96;
  static constexpr int kMaxStripFrames = 6;  // frames shown of a video, evenly spaced

  explicit MediaStrip(QWidget* parent = nullptr);
  ~MediaStrip() override;
  void show_media(const std::vector<plan::MediaRef>& media);
  void clear_media() { show_media({}); }

  int tile_count() const { return static_cast<int>(tiles_.size()); }
  QLabel* tile(int index) const { return tiles_.at(static_cast<size_t>(index)); }
  bool decoding() const { return pending_ > 0; }
  int dropped_results() const { return dropped_; }  // decoded for a prompt no longer shown
  static constexpr int kEnlargedPx = 720;
  static constexpr int kMaxEnlargedFrames = 12;
  // Opens tile INDEX's medium enlarged (what a click on it does); the window, or null.
  QDialog* enlarge(int index);
  QDialog* enlarged() const { return enlarged_; }

 signals:
  // Every tile of the prompt now shown is filled in (at once for a prompt without media to
  // decode).
  void media_shown();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QLabel* new_tile();
  void name_tile(QLabel* tile, const plan::MediaRef& item, const QString& why);
  void fill_tile(size_t index, const Thumbnail& thumbnail);
  void decode_async(size_t index);

  QHBoxLayout* row_ = nullptr;
  std::vector<QLabel*> tiles_;
  std::vector<plan::MediaRef> media_;  // the prompt now shown (the bytes are shared, not copied)
  // Which prompt is shown; shared with the workers, which skip items of an earlier one.
  std::shared_ptr<std::atomic<uint64_t>> generation_ = std::make_shared<std::atomic<uint64_t>>(0);
  int pending_ = 0;
  int dropped_ = 0;
  QPointer<QDialog> enlarged_;
};

// "video clip.mp4 · 64×48 · 8 frames · 12.3 KB" (parts not known are left out).
QString media_caption(const plan::MediaRef& item);

}  // namespace lb::ui
