#pragma once
// Decoded pictures as plain values: 8-bit RGB pixels, row by row, no padding.
#include <cstdint>
#include <vector>

namespace lb::media {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

struct Image {
  int width_px = 0;
  int height_px = 0;
  std::vector<uint8_t> rgb;  // width_px * height_px * 3 bytes

  Image() = default;
  Image(int width, int height, Rgb fill = {255, 255, 255});
  bool empty() const { return width_px <= 0 || height_px <= 0; }
  Rgb at(int x, int y) const;
  void set(int x, int y, Rgb colour);  // ignores points outside the image
  friend bool operator==(const Image&, const Image&) = default;
};

struct Video {
  int width_px = 0;
  int height_px = 0;
  double fps = 0;             // frames per second as stored in the container
  std::vector<Image> frames;  // in presentation order
};

// Refused before decoding (a header can claim anything): larger pictures or longer videos are
// reported as unsupported rather than allocated.
inline constexpr int64_t kMaxPixels = 40'000'000;  // per image or frame
inline constexpr int kMaxDimensionPx = 16'384;
inline constexpr int kMaxFrames = 1'024;
inline constexpr int64_t kMaxVideoPixels = 100'000'000;  // over all frames (300 MB as RGB)

}  // namespace lb::media
