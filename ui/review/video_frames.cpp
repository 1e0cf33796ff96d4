#include "ui/review/video_frames.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <vector>

#include "core/media/media_reader.h"

namespace lb::ui {
namespace {

QImage to_qimage(const media::Image& frame) {
  const QImage view(frame.rgb.data(), frame.width_px, frame.height_px, 3 * frame.width_px,
                    QImage::Format_RGB888);
  return view.copy();  // the view does not own the pixels
}

}  // namespace

FrameStrip video_frame_strip(std::string_view bytes, int height_px, int max_frames) {
  FrameStrip out;
  const auto decoded = media::decode_media(bytes);
  if (!decoded.ok()) {
    out.error = QString::fromStdString(decoded.error);
    return out;
  }
  const auto& frames = decoded.value->video.frames;
  out.total = static_cast<int>(frames.size());
  if (frames.empty() || max_frames <= 0) {
    out.error = QObject::tr("the video has no frames");
    return out;
  }
  out.shown = std::min(out.total, max_frames);
  std::vector<QImage> thumbs;
  int width = 0;
  for (int i = 0; i < out.shown; ++i) {
    // Evenly spaced, first and last included.
    const int k = out.shown == 1 ? 0 : i * (out.total - 1) / (out.shown - 1);
    thumbs.push_back(to_qimage(frames[static_cast<size_t>(k)])
                         .scaledToHeight(height_px, Qt::SmoothTransformation));
    width += thumbs.back().width() + (i > 0 ? 2 : 0);
  }
  out.image = QImage(width, height_px, QImage::Format_RGB32);
  out.image.fill(Qt::white);
  QPainter painter(&out.image);
  int x = 0;
  for (const QImage& t : thumbs) {
    painter.drawImage(x, 0, t);
    x += t.width() + 2;
  }
  return out;
}

}  // namespace lb::ui
