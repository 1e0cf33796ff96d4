#include "core/media/known_scenes.h"

#include <algorithm>
#include <numeric>

#include "core/media/bitmap_font.h"
#include "core/media/canvas.h"
#include "core/media/palette.h"

namespace lb::media {
namespace {

constexpr int kCellPx = kShapesImagePx / 4;
constexpr int kWordScale = 4;
constexpr int kChartScale = 2;

void draw_shape(Image& image, ShapeKind kind, int left, int top, int size, Rgb colour) {
  switch (kind) {
    case ShapeKind::Circle:
      fill_circle(image, left + size / 2, top + size / 2, size / 2, colour);
      break;
    case ShapeKind::Square:
      fill_rect(image, left, top, size, size, colour);
      break;
    case ShapeKind::Triangle:
      fill_triangle(image, left, top, size, size, colour);
      break;
  }
}

}  // namespace

uint64_t SceneRandom::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string_view shape_kind_name(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::Circle:
      return "circle";
    case ShapeKind::Square:
      return "square";
    case ShapeKind::Triangle:
      return "triangle";
  }
  return "shape";
}

Image draw_shapes(const std::vector<ShapeSpec>& shapes, uint64_t layout_seed) {
  Image image(kShapesImagePx, kShapesImagePx, kWhite);
  SceneRandom random(layout_seed);
  std::vector<int> cells(16);
  std::iota(cells.begin(), cells.end(), 0);
  for (int i = 15; i > 0; --i) std::swap(cells[size_t(i)], cells[size_t(random.below(i + 1))]);
  const auto colours = shape_colours();
  const size_t n = std::min<size_t>(shapes.size(), kMaxShapes);
  for (size_t i = 0; i < n; ++i) {
    const int size = 38 + random.below(9);  // 38-46 px, in a 64 px cell
    const int slack = kCellPx - size;
    const int left = (cells[i] % 4) * kCellPx + 4 + random.below(slack - 7);
    const int top = (cells[i] / 4) * kCellPx + 4 + random.below(slack - 7);
    const int colour = std::clamp(shapes[i].colour, 0, static_cast<int>(colours.size()) - 1);
    draw_shape(image, shapes[i].kind, left, top, size, colours[size_t(colour)].rgb);
  }
  return image;
}

Image draw_word(std::string_view word) {
  const int margin = 16;
  Image image(text_width_px(word, kWordScale) + 2 * margin, kGlyphHeight * kWordScale + 2 * margin,
              kWhite);
  draw_text(image, margin, margin, word, kWordScale, kBlack);
  return image;
}

Image draw_bar_chart(const std::vector<int>& heights_px) {
  constexpr int kBarPx = 28, kGapPx = 20, kBaseY = 160, kMarginPx = 16;
  const int bars = static_cast<int>(heights_px.size());
  Image image(2 * kMarginPx + bars * kBarPx + (bars - 1) * kGapPx, 192, kWhite);
  const Rgb bar_colour = shape_colours()[2].rgb;
  for (int i = 0; i < bars; ++i) {
    const int left = kMarginPx + i * (kBarPx + kGapPx);
    const int height = std::clamp(heights_px[size_t(i)], 1, 140);
    fill_rect(image, left, kBaseY - height, kBarPx, height, bar_colour);
    const char label[2] = {static_cast<char>('A' + i), 0};
    const int label_left = left + (kBarPx - text_width_px(label, kChartScale)) / 2;
    draw_text(image, label_left, kBaseY + 8, label, kChartScale, kBlack);
  }
  return image;
}

std::vector<Image> draw_square_frames(const std::vector<SquareFrame>& frames) {
  std::vector<Image> out;
  const auto colours = shape_colours();
  for (const auto& f : frames) {
    Image image(kVideoWidthPx, kVideoHeightPx, kWhite);
    const int colour = std::clamp(f.colour, 0, static_cast<int>(colours.size()) - 1);
    fill_rect(image, f.left_px, (kVideoHeightPx - kVideoSquarePx) / 2, kVideoSquarePx,
              kVideoSquarePx, colours[size_t(colour)].rgb);
    out.push_back(std::move(image));
  }
  return out;
}

}  // namespace lb::media
