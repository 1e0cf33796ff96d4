#include "core/media/canvas.h"

#include "core/media/bitmap_font.h"

namespace lb::media {

void fill_rect(Image& image, int left_px, int top_px, int width_px, int height_px, Rgb colour) {
  for (int y = top_px; y < top_px + height_px; ++y) {
    for (int x = left_px; x < left_px + width_px; ++x) image.set(x, y, colour);
  }
}

void fill_circle(Image& image, int centre_x_px, int centre_y_px, int radius_px, Rgb colour) {
  const int r2 = radius_px * radius_px;
  for (int dy = -radius_px; dy <= radius_px; ++dy) {
    for (int dx = -radius_px; dx <= radius_px; ++dx) {
      if (dx * dx + dy * dy <= r2) image.set(centre_x_px + dx, centre_y_px + dy, colour);
    }
  }
}

void fill_triangle(Image& image, int left_px, int top_px, int width_px, int height_px, Rgb colour) {
  for (int row = 0; row < height_px; ++row) {
    // Half-width grows linearly from the apex to the base.
    const int half = (row + 1) * width_px / (2 * height_px);
    const int centre = left_px + width_px / 2;
    for (int x = centre - half; x <= centre + half; ++x) image.set(x, top_px + row, colour);
  }
}

void draw_text(Image& image, int left_px, int top_px, std::string_view text, int scale,
               Rgb colour) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto rows = glyph_rows(text[i]);
    if (!rows) continue;
    const int glyph_left = left_px + static_cast<int>(i) * kGlyphAdvance * scale;
    for (int r = 0; r < kGlyphHeight; ++r) {
      for (int c = 0; c < kGlyphWidth; ++c) {
        if ((*rows)[r] & (0x10 >> c)) {
          fill_rect(image, glyph_left + c * scale, top_px + r * scale, scale, scale, colour);
        }
      }
    }
  }
}

int text_width_px(std::string_view text, int scale) {
  if (text.empty()) return 0;
  return (static_cast<int>(text.size()) * kGlyphAdvance - 1) * scale;
}

}  // namespace lb::media
