#pragma once
// The named colours of generated test media, far apart in RGB so they survive JPEG and MPEG-4
// compression, and the reverse look-up a reader uses to name a pixel's colour.
#include <span>
#include <string_view>

#include "core/media/image.h"

namespace lb::media {

struct NamedColour {
  std::string_view name;  // "red", "green", ...
  Rgb rgb;
};

inline constexpr Rgb kWhite{255, 255, 255};
inline constexpr Rgb kBlack{0, 0, 0};

// red, green, blue, yellow, purple: the colours shapes are drawn in.
std::span<const NamedColour> shape_colours();
// The index in shape_colours() of the colour nearest to `pixel`, or -1 when the pixel is nearer
// to white or black than to any of them.
int nearest_shape_colour(Rgb pixel);
bool is_dark(Rgb pixel);        // text ink, after compression
bool is_background(Rgb pixel);  // white paper, after compression

}  // namespace lb::media
