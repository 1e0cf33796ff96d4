#pragma once
// Drawing on an Image with integer arithmetic only, so the same calls give the same pixels on
// every machine: filled squares, circles and triangles, and text in the bitmap font.
#include <string_view>

#include "core/media/image.h"

namespace lb::media {

void fill_rect(Image& image, int left_px, int top_px, int width_px, int height_px, Rgb colour);
void fill_circle(Image& image, int centre_x_px, int centre_y_px, int radius_px, Rgb colour);
// An upward-pointing isosceles triangle inside the given box.
void fill_triangle(Image& image, int left_px, int top_px, int width_px, int height_px, Rgb colour);
// Capital letters and digits (others are left blank), each glyph pixel a scale x scale block.
void draw_text(Image& image, int left_px, int top_px, std::string_view text, int scale, Rgb colour);
int text_width_px(std::string_view text, int scale);

}  // namespace lb::media
