#pragma once
// PNG (libpng's simplified API) and JPEG (libjpeg-turbo's TurboJPEG API), in memory. Neither
// library is asked to recover from bad data: corrupt, truncated or oversized input is an error.
#include <string_view>

#include "core/media/decoded.h"
#include "core/media/image.h"

namespace lb::media {

Decoded<Image> decode_png(std::string_view bytes);
Decoded<Image> decode_jpeg(std::string_view bytes);
// PNG or JPEG, told apart by their signatures.
Decoded<Image> decode_image(std::string_view bytes);

// Lossless; the same image gives the same bytes.
Encoded encode_png(const Image& image);
// quality 1-100; 4:4:4 chroma so small coloured shapes keep their colour.
Encoded encode_jpeg(const Image& image, int quality = 92);

}  // namespace lb::media
