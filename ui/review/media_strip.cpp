#include "ui/review/media_strip.h"

#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QPixmap>

#include "ui/review/video_frames.h"

namespace lb::ui {

QString media_caption(const plan::MediaRef& item) {
  QStringList parts;
  parts << QString::fromUtf8(plan::media_kind_name(item.kind).data(),
                             static_cast<qsizetype>(plan::media_kind_name(item.kind).size())) +
               (item.source.empty() ? QString() : " " + QString::fromStdString(item.source));
  if (item.width_px > 0 && item.height_px > 0)
    parts << QString("%1×%2").arg(item.width_px).arg(item.height_px);
  if (item.frames > 0) parts << QObject::tr("%n frame(s)", nullptr, item.frames);
  if (item.bytes)
    parts << QLocale::system().formattedDataSize(static_cast<qint64>(item.bytes->size()));
  else
    parts << QObject::tr("sent as a URL");
  return parts.join(" · ");
}

MediaStrip::MediaStrip(QWidget* parent) : QWidget(parent) {
  row_ = new QHBoxLayout(this);
  row_->setContentsMargins(0, 2, 0, 2);
  row_->addStretch();
  setAccessibleName(tr("Prompt media"));
  hide();
}

QLabel* MediaStrip::named_tile(const plan::MediaRef& item, const QString& why) {
  auto* label = new QLabel(this);
  label->setFixedSize(2 * kThumbnailPx, kThumbnailPx);
  label->setWordWrap(true);
  label->setAlignment(Qt::AlignCenter);
  label->setFrameShape(QFrame::StyledPanel);
  label->setText(media_caption(item) + (why.isEmpty() ? QString() : "\n" + why));
  return label;
}

QLabel* MediaStrip::image_tile(const plan::MediaRef& item) {
  if (!item.bytes) return named_tile(item, tr("(not fetched)"));
  if (static_cast<qsizetype>(item.bytes->size()) > kMaxDecodedBytes)
    return named_tile(item, tr("(too large to preview)"));
  const QImage image = QImage::fromData(reinterpret_cast<const uchar*>(item.bytes->data()),
                                        static_cast<int>(item.bytes->size()));
  if (image.isNull()) return named_tile(item, tr("(cannot be read)"));
  auto* label = new QLabel(this);
  label->setPixmap(QPixmap::fromImage(
      image.scaled(kThumbnailPx, kThumbnailPx, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
  label->setFixedSize(kThumbnailPx, kThumbnailPx);
  label->setAlignment(Qt::AlignCenter);
  label->setFrameShape(QFrame::StyledPanel);
  label->setToolTip(media_caption(item));
  return label;
}

QLabel* MediaStrip::video_tile(const plan::MediaRef& item) {
  if (!item.bytes) return named_tile(item, tr("(not fetched)"));
  if (static_cast<qsizetype>(item.bytes->size()) > kMaxDecodedBytes)
    return named_tile(item, tr("(too large to preview)"));
  const FrameStrip strip = video_frame_strip(*item.bytes, kThumbnailPx, kMaxStripFrames);
  if (strip.image.isNull()) return named_tile(item, strip.error);
  auto* label = new QLabel(this);
  label->setPixmap(QPixmap::fromImage(strip.image));
  label->setFixedSize(strip.image.size());
  label->setFrameShape(QFrame::StyledPanel);
  label->setToolTip(media_caption(item) + "\n" +
                    tr("%1 of %2 frames, first to last").arg(strip.shown).arg(strip.total));
  return label;
}

void MediaStrip::show_media(const std::vector<plan::MediaRef>& media) {
  for (QLabel* tile : tiles_) delete tile;
  tiles_.clear();
  for (const auto& item : media) {
    QLabel* tile = item.kind == plan::MediaKind::Image ? image_tile(item) : video_tile(item);
    row_->insertWidget(static_cast<int>(tiles_.size()), tile);
    tiles_.push_back(tile);
  }
  setVisible(!tiles_.empty());
}

}  // namespace lb::ui
