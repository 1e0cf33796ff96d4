#include "core/media/video_codec.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libswscale/swscale.h>
}

#include "core/media/media_format.h"
#include "core/media/video_io.h"

namespace lb::media {
namespace {

void quiet_libav() {
  static std::once_flag once;
  std::call_once(once, [] { av_log_set_level(AV_LOG_QUIET); });
}

std::string av_error(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

struct CodecContextFree {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFree {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFree {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsFree {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextFree>;
using FramePtr = std::unique_ptr<AVFrame, FrameFree>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFree>;
using SwsPtr = std::unique_ptr<SwsContext, SwsFree>;

const char* demuxer_for(MediaFormat format) {
  switch (format) {
    case MediaFormat::Mp4:
      return "mov";
    case MediaFormat::Webm:
      return "matroska";
    case MediaFormat::Avi:
      return "avi";
    default:
      return nullptr;
  }
}

// Converts one decoded frame to RGB (the scaler is rebuilt when the frame's format changes).
std::optional<Image> to_rgb(const AVFrame& frame, SwsPtr& sws) {
  if (frame.width <= 0 || frame.height <= 0 ||
      static_cast<int64_t>(frame.width) * frame.height > kMaxPixels) {
    return std::nullopt;
  }
  sws.reset(sws_getCachedContext(sws.release(), frame.width, frame.height,
                                 static_cast<AVPixelFormat>(frame.format), frame.width,
                                 frame.height, AV_PIX_FMT_RGB24, SWS_BILINEAR | SWS_ACCURATE_RND,
                                 nullptr, nullptr, nullptr));
  if (!sws) return std::nullopt;
  Image image(frame.width, frame.height);
  uint8_t* planes[1] = {image.rgb.data()};
  const int strides[1] = {frame.width * 3};
  sws_scale(sws.get(), frame.data, frame.linesize, 0, frame.height, planes, strides);
  return image;
}

class VideoDecoder {
 public:
  std::string open(std::string_view bytes, MediaFormat format);
  Decoded<Video> read_all();

 private:
  std::string receive_frames(Video& video);
  MemoryInput input_;
  int stream_ = -1;
  CodecContextPtr codec_;
  SwsPtr sws_;
  int64_t total_pixels_ = 0;
};

std::string VideoDecoder::open(std::string_view bytes, MediaFormat format) {
  const AVInputFormat* demuxer = av_find_input_format(demuxer_for(format));
  if (!demuxer) return "this FFmpeg build cannot read " + std::string(format_name(format));
  if (auto err = input_.open(bytes, demuxer); !err.empty()) return err;
  AVFormatContext* fmt = input_.context();
  const AVCodec* decoder = nullptr;
  stream_ = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (stream_ < 0 || !decoder) return "no video stream that this FFmpeg build decodes";
  const AVCodecParameters* par = fmt->streams[stream_]->codecpar;
  if (par->width <= 0 || par->height <= 0 || par->width > kMaxDimensionPx ||
      par->height > kMaxDimensionPx ||
      static_cast<int64_t>(par->width) * par->height > kMaxPixels) {
    return "the video's frames are " + std::to_string(par->width) + "x" +
           std::to_string(par->height) + " px, outside what is supported";
  }
  codec_.reset(avcodec_alloc_context3(decoder));
  if (!codec_ || avcodec_parameters_to_context(codec_.get(), par) < 0) {
    return "the video decoder could not start";
  }
  codec_->thread_count = 1;
  if (int rc = avcodec_open2(codec_.get(), decoder, nullptr); rc < 0) {
    return "the video decoder could not start: " + av_error(rc);
  }
  return {};
}

std::string VideoDecoder::receive_frames(Video& video) {
  FramePtr frame(av_frame_alloc());
  while (true) {
    const int rc = avcodec_receive_frame(codec_.get(), frame.get());
    if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return {};
    if (rc < 0) return "corrupt video frame: " + av_error(rc);
    if (static_cast<int>(video.frames.size()) >= kMaxFrames) {
      return "the video has more than " + std::to_string(kMaxFrames) + " frames";
    }
    total_pixels_ += static_cast<int64_t>(frame->width) * frame->height;
    if (total_pixels_ > kMaxVideoPixels) {
      return "the video has more than " + std::to_string(kMaxVideoPixels) +
             " pixels over all its frames";
    }
    auto image = to_rgb(*frame, sws_);
    if (!image) return "a video frame could not be converted to RGB";
    video.frames.push_back(std::move(*image));
  }
}

Decoded<Video> VideoDecoder::read_all() {
  Video video;
  AVFormatContext* fmt = input_.context();
  const AVRational rate = fmt->streams[stream_]->avg_frame_rate;
  video.fps = rate.den > 0 ? av_q2d(rate) : 0;
  PacketPtr packet(av_packet_alloc());
  while (av_read_frame(fmt, packet.get()) >= 0) {
    const bool ours = packet->stream_index == stream_;
    const int rc = ours ? avcodec_send_packet(codec_.get(), packet.get()) : 0;
    av_packet_unref(packet.get());
    if (rc < 0 && rc != AVERROR(EAGAIN))
      return Decoded<Video>::fail("corrupt video: " + av_error(rc));
    if (auto err = receive_frames(video); !err.empty()) return Decoded<Video>::fail(err);
  }
  avcodec_send_packet(codec_.get(), nullptr);
  if (auto err = receive_frames(video); !err.empty()) return Decoded<Video>::fail(err);
  if (video.frames.empty()) return Decoded<Video>::fail("the video has no decodable frames");
  video.width_px = video.frames.front().width_px;
  video.height_px = video.frames.front().height_px;
  return {std::move(video), {}};
}

}  // namespace

Decoded<Video> decode_video(std::string_view bytes) {
  quiet_libav();
  const MediaFormat format = sniff_format(bytes);
  if (!is_video_format(format)) return Decoded<Video>::fail("not an MP4, WebM or AVI video");
  VideoDecoder decoder;
  if (auto err = decoder.open(bytes, format); !err.empty()) return Decoded<Video>::fail(err);
  return decoder.read_all();
}

}  // namespace lb::media
