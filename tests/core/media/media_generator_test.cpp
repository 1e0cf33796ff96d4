// The known-answer generator: the same items and bytes every time, ten items of each kind, every
// medium decodable with the size it claims, and the pictures drawn as the answers say.
#include <QtTest>

#include "test_main.h"

#include <map>
#include <set>

#include "core/media/canvas.h"
#include "core/media/known_answer_items.h"
#include "core/media/known_scenes.h"
#include "core/media/media_reader.h"
#include "core/media/palette.h"

using namespace lb::media;

namespace {

int generator_count_pixels(const Image& image, Rgb colour) {
  int n = 0;
  for (int y = 0; y < image.height_px; ++y)
    for (int x = 0; x < image.width_px; ++x) n += image.at(x, y) == colour;
  return n;
}

}  // namespace

class TestMediaGenerator : public QObject {
  Q_OBJECT

 private slots:
  void items_are_deterministic() {
    const auto a = multimodal_items();
    const auto b = multimodal_items();
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      QCOMPARE(a[i].id, b[i].id);
      QCOMPARE(a[i].question, b[i].question);
      QCOMPARE(a[i].answer, b[i].answer);
      QCOMPARE(a[i].media.size(), b[i].media.size());
      for (size_t m = 0; m < a[i].media.size(); ++m)
        QVERIFY(a[i].media[m].bytes == b[i].media[m].bytes);
    }
  }

  void ten_items_of_each_kind_with_checks() {
    const auto items = multimodal_items();
    QCOMPARE(int(items.size()), 30);
    std::map<std::string, int> per_category;
    std::set<std::string> ids;
    for (const auto& item : items) {
      ++per_category[item.category];
      QVERIFY2(ids.insert(item.id).second, item.id.c_str());
      QVERIFY2(!item.checks.empty(), item.id.c_str());
      QVERIFY2(!item.media.empty(), item.id.c_str());
      int videos = 0;
      for (const auto& m : item.media) videos += m.video;
      if (item.category == "image") QVERIFY(videos == 0 && item.media.size() == 1);
      if (item.category == "video") QVERIFY(videos == 1 && item.media.size() == 1);
      if (item.category == "mixed") QCOMPARE(int(item.media.size()), 2);
    }
    QCOMPARE(per_category["image"], 10);
    QCOMPARE(per_category["video"], 10);
    QCOMPARE(per_category["mixed"], 10);
  }

  void every_medium_decodes_as_described() {
    for (const auto& item : multimodal_items()) {
      for (const auto& m : item.media) {
        const auto decoded = decode_media(m.bytes);
        QVERIFY2(decoded.ok(), (item.id + ": " + decoded.error).c_str());
        QCOMPARE(decoded.value->is_video(), m.video);
        QCOMPARE(std::string(mime_type(decoded.value->format)), m.mime);
        QCOMPARE(decoded.value->video.width_px, m.width_px);
        QCOMPARE(decoded.value->video.height_px, m.height_px);
        QCOMPARE(decoded.value->frame_count(), m.frames);
      }
    }
  }

  void counted_shapes_are_drawn_in_their_colour() {
    // Three red squares of at least 38 px: at least 3 * 38 * 38 red pixels, and no other colour.
    const Image image =
        draw_shapes({{ShapeKind::Square, 0}, {ShapeKind::Square, 0}, {ShapeKind::Square, 0}}, 7);
    const Rgb red = shape_colours()[0].rgb;
    const int red_px = generator_count_pixels(image, red);
    QVERIFY2(red_px >= 3 * 38 * 38 && red_px <= 3 * 46 * 46, qPrintable(QString::number(red_px)));
    QCOMPARE(red_px + generator_count_pixels(image, kWhite), image.width_px * image.height_px);
    QVERIFY(draw_shapes({{ShapeKind::Circle, 1}}, 1) == draw_shapes({{ShapeKind::Circle, 1}}, 1));
    QVERIFY(
        !(draw_shapes({{ShapeKind::Circle, 1}}, 1) == draw_shapes({{ShapeKind::Circle, 1}}, 2)));
  }

  void a_word_is_its_glyphs() {
    // "I" is 3 columns wide and 7 rows tall, scale 4: 12 + 12 + 5 * 4 font pixels of 16 px each.
    const Image image = draw_word("I");
    QCOMPARE(generator_count_pixels(image, kBlack), (3 + 3 + 5) * 16);
    QCOMPARE(text_width_px("ABC", 4), (3 * 6 - 1) * 4);
  }

  void the_answers_follow_the_scenes() {
    const auto items = multimodal_items();
    QVERIFY(items[4].answer.find("LANTERN") != std::string::npos);
    for (const auto& item : items) {
      if (item.id == "mm-video-01") {
        QVERIFY2(item.answer.rfind("The square in the last frame is ", 0) == 0,
                 item.answer.c_str());
      }
      if (item.question.find("Which image has more circles") != std::string::npos) {
        const bool second = item.answer.find("second") != std::string::npos;
        QCOMPARE(item.checks.back().text, std::string(second ? "first" : "second"));
      }
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestMediaGenerator)
#include "media_generator_test.moc"
