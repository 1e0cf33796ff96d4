#include "core/media/image.h"

namespace lb::media {

Image::Image(int width, int height, Rgb fill)
    : width_px(width > 0 ? width : 0), height_px(height > 0 ? height : 0) {
  rgb.resize(static_cast<std::size_t>(width_px) * static_cast<std::size_t>(height_px) * 3);
  for (std::size_t i = 0; i < rgb.size(); i += 3) {
    rgb[i] = fill.r;
    rgb[i + 1] = fill.g;
    rgb[i + 2] = fill.b;
  }
}

Rgb Image::at(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_px || y >= height_px) return {};
  const std::size_t i = (static_cast<std::size_t>(y) * width_px + x) * 3;
  return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

void Image::set(int x, int y, Rgb colour) {
  if (x < 0 || y < 0 || x >= width_px || y >= height_px) return;
  const std::size_t i = (static_cast<std::size_t>(y) * width_px + x) * 3;
  rgb[i] = colour.r;
  rgb[i + 1] = colour.g;
  rgb[i + 2] = colour.b;
}

}  // namespace lb::media
