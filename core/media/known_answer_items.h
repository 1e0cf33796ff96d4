#pragma once
// The multimodal known-answer items: generated images and videos, the question asked about them,
// the answer, and the checks an answer must pass. Deterministic: the same program gives the same
// bytes every time (the built-in prompt set "multimodal-30" is made from these).
#include <optional>
#include <string>
#include <vector>

#include "core/media/image.h"

namespace lb::media {

// Where a video's square is in its last frame, as drawn: ground truth for checking that another
// reader (OpenCV, PyAV) decodes the file the same way.
struct SquareTruth {
  std::string colour;  // "red", ...
  Rgb rgb;
  int left_px = 0;
  int top_px = 0;
  int side_px = 0;
};

struct ItemMedia {
  bool video = false;
  std::string mime;   // "image/png", "video/mp4"
  std::string bytes;  // the encoded file
  std::string name;   // what it shows, e.g. "shapes-3", "square-video-2"
  int width_px = 0;
  int height_px = 0;
  int frames = 0;                          // 1 for an image
  int fps = 0;                             // videos: frames per second
  std::optional<SquareTruth> last_square;  // videos of a moving square
};

struct ItemCheck {
  enum class Kind { Contains, NotContains, Number, Word };  // Word: a whole word, any case
  Kind kind = Kind::Contains;
  std::string text;  // Contains / NotContains (any case) / Word
  double number = 0;
};

struct KnownAnswerItem {
  std::string id;        // "mm-image-01", ...
  std::string category;  // "image", "video" or "mixed"
  std::string question;  // the text sent after the media
  std::vector<ItemMedia> media;
  std::string answer;  // a correct answer, in the simulator's words
  std::vector<ItemCheck> checks;
};

// 10 image items (counted shapes, words, bar charts), 10 video items (last colour, direction,
// colour changes) and 10 mixed items (two images compared; an image and a video together).
std::vector<KnownAnswerItem> multimodal_items();

}  // namespace lb::media
