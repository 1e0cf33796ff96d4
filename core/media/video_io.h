#pragma once
// FFmpeg containers over memory instead of files: the demuxer reads from a byte view, the muxer
// writes (and seeks back, as MP4's index requires) into a string.
#include <cstdint>
#include <string>
#include <string_view>

struct AVFormatContext;
struct AVIOContext;
struct AVInputFormat;
struct AVOutputFormat;

namespace lb::media {

class MemoryInput {
 public:
  MemoryInput() = default;
  MemoryInput(const MemoryInput&) = delete;
  MemoryInput& operator=(const MemoryInput&) = delete;
  ~MemoryInput();
  // Opens `bytes` (which must outlive this object) with the given demuxer and reads the stream
  // information; returns an error or "".
  std::string open(std::string_view bytes, const AVInputFormat* demuxer);
  AVFormatContext* context() const { return format_; }

 private:
  static int read(void* opaque, uint8_t* buffer, int size);
  static int64_t seek(void* opaque, int64_t offset, int whence);
  std::string_view bytes_;
  int64_t position_ = 0;
  AVIOContext* io_ = nullptr;
  AVFormatContext* format_ = nullptr;
};

class MemoryOutput {
 public:
  MemoryOutput() = default;
  MemoryOutput(const MemoryOutput&) = delete;
  MemoryOutput& operator=(const MemoryOutput&) = delete;
  ~MemoryOutput();
  // Creates the muxer ("mp4") writing into this object; returns an error or "".
  std::string open(const char* muxer);
  AVFormatContext* context() const { return format_; }
  // The file so far (complete after av_write_trailer).
  std::string take();

 private:
  static int write(void* opaque, uint8_t* buffer, int size);
  static int64_t seek(void* opaque, int64_t offset, int whence);
  std::string bytes_;
  int64_t position_ = 0;
  AVIOContext* io_ = nullptr;
  AVFormatContext* format_ = nullptr;
};

}  // namespace lb::media
