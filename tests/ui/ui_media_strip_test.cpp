// The Review page's media strip: one thumbnail per image, scaled into the tile with its colours,
// one tile per video naming its size and frames, a URL named and not fetched, an unreadable
// image named as such, and no strip for a text-only prompt. Decoding runs off the GUI thread: a
// large image shows a placeholder while the event loop keeps running, and a switch of prompt
// mid-decode shows the new prompt's media, the old result dropped. A click on a thumbnail
// enlarges it.
#include <QBuffer>
#include <QDialog>
#include <QElapsedTimer>
#include <QLabel>
#include <QPainter>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include "test_main.h"

#include "core/media/video_codec.h"
#include "tests/core/run/test_media.h"
#include "ui/review/media_strip.h"

using lb::ui::MediaStrip;

namespace {

// Shows the media and waits until every tile is filled in.
bool show_and_wait(MediaStrip& strip, const std::vector<lb::plan::MediaRef>& media) {
  QSignalSpy shown(&strip, &MediaStrip::media_shown);
  strip.show_media(media);
  return shown.count() > 0 || shown.wait(20'000);
}

// A PNG large enough to take a while to decode (and to scale), striped so it stays small.
lb::plan::MediaRef large_png(QColor colour) {
  QImage image(5000, 5000, QImage::Format_RGB32);
  image.fill(colour);
  {
    QPainter painter(&image);
    for (int y = 0; y < image.height(); y += 7)
      painter.fillRect(0, y, image.width(), 1, colour.darker(110));
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG", 0);  // fastest compression: the decode is what is timed
  lb::plan::MediaRef m = lb::test::png_media(1, 1, colour, "large.png");
  m.bytes = std::make_shared<const std::string>(bytes.toStdString());
  m.width_px = image.width();
  m.height_px = image.height();
  return m;
}

}  // namespace

class TestMediaStrip : public QObject {
  Q_OBJECT
 private slots:
  void showsThumbnailsAndVideoTiles() {
    MediaStrip strip;
    lb::plan::MediaRef broken = lb::test::png_media(4, 4, Qt::red, "broken.png");
    broken.bytes = std::make_shared<const std::string>("not a png");
    QVERIFY(show_and_wait(strip, {lb::test::png_media(400, 200, Qt::red, "wide.png"),
                                  lb::test::png_media(10, 10, Qt::blue, "small.png"),
                                  lb::test::video_media(64, 48, 8, 12'000, "clip.mp4"),
                                  lb::test::url_media("https://example.org/cat.jpg"), broken}));
    QVERIFY(!strip.isHidden());
    QCOMPARE(strip.tile_count(), 5);
    const QPixmap wide = strip.tile(0)->pixmap();
    QCOMPARE(wide.width(), MediaStrip::kThumbnailPx);
    QCOMPARE(wide.height(), MediaStrip::kThumbnailPx / 2);  // the aspect ratio is kept
    QCOMPARE(wide.toImage().pixelColor(10, 10), QColor(Qt::red));
    QCOMPARE(strip.tile(1)->pixmap().toImage().pixelColor(5, 5), QColor(Qt::blue));
    QVERIFY(strip.tile(0)->toolTip().contains("400×200"));
    const QString video = strip.tile(2)->text();
    QVERIFY2(video.contains("clip.mp4") && video.contains("64×48") && video.contains("8 frame"),
             qPrintable(video));
    QVERIFY(strip.tile(2)->pixmap().isNull());  // not a readable video: named, with why
    QVERIFY2(strip.tile(3)->text().contains("not fetched"), qPrintable(strip.tile(3)->text()));
    QVERIFY2(strip.tile(4)->text().contains("cannot be read"), qPrintable(strip.tile(4)->text()));
  }

  void aVideoShowsItsFramesFirstToLast() {
    std::vector<lb::media::Image> frames;
    for (lb::media::Rgb c :
         {lb::media::Rgb{255, 0, 0}, lb::media::Rgb{0, 255, 0}, lb::media::Rgb{0, 0, 255},
          lb::media::Rgb{255, 255, 255}, lb::media::Rgb{0, 0, 0}, lb::media::Rgb{255, 255, 0},
          lb::media::Rgb{0, 255, 255}, lb::media::Rgb{0, 0, 255}})
      frames.emplace_back(32, 32, c);
    const auto mp4 = lb::media::encode_mp4(frames, 4, 1);
    QVERIFY2(mp4.ok(), mp4.error.c_str());
    lb::plan::MediaRef video = lb::test::video_media(32, 32, 8, 1, "colours.mp4");
    video.bytes = std::make_shared<const std::string>(mp4.bytes);
    MediaStrip strip;
    QVERIFY(show_and_wait(strip, {video}));
    const QImage shown = strip.tile(0)->pixmap().toImage();
    QVERIFY(!shown.isNull());
    QCOMPARE(shown.height(), MediaStrip::kThumbnailPx);
    QVERIFY(shown.width() > 5 * MediaStrip::kThumbnailPx);  // six frames side by side
    const QColor first = shown.pixelColor(MediaStrip::kThumbnailPx / 2, shown.height() / 2);
    const QColor last =
        shown.pixelColor(shown.width() - MediaStrip::kThumbnailPx / 2, shown.height() / 2);
    QVERIFY2(first.red() > 200 && first.green() < 60 && first.blue() < 60,
             qPrintable(first.name()));
    QVERIFY2(last.blue() > 200 && last.red() < 60 && last.green() < 60, qPrintable(last.name()));
    QVERIFY(strip.tile(0)->toolTip().contains("6 of 8 frames"));
  }

  // A prompt with many media (a long video strip) scrolls sideways in its strip rather than
  // asking the window for the width of every tile.
  void manyMediaNeverWidenTheWindow() {
    MediaStrip strip;
    std::vector<lb::plan::MediaRef> media;
    for (int i = 0; i < 12; ++i)
      media.push_back(lb::test::png_media(200, 100, Qt::green, "m" + std::to_string(i) + ".png"));
    QVERIFY(show_and_wait(strip, media));
    QCOMPARE(strip.tile_count(), 12);
    QVERIFY2(strip.minimumSizeHint().width() < 300,
             qPrintable(QString::number(strip.minimumSizeHint().width())));
  }

  // A click on a thumbnail (or Enter on it) shows the medium enlarged in a window of its own.
  void aClickEnlargesAThumbnail() {
    MediaStrip strip;
    QVERIFY(show_and_wait(strip, {lb::test::png_media(900, 600, Qt::red, "big.png")}));
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    QVERIFY(strip.tile(0)->toolTip().contains("Click to enlarge"));
    QVERIFY(!strip.enlarged());
    QTest::mouseClick(strip.tile(0), Qt::LeftButton);
    QDialog* big = strip.enlarged();
    QVERIFY(big);
    QVERIFY2(big->windowTitle().contains("big.png"), qPrintable(big->windowTitle()));
    QLabel* picture = nullptr;
    for (QLabel* l : big->findChildren<QLabel*>())
      if (l->accessibleName() == "Enlarged medium") picture = l;
    QVERIFY(picture);
    const QImage shown = picture->pixmap().toImage();
    QCOMPARE(shown.width(), MediaStrip::kEnlargedPx);  // not the 96 px thumbnail
    QCOMPARE(shown.height(), MediaStrip::kEnlargedPx * 600 / 900);
    QCOMPARE(shown.pixelColor(100, 100), QColor(Qt::red));
    big->close();
    QTRY_VERIFY(!strip.enlarged());  // closed windows are deleted
    strip.tile(0)->setFocus();
    QTest::keyClick(strip.tile(0), Qt::Key_Return);
    QVERIFY(strip.enlarged());
    strip.enlarged()->close();
  }

  void aTextOnlyPromptHasNoStrip() {
    MediaStrip strip;
    QVERIFY(show_and_wait(strip, {lb::test::png_media(8, 8, Qt::green, "g.png")}));
    QCOMPARE(strip.tile_count(), 1);
    strip.clear_media();
    QCOMPARE(strip.tile_count(), 0);
    QVERIFY(strip.isHidden());
  }

  void aLargeImageDecodesWhileTheEventLoopRuns() {
    const lb::plan::MediaRef large = large_png(Qt::red);
    MediaStrip strip;
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    ticker.start(5);
    QSignalSpy shown(&strip, &MediaStrip::media_shown);
    QElapsedTimer returned;
    returned.start();
    strip.show_media({large});
    const qint64 show_ms = returned.elapsed();
    // The tile is there at once, as a placeholder naming the file.
    QCOMPARE(shown.count(), 0);
    QVERIFY(strip.decoding());
    QCOMPARE(strip.tile_count(), 1);
    QVERIFY(strip.tile(0)->pixmap().isNull());
    QVERIFY2(
        strip.tile(0)->text().contains("decoding") && strip.tile(0)->text().contains("large.png"),
        qPrintable(strip.tile(0)->text()));
    QVERIFY(shown.wait(20'000));
    const qint64 decode_ms = returned.elapsed();
    QVERIFY2(ticks > 0, qPrintable(QString("no timer tick in %1 ms of decoding").arg(decode_ms)));
    QVERIFY2(show_ms < decode_ms, qPrintable(QString("%1 / %2 ms").arg(show_ms).arg(decode_ms)));
    QVERIFY(!strip.decoding());
    const QImage thumb = strip.tile(0)->pixmap().toImage();
    QCOMPARE(thumb.size(), QSize(MediaStrip::kThumbnailPx, MediaStrip::kThumbnailPx));
    QVERIFY2(thumb.pixelColor(40, 40).red() > 200, qPrintable(thumb.pixelColor(40, 40).name()));
    qInfo("show_media returned in %lld ms; the 5000x5000 PNG was shown after %lld ms, %d ticks",
          show_ms, decode_ms, ticks);
  }

  void aSwitchOfPromptMidDecodeShowsTheNewPrompt() {
    MediaStrip strip;
    QSignalSpy shown(&strip, &MediaStrip::media_shown);
    strip.show_media({large_png(Qt::red)});
    QVERIFY(strip.decoding());
    strip.show_media({lb::test::png_media(20, 20, Qt::blue, "next.png")});
    QVERIFY(shown.count() > 0 || shown.wait(20'000));
    QCOMPARE(strip.tile_count(), 1);
    QVERIFY(strip.tile(0)->toolTip().contains("next.png"));
    QCOMPARE(strip.tile(0)->pixmap().toImage().pixelColor(10, 10), QColor(Qt::blue));
    // The first prompt's result comes back later and is dropped: the tile stays blue.
    QTRY_COMPARE_WITH_TIMEOUT(strip.dropped_results(), 1, 20'000);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(strip.tile_count(), 1);
    QCOMPARE(strip.tile(0)->pixmap().toImage().pixelColor(10, 10), QColor(Qt::blue));
  }
};

LANEBENCH_TEST_MAIN(TestMediaStrip)
#include "ui_media_strip_test.moc"
