// The Review page's media strip: one thumbnail per image, scaled into the tile with its colours,
// one tile per video naming its size and frames, a URL named and not fetched, an unreadable
// image named as such, and no strip for a text-only prompt.
#include <QLabel>
#include <QtTest>

#include "test_main.h"

#include "../core/run/test_media.h"
#include "media/video_codec.h"
#include "ui/review/media_strip.h"

using lb::ui::MediaStrip;

class TestMediaStrip : public QObject {
  Q_OBJECT
 private slots:
  void showsThumbnailsAndVideoTiles() {
    MediaStrip strip;
    lb::plan::MediaRef broken = lb::test::png_media(4, 4, Qt::red, "broken.png");
    broken.bytes = std::make_shared<const std::string>("not a png");
    strip.show_media({lb::test::png_media(400, 200, Qt::red, "wide.png"),
                      lb::test::png_media(10, 10, Qt::blue, "small.png"),
                      lb::test::video_media(64, 48, 8, 12'000, "clip.mp4"),
                      lb::test::url_media("https://example.org/cat.jpg"), broken});
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
    strip.show_media({video});
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

  void aTextOnlyPromptHasNoStrip() {
    MediaStrip strip;
    strip.show_media({lb::test::png_media(8, 8, Qt::green, "g.png")});
    QCOMPARE(strip.tile_count(), 1);
    strip.clear_media();
    QCOMPARE(strip.tile_count(), 0);
    QVERIFY(strip.isHidden());
  }
};

LANEBENCH_TEST_MAIN(TestMediaStrip)
#include "ui_media_strip_test.moc"
