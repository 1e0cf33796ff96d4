#pragma once
// A video's frames as a strip of thumbnails for the Review page: the file is decoded with
// core/media's reader (the one the simulator uses) and a few frames, evenly spaced from the
// first to the last, are scaled to one height and laid side by side.
#include <QImage>
#include <QString>
#include <string_view>

namespace lb::ui {

struct FrameStrip {
  QImage image;   // null when the video could not be read
  int shown = 0;  // frames in the strip
  int total = 0;  // frames in the video
  QString error;  // why there is no strip
};

FrameStrip video_frame_strip(std::string_view bytes, int height_px, int max_frames);

}  // namespace lb::ui
