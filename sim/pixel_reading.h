#pragma once
// Reading decoded pictures the way the multimodal profile "sees" them: coloured blobs and their
// shapes, words in the generator's bitmap font, and a square's colour and position in a frame.
// Tolerant of JPEG and MPEG-4 artefacts (colours are matched to the nearest named colour).
#include <optional>
#include <string>
#include <vector>

#include "core/media/image.h"
#include "core/media/known_scenes.h"

namespace lb::sim {

struct Blob {
  int colour = -1;                                           // index into media::shape_colours()
  int left_px = 0, top_px = 0, right_px = 0, bottom_px = 0;  // inclusive
  int area_px = 0;
  media::ShapeKind kind = media::ShapeKind::Square;
  int width_px() const { return right_px - left_px + 1; }
  int height_px() const { return bottom_px - top_px + 1; }
};

// Connected regions of one named colour, largest first; specks under 40 px are ignored.
std::vector<Blob> coloured_blobs(const media::Image& image);
// Text in the bitmap font within the box (inclusive), "" when none is found.
std::string read_text(const media::Image& image, int left_px, int top_px, int right_px,
                      int bottom_px);
std::string read_text(const media::Image& image);

struct FrameSquare {
  int colour = -1;         // the most common named colour of the frame
  double centre_x_px = 0;  // of the coloured pixels
};
std::optional<FrameSquare> frame_square(const media::Image& frame);

}  // namespace lb::sim
