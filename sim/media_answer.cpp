#include "media_answer.h"

#include <algorithm>
#include <optional>

#include "core/media/palette.h"
#include "core/text/ascii_text.h"
#include "pixel_reading.h"

namespace lb::sim {
namespace {

using media::ShapeKind;

bool has(const std::string& text, std::string_view word) {
  return text.find(word) != std::string::npos;
}

std::string colour_name(int index) {
  const auto colours = media::shape_colours();
  if (index < 0 || index >= static_cast<int>(colours.size())) return "unknown";
  return std::string(colours[size_t(index)].name);
}

std::string other_colour(int index) { return colour_name((index + 1) % 5); }

const RequestMedia* nth(const std::vector<RequestMedia>& media, bool video, int n) {
  for (const auto& m : media) {
    if (m.video == video && m.pixels && n-- == 0) return &m;
  }
  return nullptr;
}

const media::Image& first_frame(const RequestMedia& m) { return m.pixels->frames.front(); }

int count_shapes(const media::Image& image, std::optional<ShapeKind> kind, int colour) {
  int n = 0;
  for (const auto& blob : coloured_blobs(image)) {
    n += (!kind || blob.kind == *kind) && (colour < 0 || blob.colour == colour);
  }
  return n;
}

std::optional<ShapeKind> asked_kind(const std::string& q) {
  if (has(q, "circle")) return ShapeKind::Circle;
  if (has(q, "square")) return ShapeKind::Square;
  if (has(q, "triangle")) return ShapeKind::Triangle;
  return std::nullopt;
}

int asked_colour(const std::string& q) {
  const auto colours = media::shape_colours();
  for (size_t i = 0; i < colours.size(); ++i)
    if (has(q, colours[i].name)) return static_cast<int>(i);
  return -1;
}

std::string count_sentence(int n, const std::string& what) {
  return n == 1 ? "There is 1 " + what + " in the image."
                : "There are " + std::to_string(n) + " " + what + "s in the image.";
}

MediaAnswer count_answer(const std::string& q, const std::vector<RequestMedia>& media) {
  const RequestMedia* image = nth(media, false, 0);
  const auto kind = asked_kind(q);
  if (!image || !kind) return {};
  const int colour = asked_colour(q);
  const std::string what =
      (colour >= 0 ? colour_name(colour) + " " : "") + std::string(media::shape_kind_name(*kind));
  const int n = count_shapes(first_frame(*image), kind, colour);
  return {true, count_sentence(n, what), count_sentence(n + 1, what)};
}

MediaAnswer compare_answer(const std::vector<RequestMedia>& media) {
  const RequestMedia* a = nth(media, false, 0);
  const RequestMedia* b = nth(media, false, 1);
  if (!a || !b) return {};
  const int first = count_shapes(first_frame(*a), ShapeKind::Circle, -1);
  const int second = count_shapes(first_frame(*b), ShapeKind::Circle, -1);
  if (first == second)
    return {true, "Both images have the same number of circles.",
            "The first image has more circles."};
  const std::string winner = first > second ? "first" : "second";
  const std::string loser = first > second ? "second" : "first";
  return {true, "The " + winner + " image has more circles.",
          "The " + loser + " image has more circles."};
}

std::string word_in(const std::vector<RequestMedia>& media) {
  const RequestMedia* image = nth(media, false, 0);
  return image ? read_text(first_frame(*image)) : std::string();
}

MediaAnswer chart_answer(const std::vector<RequestMedia>& media) {
  const RequestMedia* image = nth(media, false, 0);
  if (!image) return {};
  const media::Image& chart = first_frame(*image);
  const auto blobs = coloured_blobs(chart);
  const auto tallest =
      std::max_element(blobs.begin(), blobs.end(),
                       [](const Blob& a, const Blob& b) { return a.height_px() < b.height_px(); });
  if (tallest == blobs.end()) return {};
  const std::string letter = read_text(chart, tallest->left_px, tallest->bottom_px + 1,
                                       tallest->right_px, chart.height_px - 1);
  if (letter.empty()) return {};
  const std::string wrong(1, letter[0] == 'A' ? 'B' : static_cast<char>(letter[0] - 1));
  return {true, "Bar " + letter + " is the tallest.", "Bar " + wrong + " is the tallest."};
}

struct SquareTrack {
  bool seen = false;
  int last_colour = -1;
  int changes = 0;
  bool moves_right = true;
};

SquareTrack track_square(const std::vector<RequestMedia>& media) {
  SquareTrack track;
  const RequestMedia* video = nth(media, true, 0);
  if (!video) return track;
  std::optional<FrameSquare> first, previous;
  for (const auto& frame : video->pixels->frames) {
    const auto square = frame_square(frame);
    if (!square) continue;
    if (!first) first = square;
    if (previous && previous->colour != square->colour) ++track.changes;
    previous = square;
  }
  if (!previous) return track;
  track.seen = true;
  track.last_colour = previous->colour;
  track.moves_right = previous->centre_x_px >= first->centre_x_px;
  return track;
}

std::string last_colour_clause(const SquareTrack& t, bool flip) {
  return "the square in the last frame is " +
         (flip ? other_colour(t.last_colour) : colour_name(t.last_colour));
}

MediaAnswer video_answer(const std::string& q, const std::vector<RequestMedia>& media) {
  const SquareTrack t = track_square(media);
  if (!t.seen) return {};
  if (has(q, "last frame")) {
    return {true, "The " + last_colour_clause(t, false) + ".",
            "The " + last_colour_clause(t, true) + "."};
  }
  if (has(q, "left or") || has(q, "direction")) {
    const std::string way = t.moves_right ? "right" : "left";
    const std::string wrong = t.moves_right ? "left" : "right";
    return {true, "The square moves to the " + way + ".", "The square moves to the " + wrong + "."};
  }
  if (has(q, "how many times") && has(q, "change")) {
    const auto times = [](int n) { return std::to_string(n) + (n == 1 ? " time." : " times."); };
    return {true, "The square changes colour " + times(t.changes),
            "The square changes colour " + times(t.changes + 1)};
  }
  return {};
}

MediaAnswer word_and_video_answer(const std::vector<RequestMedia>& media) {
  const std::string word = word_in(media);
  const SquareTrack t = track_square(media);
  if (word.empty() || !t.seen) return {};
  return {true, "The word is " + word + ", and " + last_colour_clause(t, false) + ".",
          "The word is " + word + ", and " + last_colour_clause(t, true) + "."};
}

}  // namespace

MediaAnswer answer_from_media(const std::string& question, const std::vector<RequestMedia>& media) {
  const std::string q = text::ascii_lower(question);
  const bool word = has(q, "word is written");
  const bool video = nth(media, true, 0) != nullptr;
  if (word && video) return word_and_video_answer(media);
  if (word) {
    const std::string text = word_in(media);
    if (text.empty()) return {};
    std::string wrong = text;
    std::reverse(wrong.begin(), wrong.end());
    return {true, "The word is " + text + ".", "The word is " + wrong + "."};
  }
  if (has(q, "which image has more")) return compare_answer(media);
  if (has(q, "tallest")) return chart_answer(media);
  if (video) return video_answer(q, media);
  if (has(q, "how many")) return count_answer(q, media);
  return {};
}

std::string describe_media(const std::vector<RequestMedia>& media) {
  std::string out;
  for (size_t i = 0; i < media.size(); ++i) {
    const RequestMedia& m = media[i];
    out += (i ? " " : "") + std::string(m.video ? "A video" : "An image");
    if (!m.pixels) {
      out += " given by URL.";
      continue;
    }
    out += " of " + std::to_string(m.width_px) + "x" + std::to_string(m.height_px) + " pixels";
    if (m.video) out += ", " + std::to_string(m.frames) + " frames";
    const int shapes = static_cast<int>(coloured_blobs(first_frame(m)).size());
    out += ", showing " + std::to_string(shapes) +
           (shapes == 1 ? " coloured shape." : " coloured shapes.");
  }
  return out;
}

}  // namespace lb::sim
