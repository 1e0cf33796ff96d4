#include "ui/review/media_strip.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPixmap>
#include <QScreen>
#include <QScrollArea>
#include <QStyle>
#include <QThreadPool>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

#include "ui/review/media_thumbnail.h"

namespace lb::ui {
namespace {

// Thumbnails get their own small pool: a large image never waits behind other global work, and
// two cores at most are spent on previews.
QThreadPool& thumbnail_pool() {
  static QThreadPool pool;
  pool.setMaxThreadCount(2);
  return pool;
}

bool strip_same_media(const std::vector<plan::MediaRef>& a, const std::vector<plan::MediaRef>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].bytes != b[i].bytes || a[i].url != b[i].url || a[i].source != b[i].source)
      return false;
  return true;
}

}  // namespace

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
  // The tiles scroll sideways: a prompt with a long video strip never widens the window.
  auto* inner = new QWidget;
  row_ = new QHBoxLayout(inner);
  row_->setContentsMargins(0, 2, 0, 2);
  row_->addStretch();
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(inner);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  scroll->setFixedHeight(kThumbnailPx + 6 + style()->pixelMetric(QStyle::PM_ScrollBarExtent));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
  setAccessibleName(tr("Prompt media"));
  hide();
}

MediaStrip::~MediaStrip() { ++*generation_; }  // queued items are skipped, not decoded

QLabel* MediaStrip::new_tile() {
  auto* label = new QLabel(this);
  label->setCursor(Qt::PointingHandCursor);
  label->setFocusPolicy(Qt::StrongFocus);  // Tab to it, Enter enlarges it
  label->installEventFilter(this);
  label->setFixedSize(2 * kThumbnailPx, kThumbnailPx);
  label->setWordWrap(true);
  label->setAlignment(Qt::AlignCenter);
  label->setFrameShape(QFrame::StyledPanel);
  return label;
}

void MediaStrip::name_tile(QLabel* tile, const plan::MediaRef& item, const QString& why) {
  tile->setPixmap({});
  tile->setFixedSize(2 * kThumbnailPx, kThumbnailPx);
  tile->setText(media_caption(item) + (why.isEmpty() ? QString() : "\n" + why));
  tile->setToolTip({});
}

void MediaStrip::fill_tile(size_t index, const Thumbnail& t) {
  QLabel* tile = tiles_.at(index);
  const plan::MediaRef& item = media_.at(index);
  if (t.image.isNull()) return name_tile(tile, item, t.why);
  tile->setText({});
  tile->setPixmap(QPixmap::fromImage(t.image));
  if (item.kind == plan::MediaKind::Video) {
    tile->setFixedSize(t.image.size());
    tile->setToolTip(media_caption(item) + "\n" +
                     tr("%1 of %2 frames, first to last").arg(t.shown).arg(t.total) + "\n" +
                     tr("Click to enlarge"));
  } else {
    tile->setFixedSize(kThumbnailPx, kThumbnailPx);
    tile->setToolTip(media_caption(item) + "\n" + tr("Click to enlarge"));
  }
}

bool MediaStrip::eventFilter(QObject* watched, QEvent* event) {
  auto* tile = qobject_cast<QLabel*>(watched);
  const auto at = std::find(tiles_.begin(), tiles_.end(), tile);
  if (at != tiles_.end()) {
    const bool click = event->type() == QEvent::MouseButtonRelease;
    const bool key = event->type() == QEvent::KeyPress &&
                     (static_cast<QKeyEvent*>(event)->key() == Qt::Key_Return ||
                      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Enter);
    if (click || key) {
      enlarge(static_cast<int>(at - tiles_.begin()));
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

QDialog* MediaStrip::enlarge(int index) {
  if (index < 0 || index >= tile_count()) return nullptr;
  const plan::MediaRef& item = media_.at(static_cast<size_t>(index));
  const Thumbnail big = decode_thumbnail(item, kEnlargedPx, kMaxEnlargedFrames);
  if (enlarged_) enlarged_->close();
  auto* dialog = new QDialog(window());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowTitle(media_caption(item));
  auto* picture = new QLabel(dialog);
  picture->setAlignment(Qt::AlignCenter);
  picture->setAccessibleName(tr("Enlarged medium"));
  if (big.image.isNull())
    picture->setText(media_caption(item) + (big.why.isEmpty() ? QString() : "\n" + big.why));
  else
    picture->setPixmap(QPixmap::fromImage(big.image));
  auto* scroll = new QScrollArea(dialog);
  scroll->setWidget(picture);
  scroll->setWidgetResizable(true);
  auto* caption = new QLabel(media_caption(item), dialog);
  caption->setWordWrap(true);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(scroll, 1);
  layout->addWidget(caption);
  // Fits the picture, but never more than most of the screen the strip is on.
  const QSize room = screen() ? screen()->availableSize() * 0.85 : QSize(1024, 768);
  const QSize want = big.image.isNull() ? QSize(400, 200) : big.image.size() + QSize(40, 70);
  dialog->resize(want.boundedTo(room));
  dialog->show();
  enlarged_ = dialog;
  return dialog;
}

void MediaStrip::decode_async(size_t index) {
  const uint64_t job = *generation_;
  auto* watcher = new QFutureWatcher<Thumbnail>(this);
  connect(watcher, &QFutureWatcher<Thumbnail>::finished, this, [this, watcher, index, job] {
    watcher->deleteLater();
    if (job != *generation_) {
      ++dropped_;  // the user has moved to another prompt
      return;
    }
    fill_tile(index, watcher->result());
    if (--pending_ == 0) emit media_shown();
  });
  std::shared_ptr<std::atomic<uint64_t>> current = generation_;
  watcher->setFuture(
      QtConcurrent::run(&thumbnail_pool(), [item = media_[index], job, current]() -> Thumbnail {
        if (job != *current) return {};  // superseded before it started
        return decode_thumbnail(item, kThumbnailPx, kMaxStripFrames);
      }));
}

void MediaStrip::show_media(const std::vector<plan::MediaRef>& media) {
  if (strip_same_media(media, media_) && tile_count() == static_cast<int>(media.size())) {
    if (pending_ == 0) emit media_shown();
    return;
  }
  ++*generation_;
  pending_ = 0;
  for (QLabel* tile : tiles_) delete tile;
  tiles_.clear();
  media_ = media;
  for (size_t i = 0; i < media_.size(); ++i) {
    QLabel* tile = new_tile();
    row_->insertWidget(static_cast<int>(i), tile);
    tiles_.push_back(tile);
    if (!needs_decoding(media_[i])) {
      fill_tile(i, decode_thumbnail(media_[i], kThumbnailPx, kMaxStripFrames));  // named at once
      continue;
    }
    name_tile(tile, media_[i], tr("decoding…"));
    ++pending_;
    decode_async(i);
  }
  setVisible(!tiles_.empty());
  if (pending_ == 0) emit media_shown();
}

}  // namespace lb::ui
