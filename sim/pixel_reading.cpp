#include "pixel_reading.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/media/bitmap_font.h"
#include "core/media/palette.h"

namespace lb::sim {
namespace {

using media::Image;

constexpr int kMinBlobPx = 40;

media::ShapeKind classify(const Blob& blob) {
  const double fill =
      static_cast<double>(blob.area_px) / (static_cast<double>(blob.width_px()) * blob.height_px());
  // A filled box covers it all, a disc pi/4 of it, a triangle half.
  if (fill > 0.9) return media::ShapeKind::Square;
  if (fill > 0.65) return media::ShapeKind::Circle;
  return media::ShapeKind::Triangle;
}

// Flood fill of one colour from (x, y) over the labels grid (-1 = not yet visited).
Blob flood(const std::vector<int>& colours, std::vector<char>& seen, int width, int height, int x,
           int y) {
  Blob blob{colours[size_t(y * width + x)], x, y, x, y, 0, media::ShapeKind::Square};
  std::vector<int> stack{y * width + x};
  seen[size_t(y * width + x)] = 1;
  while (!stack.empty()) {
    const int at = stack.back();
    stack.pop_back();
    const int px = at % width, py = at / width;
    ++blob.area_px;
    blob.left_px = std::min(blob.left_px, px);
    blob.right_px = std::max(blob.right_px, px);
    blob.top_px = std::min(blob.top_px, py);
    blob.bottom_px = std::max(blob.bottom_px, py);
    const std::array<std::array<int, 2>, 4> steps{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
    for (const auto& [dx, dy] : steps) {
      const int nx = px + dx, ny = py + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const size_t n = size_t(ny * width + nx);
      if (seen[n] || colours[n] != blob.colour) continue;
      seen[n] = 1;
      stack.push_back(ny * width + nx);
    }
  }
  return blob;
}

struct TextBox {
  int left = 0, top = 0, right = -1, bottom = -1;
};

TextBox dark_box(const Image& image, int left, int top, int right, int bottom) {
  TextBox box{right + 1, bottom + 1, left - 1, top - 1};
  for (int y = top; y <= bottom; ++y) {
    for (int x = left; x <= right; ++x) {
      if (!media::is_dark(image.at(x, y))) continue;
      box.left = std::min(box.left, x);
      box.right = std::max(box.right, x);
      box.top = std::min(box.top, y);
      box.bottom = std::max(box.bottom, y);
    }
  }
  return box;
}

// Reads glyphs whose first cell starts at origin_x; returns the text and the pixels that
// disagreed with the font.
std::pair<std::string, int> read_glyphs(const Image& image, const TextBox& box, int origin_x,
                                        int scale) {
  std::string text;
  int wrong = 0;
  const int advance = media::kGlyphAdvance * scale;
  for (int cell = origin_x; cell <= box.right; cell += advance) {
    std::array<uint8_t, media::kGlyphHeight> rows{};
    for (int r = 0; r < media::kGlyphHeight; ++r) {
      for (int c = 0; c < media::kGlyphWidth; ++c) {
        const int x = cell + c * scale + scale / 2, y = box.top + r * scale + scale / 2;
        if (media::is_dark(image.at(x, y))) rows[size_t(r)] |= uint8_t(0x10 >> c);
      }
    }
    const auto match = media::closest_glyph(rows);
    text += match.character;
    wrong += match.wrong_pixels;
  }
  return {text, wrong};
}

}  // namespace

std::vector<Blob> coloured_blobs(const Image& image) {
  const int w = image.width_px, h = image.height_px;
  std::vector<int> colours(size_t(w) * size_t(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      colours[size_t(y * w + x)] = media::nearest_shape_colour(image.at(x, y));
  std::vector<char> seen(colours.size(), 0);
  std::vector<Blob> blobs;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (seen[size_t(y * w + x)] || colours[size_t(y * w + x)] < 0) continue;
      Blob blob = flood(colours, seen, w, h, x, y);
      if (blob.area_px < kMinBlobPx) continue;
      blob.kind = classify(blob);
      blobs.push_back(blob);
    }
  }
  std::sort(blobs.begin(), blobs.end(),
            [](const Blob& a, const Blob& b) { return a.area_px > b.area_px; });
  return blobs;
}

std::string read_text(const Image& image, int left_px, int top_px, int right_px, int bottom_px) {
  const TextBox box = dark_box(image, left_px, top_px, right_px, bottom_px);
  if (box.right < box.left) return {};
  const int scale =
      static_cast<int>(std::lround((box.bottom - box.top + 1) / double(media::kGlyphHeight)));
  if (scale < 1) return {};
  // The first glyph may leave its leftmost columns blank ("I", "J", "1"): try each start.
  std::pair<std::string, int> best{{}, 1 << 30};
  for (int blank = 0; blank < media::kGlyphWidth; ++blank) {
    auto read = read_glyphs(image, box, box.left - blank * scale, scale);
    if (read.second < best.second) best = std::move(read);
  }
  return best.first;
}

std::string read_text(const Image& image) {
  return read_text(image, 0, 0, image.width_px - 1, image.height_px - 1);
}

std::optional<FrameSquare> frame_square(const Image& frame) {
  std::array<int, 8> votes{};
  double sum_x = 0;
  int coloured = 0;
  for (int y = 0; y < frame.height_px; ++y) {
    for (int x = 0; x < frame.width_px; ++x) {
      const int c = media::nearest_shape_colour(frame.at(x, y));
      if (c < 0) continue;
      ++votes[size_t(c)];
      sum_x += x;
      ++coloured;
    }
  }
  if (coloured < kMinBlobPx) return std::nullopt;
  const auto most = std::max_element(votes.begin(), votes.end());
  return FrameSquare{static_cast<int>(most - votes.begin()), sum_x / coloured};
}

}  // namespace lb::sim
