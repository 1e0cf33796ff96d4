#include "core/media/known_answer_items.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "core/media/image_codec.h"
#include "core/media/known_scenes.h"
#include "core/media/palette.h"
#include "core/media/video_codec.h"

namespace lb::media {
namespace {

constexpr int kVideoFps = 4;
constexpr int kVideoFrames = 8;

using Kind = ItemCheck::Kind;

std::string colour_name(int index) { return std::string(shape_colours()[size_t(index)].name); }

std::string item_id(const char* category, int n) {
  char id[32];
  std::snprintf(id, sizeof id, "mm-%s-%02d", category, n);
  return id;
}

ItemMedia png_media(const Image& image, std::string name) {
  Encoded png = encode_png(image);
  if (!png.ok()) throw std::logic_error("test media: " + png.error);
  return {
      false, "image/png", std::move(png.bytes), std::move(name), image.width_px, image.height_px,
      1,     0,           std::nullopt};
}

ItemMedia mp4_media(const std::vector<Image>& frames, std::string name) {
  Encoded mp4 = encode_mp4(frames, kVideoFps);
  if (!mp4.ok()) throw std::logic_error("test media: " + mp4.error);
  return {true,
          "video/mp4",
          std::move(mp4.bytes),
          std::move(name),
          frames.front().width_px,
          frames.front().height_px,
          static_cast<int>(frames.size()),
          kVideoFps,
          std::nullopt};
}

// The square video of a story, with where its square ends up.
ItemMedia square_media(const std::vector<SquareFrame>& story_frames, std::string name) {
  ItemMedia media = mp4_media(draw_square_frames(story_frames), std::move(name));
  const SquareFrame& last = story_frames.back();
  const NamedColour& colour = shape_colours()[size_t(last.colour)];
  media.last_square = SquareTruth{std::string(colour.name), colour.rgb, last.left_px,
                                  (kVideoHeightPx - kVideoSquarePx) / 2, kVideoSquarePx};
  return media;
}

std::string plural(int n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

KnownAnswerItem counting_item(int n) {
  SceneRandom random(0x5ca1e000u + static_cast<uint64_t>(n));
  const int colour = n % 5;
  const auto kind = static_cast<ShapeKind>(n % 3);
  const int count = 1 + random.below(6);
  std::vector<ShapeSpec> shapes(size_t(count), {kind, colour});
  for (int i = 0, extra = 3 + random.below(4); i < extra; ++i) {
    // Distractors: the same colour in another shape, or the same shape in another colour.
    if (i % 2 == 0) shapes.push_back({static_cast<ShapeKind>((n + 1 + i / 2) % 3), colour});
    if (i % 2 == 1) shapes.push_back({kind, (colour + 1 + random.below(4)) % 5});
  }
  const std::string what = colour_name(colour) + " " + std::string(shape_kind_name(kind));
  KnownAnswerItem item{item_id("image", n + 1),
                       "image",
                       "How many " + what + "s are in the image? Answer with a number.",
                       {},
                       {},
                       {}};
  item.media.push_back(
      png_media(draw_shapes(shapes, random.next()), "shapes-" + std::to_string(n)));
  item.answer = count == 1 ? "There is 1 " + what + " in the image."
                           : "There are " + plural(count, what) + " in the image.";
  item.checks.push_back({Kind::Number, {}, double(count)});
  return item;
}

KnownAnswerItem word_item(int n, const std::string& word, const char* category, int number) {
  KnownAnswerItem item{item_id(category, number),
                       category,
                       "What word is written in the image? Answer with the word.",
                       {},
                       {},
                       {}};
  item.media.push_back(png_media(draw_word(word), "word-" + std::to_string(n)));
  item.answer = "The word is " + word + ".";
  item.checks.push_back({Kind::Contains, word, 0});
  return item;
}

KnownAnswerItem chart_item(int n) {
  SceneRandom random(0xc4a7000u + static_cast<uint64_t>(n));
  std::vector<int> heights;
  const int bars = 4 + n % 2;
  const int tallest = random.below(bars);
  for (int i = 0; i < bars; ++i) heights.push_back(i == tallest ? 130 : 30 + random.below(80));
  const std::string letter(1, static_cast<char>('A' + tallest));
  KnownAnswerItem item{item_id("image", 8 + n),
                       "image",
                       "The bars of this chart are labelled with letters. Which bar is the "
                       "tallest? Answer with its letter.",
                       {},
                       {},
                       {}};
  item.media.push_back(png_media(draw_bar_chart(heights), "chart-" + std::to_string(n)));
  item.answer = "Bar " + letter + " is the tallest.";
  item.checks.push_back({Kind::Word, letter, 0});
  return item;
}

struct SquareStory {
  std::vector<SquareFrame> frames;
  int last_colour = 0;
  int changes = 0;
  bool moves_right = true;
};

SquareStory square_story(int n) {
  SceneRandom random(0x71de0000u + static_cast<uint64_t>(n));
  SquareStory story;
  story.moves_right = random.below(2) == 0;
  int colour = random.below(5);
  const int change_count = 1 + random.below(3);
  std::vector<int> change_at;  // frame indexes 1..7 where the colour changes
  while (static_cast<int>(change_at.size()) < change_count) {
    const int at = 1 + random.below(kVideoFrames - 1);
    if (std::find(change_at.begin(), change_at.end(), at) == change_at.end())
      change_at.push_back(at);
  }
  for (int f = 0; f < kVideoFrames; ++f) {
    if (std::find(change_at.begin(), change_at.end(), f) != change_at.end()) {
      colour = (colour + 1 + random.below(4)) % 5;
    }
    const int left = story.moves_right ? 8 + f * 10 : 88 - f * 10;
    story.frames.push_back({colour, left});
  }
  story.last_colour = colour;
  story.changes = change_count;
  return story;
}

KnownAnswerItem video_item(int n) {
  const SquareStory story = square_story(n);
  KnownAnswerItem item{item_id("video", n + 1), "video", {}, {}, {}, {}};
  item.media.push_back(square_media(story.frames, "square-video-" + std::to_string(n)));
  if (n < 5) {
    item.question =
        "What colour is the square in the last frame of the video? Answer with one word.";
    item.answer = "The square in the last frame is " + colour_name(story.last_colour) + ".";
    item.checks.push_back({Kind::Contains, colour_name(story.last_colour), 0});
  } else if (n < 8) {
    const std::string way = story.moves_right ? "right" : "left";
    item.question = "Does the square in the video move to the left or to the right?";
    item.answer = "The square moves to the " + way + ".";
    item.checks.push_back({Kind::Word, way, 0});
    item.checks.push_back({Kind::NotContains, story.moves_right ? "left" : "right", 0});
  } else {
    item.question =
        "How many times does the square change colour during the video? Answer with a number.";
    item.answer = "The square changes colour " + std::to_string(story.changes) +
                  (story.changes == 1 ? " time." : " times.");
    item.checks.push_back({Kind::Number, {}, double(story.changes)});
  }
  return item;
}

KnownAnswerItem compare_item(int n) {
  SceneRandom random(0xc0de0000u + static_cast<uint64_t>(n));
  const int fewer = 1 + random.below(4);
  const int more = fewer + 1 + random.below(3);
  const bool second_has_more = random.below(2) == 0;
  KnownAnswerItem item{item_id("mixed", n + 1),
                       "mixed",
                       "Which image has more circles, the first or the second?",
                       {},
                       {},
                       {}};
  for (int which = 0; which < 2; ++which) {
    const int circles = (which == 1) == second_has_more ? more : fewer;
    std::vector<ShapeSpec> shapes;
    for (int i = 0; i < circles; ++i) shapes.push_back({ShapeKind::Circle, random.below(5)});
    for (int i = 0, squares = random.below(3); i < squares; ++i)
      shapes.push_back({ShapeKind::Square, random.below(5)});
    item.media.push_back(png_media(draw_shapes(shapes, random.next()),
                                   "circles-" + std::to_string(n) + "-" + std::to_string(which)));
  }
  const std::string winner = second_has_more ? "second" : "first";
  item.answer = "The " + winner + " image has more circles.";
  item.checks.push_back({Kind::Word, winner, 0});
  item.checks.push_back({Kind::NotContains, second_has_more ? "first" : "second", 0});
  return item;
}

KnownAnswerItem image_and_video_item(int n, const std::string& word) {
  const SquareStory story = square_story(20 + n);
  KnownAnswerItem item{item_id("mixed", 6 + n),
                       "mixed",
                       "What word is written in the image, and what colour is the square in the "
                       "last frame of the video?",
                       {},
                       {},
                       {}};
  item.media.push_back(png_media(draw_word(word), "word-mixed-" + std::to_string(n)));
  item.media.push_back(square_media(story.frames, "square-video-mixed-" + std::to_string(n)));
  const std::string colour = colour_name(story.last_colour);
  item.answer = "The word is " + word + ", and the square in the last frame is " + colour + ".";
  item.checks.push_back({Kind::Contains, word, 0});
  item.checks.push_back({Kind::Contains, colour, 0});
  return item;
}

}  // namespace

std::vector<KnownAnswerItem> multimodal_items() {
  const char* image_words[] = {"LANTERN", "MAPLE", "ORBIT"};
  const char* mixed_words[] = {"CEDAR", "PIXEL", "QUARTZ", "HARBOR", "VELVET"};
  std::vector<KnownAnswerItem> items;
  for (int n = 0; n < 4; ++n) items.push_back(counting_item(n));
  for (int n = 0; n < 3; ++n) items.push_back(word_item(n, image_words[n], "image", 5 + n));
  for (int n = 0; n < 3; ++n) items.push_back(chart_item(n));
  for (int n = 0; n < 10; ++n) items.push_back(video_item(n));
  for (int n = 0; n < 5; ++n) items.push_back(compare_item(n));
  for (int n = 0; n < 5; ++n) items.push_back(image_and_video_item(n, mixed_words[n]));
  return items;
}

}  // namespace lb::media
