// encode_mp4 (video_codec.h): RGB frames -> YUV 4:2:0 -> MPEG-4 Part 2 -> MP4, all in memory.
#include <memory>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include "core/media/video_codec.h"
#include "core/media/video_io.h"

namespace lb::media {
namespace {

struct EncoderParts {
  AVCodecContext* codec = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* sws = nullptr;
  ~EncoderParts() {
    avcodec_free_context(&codec);
    av_frame_free(&frame);
    av_packet_free(&packet);
    sws_freeContext(sws);
  }
};

std::string frames_error(const std::vector<Image>& frames, int fps, int qscale) {
  if (frames.empty()) return "a video needs at least one frame";
  if (static_cast<int>(frames.size()) > kMaxFrames) return "too many frames";
  if (fps < 1 || fps > 120) return "fps must be 1-120";
  if (qscale < 1 || qscale > 31) return "qscale must be 1-31";
  const Image& first = frames.front();
  if (first.empty() || first.width_px % 2 || first.height_px % 2 ||
      static_cast<int64_t>(first.width_px) * first.height_px > kMaxPixels) {
    return "video frames need an even width and height";
  }
  for (const auto& f : frames) {
    if (f.width_px != first.width_px || f.height_px != first.height_px) {
      return "all frames of a video must have the same size";
    }
  }
  return {};
}

// Sends one frame (or the flush, frame == nullptr) and writes every packet that comes out.
bool encode_and_write(EncoderParts& parts, AVFrame* frame, AVFormatContext* fmt, AVStream* stream) {
  if (avcodec_send_frame(parts.codec, frame) < 0) return false;
  while (true) {
    const int rc = avcodec_receive_packet(parts.codec, parts.packet);
    if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
    if (rc < 0) return false;
    // Without a duration the MP4 index gives the last frame none, and readers drop it.
    parts.packet->duration = 1;
    av_packet_rescale_ts(parts.packet, parts.codec->time_base, stream->time_base);
    parts.packet->stream_index = stream->index;
    if (av_interleaved_write_frame(fmt, parts.packet) < 0) return false;
  }
}

std::string open_encoder(EncoderParts& parts, const Image& first, int fps, int qscale,
                         AVFormatContext* fmt, AVStream* stream) {
  const AVCodec* encoder = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
  if (!encoder) return "this FFmpeg build has no MPEG-4 encoder";
  parts.codec = avcodec_alloc_context3(encoder);
  parts.frame = av_frame_alloc();
  parts.packet = av_packet_alloc();
  if (!parts.codec || !parts.frame || !parts.packet) return "out of memory";
  AVCodecContext* c = parts.codec;
  c->width = first.width_px;
  c->height = first.height_px;
  c->time_base = {1, fps};
  c->framerate = {fps, 1};
  c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->gop_size = 12;
  c->max_b_frames = 0;
  c->thread_count = 1;
  c->flags |= AV_CODEC_FLAG_QSCALE | AV_CODEC_FLAG_BITEXACT;
  c->global_quality = FF_QP2LAMBDA * qscale;
  if (fmt->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (avcodec_open2(c, encoder, nullptr) < 0) return "the MPEG-4 encoder could not start";
  if (avcodec_parameters_from_context(stream->codecpar, c) < 0) return "encoder parameters";
  stream->time_base = c->time_base;
  parts.frame->format = c->pix_fmt;
  parts.frame->width = c->width;
  parts.frame->height = c->height;
  if (av_frame_get_buffer(parts.frame, 0) < 0) return "out of memory";
  parts.sws =
      sws_getContext(c->width, c->height, AV_PIX_FMT_RGB24, c->width, c->height, AV_PIX_FMT_YUV420P,
                     SWS_BILINEAR | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
  return parts.sws ? "" : "the colour converter could not start";
}

}  // namespace

Encoded encode_mp4(const std::vector<Image>& frames, int fps, int qscale) {
  if (auto err = frames_error(frames, fps, qscale); !err.empty()) return {{}, err};
  av_log_set_level(AV_LOG_QUIET);
  MemoryOutput out;
  if (auto err = out.open("mp4"); !err.empty()) return {{}, err};
  AVFormatContext* fmt = out.context();
  AVStream* stream = avformat_new_stream(fmt, nullptr);
  if (!stream) return {{}, "out of memory"};
  EncoderParts parts;
  if (auto err = open_encoder(parts, frames.front(), fps, qscale, fmt, stream); !err.empty()) {
    return {{}, err};
  }
  if (avformat_write_header(fmt, nullptr) < 0) return {{}, "the MP4 header could not be written"};
  for (size_t i = 0; i < frames.size(); ++i) {
    if (av_frame_make_writable(parts.frame) < 0) return {{}, "out of memory"};
    const uint8_t* src[1] = {frames[i].rgb.data()};
    const int src_stride[1] = {frames[i].width_px * 3};
    sws_scale(parts.sws, src, src_stride, 0, frames[i].height_px, parts.frame->data,
              parts.frame->linesize);
    parts.frame->pts = static_cast<int64_t>(i);
    parts.frame->quality = parts.codec->global_quality;
    if (!encode_and_write(parts, parts.frame, fmt, stream)) return {{}, "MPEG-4 encoding failed"};
  }
  if (!encode_and_write(parts, nullptr, fmt, stream)) return {{}, "MPEG-4 encoding failed"};
  if (av_write_trailer(fmt) < 0) return {{}, "the MP4 index could not be written"};
  return {out.take(), {}};
}

}  // namespace lb::media
