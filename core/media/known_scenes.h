#pragma once
// Pictures with known content for multimodal checks: counted coloured shapes, a word in the
// bitmap font, a bar chart with a known tallest bar, and the frames of a square that moves and
// changes colour. Everything is a function of its arguments (no randomness inside).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/media/image.h"

namespace lb::media {

enum class ShapeKind { Circle, Square, Triangle };
std::string_view shape_kind_name(ShapeKind kind);  // "circle", "square", "triangle"

struct ShapeSpec {
  ShapeKind kind = ShapeKind::Circle;
  int colour = 0;  // index into shape_colours()
};

inline constexpr int kShapesImagePx = 256;  // square picture, a 4 x 4 grid of cells
inline constexpr int kMaxShapes = 16;

// Shapes in distinct cells of a 4 x 4 grid; `layout_seed` picks the cells and the sizes.
Image draw_shapes(const std::vector<ShapeSpec>& shapes, uint64_t layout_seed);
// One word (A-Z, 0-9) in black on white, 4 px per font pixel.
Image draw_word(std::string_view word);
// Bars labelled A, B, C, ... under them; heights in pixels (1-140).
Image draw_bar_chart(const std::vector<int>& heights_px);

struct SquareFrame {
  int colour = 0;  // index into shape_colours()
  int left_px = 0;
};
inline constexpr int kVideoWidthPx = 128;
inline constexpr int kVideoHeightPx = 96;
inline constexpr int kVideoSquarePx = 32;
std::vector<Image> draw_square_frames(const std::vector<SquareFrame>& frames);

// splitmix64: the generator's only source of variety, the same on every platform.
class SceneRandom {
 public:
  explicit SceneRandom(uint64_t seed) : state_(seed) {}
  uint64_t next();
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }

 private:
  uint64_t state_;
};

}  // namespace lb::media
