#pragma once
// What the multimodal profile says about the media it was sent: it looks at the pixels (counted
// shapes, words in the bitmap font, the tallest bar, a square's colour and path across frames)
// and answers the question asked about them. Each answer comes with a "flipped" variant in which
// one fact is wrong, for the FP8 drift model.
#include <string>
#include <vector>

#include "request_media.h"

namespace lb::sim {

struct MediaAnswer {
  bool asked = false;  // the question is one the profile knows how to answer from pixels
  std::string text;
  std::string flipped;  // one fact changed (another count, colour, letter, side or word)
};

MediaAnswer answer_from_media(const std::string& question, const std::vector<RequestMedia>& media);
// Without a known question: what the media are (kind, size, frames, shapes seen).
std::string describe_media(const std::vector<RequestMedia>& media);

}  // namespace lb::sim
