#include "core/media/video_io.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/mem.h>
}

namespace lb::media {
namespace {

constexpr int kIoBufferBytes = 64 * 1024;

int64_t seek_target(int64_t position, int64_t size, int64_t offset, int whence) {
  switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET:
      return offset;
    case SEEK_CUR:
      return position + offset;
    case SEEK_END:
      return size + offset;
    default:
      return -1;
  }
}

void free_io(AVIOContext*& io) {
  if (!io) return;
  av_freep(&io->buffer);
  avio_context_free(&io);
}

}  // namespace

MemoryInput::~MemoryInput() {
  if (format_) avformat_close_input(&format_);
  free_io(io_);
}

int MemoryInput::read(void* opaque, uint8_t* buffer, int size) {
  auto* self = static_cast<MemoryInput*>(opaque);
  const int64_t left = static_cast<int64_t>(self->bytes_.size()) - self->position_;
  if (left <= 0) return AVERROR_EOF;
  const int n = static_cast<int>(std::min<int64_t>(left, size));
  std::memcpy(buffer, self->bytes_.data() + self->position_, static_cast<size_t>(n));
  self->position_ += n;
  return n;
}

int64_t MemoryInput::seek(void* opaque, int64_t offset, int whence) {
  auto* self = static_cast<MemoryInput*>(opaque);
  const auto size = static_cast<int64_t>(self->bytes_.size());
  if (whence == AVSEEK_SIZE) return size;
  const int64_t target = seek_target(self->position_, size, offset, whence);
  if (target < 0 || target > size) return -1;
  self->position_ = target;
  return target;
}

std::string MemoryInput::open(std::string_view bytes, const AVInputFormat* demuxer) {
  bytes_ = bytes;
  auto* buffer = static_cast<uint8_t*>(av_malloc(kIoBufferBytes));
  if (!buffer) return "out of memory";
  io_ = avio_alloc_context(buffer, kIoBufferBytes, 0, this, &MemoryInput::read, nullptr,
                           &MemoryInput::seek);
  if (!io_) {
    av_free(buffer);
    return "out of memory";
  }
  format_ = avformat_alloc_context();
  if (!format_) return "out of memory";
  format_->pb = io_;
  format_->flags |= AVFMT_FLAG_CUSTOM_IO;
  // avformat_open_input frees the context when it fails.
  if (avformat_open_input(&format_, nullptr, demuxer, nullptr) < 0) {
    format_ = nullptr;
    return "not a readable video container";
  }
  if (avformat_find_stream_info(format_, nullptr) < 0) return "the video's streams are unreadable";
  return {};
}

MemoryOutput::~MemoryOutput() {
  if (format_) avformat_free_context(format_);
  free_io(io_);
}

int MemoryOutput::write(void* opaque, uint8_t* buffer, int size) {
  auto* self = static_cast<MemoryOutput*>(opaque);
  const auto end = static_cast<size_t>(self->position_) + static_cast<size_t>(size);
  if (self->bytes_.size() < end) self->bytes_.resize(end);
  std::memcpy(self->bytes_.data() + self->position_, buffer, static_cast<size_t>(size));
  self->position_ += size;
  return size;
}

int64_t MemoryOutput::seek(void* opaque, int64_t offset, int whence) {
  auto* self = static_cast<MemoryOutput*>(opaque);
  const auto size = static_cast<int64_t>(self->bytes_.size());
  if (whence == AVSEEK_SIZE) return size;
  const int64_t target = seek_target(self->position_, size, offset, whence);
  if (target < 0) return -1;
  self->position_ = target;
  return target;
}

std::string MemoryOutput::open(const char* muxer) {
  if (avformat_alloc_output_context2(&format_, nullptr, muxer, nullptr) < 0 || !format_) {
    return std::string("this FFmpeg build cannot write ") + muxer;
  }
  auto* buffer = static_cast<uint8_t*>(av_malloc(kIoBufferBytes));
  if (!buffer) return "out of memory";
  io_ = avio_alloc_context(buffer, kIoBufferBytes, 1, this, nullptr, &MemoryOutput::write,
                           &MemoryOutput::seek);
  if (!io_) {
    av_free(buffer);
    return "out of memory";
  }
  format_->pb = io_;
  format_->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT;
  return {};
}

std::string MemoryOutput::take() {
  if (io_) avio_flush(io_);
  return std::move(bytes_);
}

}  // namespace lb::media
