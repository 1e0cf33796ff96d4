#include "core/media/image_codec.h"

#include <cstdlib>
#include <memory>

#include <png.h>
#include <turbojpeg.h>

#include "core/media/media_format.h"

namespace lb::media {
namespace {

std::string dimension_error(int64_t width, int64_t height) {
  if (width <= 0 || height <= 0) return "the image has no pixels";
  if (width > kMaxDimensionPx || height > kMaxDimensionPx || width * height > kMaxPixels) {
    return "the image is " + std::to_string(width) + "x" + std::to_string(height) +
           " px, larger than the " + std::to_string(kMaxPixels) + " pixels supported";
  }
  return {};
}

struct TjHandle {
  tjhandle handle;
  ~TjHandle() {
    if (handle) tjDestroy(handle);
  }
};

}  // namespace

Decoded<Image> decode_png(std::string_view bytes) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    std::string message = std::string("not a readable PNG: ") + png.message;
    png_image_free(&png);
    return Decoded<Image>::fail(message);
  }
  if (auto err = dimension_error(png.width, png.height); !err.empty()) {
    png_image_free(&png);
    return Decoded<Image>::fail(err);
  }
  png.format = PNG_FORMAT_RGB;
  Image image(static_cast<int>(png.width), static_cast<int>(png.height));
  const png_color white{255, 255, 255};
  if (!png_image_finish_read(&png, &white, image.rgb.data(), 0, nullptr)) {
    std::string message = std::string("corrupt PNG: ") + png.message;
    png_image_free(&png);
    return Decoded<Image>::fail(message);
  }
  png_image_free(&png);
  return {std::move(image), {}};
}

Decoded<Image> decode_jpeg(std::string_view bytes) {
  TjHandle tj{tjInitDecompress()};
  if (!tj.handle) return Decoded<Image>::fail("the JPEG decoder could not start");
  auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto size = static_cast<unsigned long>(bytes.size());
  int width = 0, height = 0, subsampling = 0, colourspace = 0;
  if (tjDecompressHeader3(tj.handle, data, size, &width, &height, &subsampling, &colourspace) !=
      0) {
    return Decoded<Image>::fail(std::string("not a readable JPEG: ") + tjGetErrorStr2(tj.handle));
  }
  if (auto err = dimension_error(width, height); !err.empty()) return Decoded<Image>::fail(err);
  Image image(width, height);
  if (tjDecompress2(tj.handle, data, size, image.rgb.data(), width, 0, height, TJPF_RGB,
                    TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING) != 0) {
    return Decoded<Image>::fail(std::string("corrupt JPEG: ") + tjGetErrorStr2(tj.handle));
  }
  return {std::move(image), {}};
}

Decoded<Image> decode_image(std::string_view bytes) {
  switch (sniff_format(bytes)) {
    case MediaFormat::Png:
      return decode_png(bytes);
    case MediaFormat::Jpeg:
      return decode_jpeg(bytes);
    default:
      return Decoded<Image>::fail("not a PNG or JPEG image");
  }
}

Encoded encode_png(const Image& image) {
  if (auto err = dimension_error(image.width_px, image.height_px); !err.empty()) return {{}, err};
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width_px);
  png.height = static_cast<png_uint_32>(image.height_px);
  png.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&png, nullptr, &size, 0, image.rgb.data(), 0, nullptr)) {
    return {{}, std::string("PNG encoding failed: ") + png.message};
  }
  std::string out(size, '\0');
  if (!png_image_write_to_memory(&png, out.data(), &size, 0, image.rgb.data(), 0, nullptr)) {
    return {{}, std::string("PNG encoding failed: ") + png.message};
  }
  out.resize(size);
  return {std::move(out), {}};
}

Encoded encode_jpeg(const Image& image, int quality) {
  if (auto err = dimension_error(image.width_px, image.height_px); !err.empty()) return {{}, err};
  if (quality < 1 || quality > 100) return {{}, "JPEG quality must be 1-100"};
  TjHandle tj{tjInitCompress()};
  if (!tj.handle) return {{}, "the JPEG encoder could not start"};
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  if (tjCompress2(tj.handle, image.rgb.data(), image.width_px, 0, image.height_px, TJPF_RGB,
                  &buffer, &size, TJSAMP_444, quality, TJFLAG_ACCURATEDCT) != 0) {
    if (buffer) tjFree(buffer);
    return {{}, std::string("JPEG encoding failed: ") + tjGetErrorStr2(tj.handle)};
  }
  std::string out(reinterpret_cast<const char*>(buffer), size);
  tjFree(buffer);
  return {std::move(out), {}};
}

}  // namespace lb::media
