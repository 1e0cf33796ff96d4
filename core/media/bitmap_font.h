#pragma once
// A 5x7 pixel font of the capital letters and digits: the generator writes words and labels with
// it, and a reader that knows the font (the simulator) can read them back from the pixels.
#include <array>
#include <cstdint>
#include <optional>

namespace lb::media {

inline constexpr int kGlyphWidth = 5;    // columns of a glyph
inline constexpr int kGlyphHeight = 7;   // rows of a glyph
inline constexpr int kGlyphAdvance = 6;  // columns from one glyph to the next (one blank column)

// Rows top to bottom; bit 4 is the leftmost column. nullopt for characters outside A-Z, 0-9.
std::optional<std::array<uint8_t, kGlyphHeight>> glyph_rows(char c);
// The character whose glyph differs from `rows` in the fewest pixels, and that count.
struct GlyphMatch {
  char character = '?';
  int wrong_pixels = kGlyphWidth * kGlyphHeight;
};
GlyphMatch closest_glyph(const std::array<uint8_t, kGlyphHeight>& rows);

}  // namespace lb::media
