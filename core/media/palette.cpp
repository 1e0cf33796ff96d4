#include "core/media/palette.h"

namespace lb::media {
namespace {

constexpr NamedColour kShapeColours[] = {
    {"red", {220, 30, 30}},     {"green", {30, 160, 40}},   {"blue", {30, 60, 220}},
    {"yellow", {240, 200, 20}}, {"purple", {140, 40, 170}},
};

int distance2(Rgb a, Rgb b) {
  const int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return dr * dr + dg * dg + db * db;
}

}  // namespace

std::span<const NamedColour> shape_colours() { return kShapeColours; }

int nearest_shape_colour(Rgb pixel) {
  int best = -1;
  int best_d = std::min(distance2(pixel, kWhite), distance2(pixel, kBlack));
  for (int i = 0; i < static_cast<int>(std::size(kShapeColours)); ++i) {
    const int d = distance2(pixel, kShapeColours[i].rgb);
    if (d < best_d) {
      best = i;
      best_d = d;
    }
  }
  return best;
}

bool is_dark(Rgb pixel) { return pixel.r < 90 && pixel.g < 90 && pixel.b < 90; }

bool is_background(Rgb pixel) { return pixel.r > 200 && pixel.g > 200 && pixel.b > 200; }

}  // namespace lb::media
