// The media readers and writers: PNG, JPEG and MP4 round trips, and corrupt, truncated, unknown
// or missing input turned into an error (naming the file) instead of a crash.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <fstream>

#include "core/media/image_codec.h"
#include "core/media/media_reader.h"
#include "core/media/video_codec.h"

using namespace lb::media;

namespace {

// A picture with a distinct value in every pixel, so a shifted or swapped channel shows.
Image codecs_gradient(int width, int height) {
  Image image(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      image.set(x, y,
                {static_cast<uint8_t>(x * 7), static_cast<uint8_t>(y * 5),
                 static_cast<uint8_t>((x + y) * 3)});
    }
  }
  return image;
}

// Flat blocks of colour: what the video codec is asked to keep.
Image codecs_square_frame(int width, int height, Rgb square, int left_px) {
  Image image(width, height, {255, 255, 255});
  for (int y = 16; y < 48; ++y) {
    for (int x = left_px; x < left_px + 32; ++x) image.set(x, y, square);
  }
  return image;
}

int codecs_max_channel_error(Rgb a, Rgb b) {
  return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

std::string codecs_write_file(const QTemporaryDir& dir, const char* name,
                              const std::string& bytes) {
  const std::string path = dir.filePath(name).toStdString();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

class TestMediaCodecs : public QObject {
  Q_OBJECT

 private slots:
  void png_round_trip_is_lossless() {
    const Image image = codecs_gradient(37, 21);
    const Encoded png = encode_png(image);
    QVERIFY2(png.ok(), png.error.c_str());
    QCOMPARE(sniff_format(png.bytes), MediaFormat::Png);
    const auto decoded = decode_png(png.bytes);
    QVERIFY2(decoded.ok(), decoded.error.c_str());
    QVERIFY(*decoded.value == image);
    QCOMPARE(encode_png(image).bytes, png.bytes);  // deterministic
  }

  void jpeg_round_trip_keeps_colours_close() {
    const Image image = codecs_square_frame(64, 64, {220, 30, 30}, 16);
    const Encoded jpeg = encode_jpeg(image, 95);
    QVERIFY2(jpeg.ok(), jpeg.error.c_str());
    QCOMPARE(sniff_format(jpeg.bytes), MediaFormat::Jpeg);
    const auto decoded = decode_image(jpeg.bytes);
    QVERIFY2(decoded.ok(), decoded.error.c_str());
    QCOMPARE(decoded.value->width_px, 64);
    QCOMPARE(decoded.value->height_px, 64);
    QVERIFY(codecs_max_channel_error(decoded.value->at(32, 32), {220, 30, 30}) < 12);
    QVERIFY(codecs_max_channel_error(decoded.value->at(2, 2), {255, 255, 255}) < 12);
  }

  void mp4_round_trip_keeps_frames_and_colours() {
    std::vector<Image> frames;
    const Rgb colours[] = {{220, 30, 30}, {30, 160, 40}, {30, 60, 220}, {240, 200, 20}};
    for (int i = 0; i < 4; ++i)
      frames.push_back(codecs_square_frame(96, 64, colours[i], 8 + i * 12));
    const Encoded mp4 = encode_mp4(frames, 4);
    QVERIFY2(mp4.ok(), mp4.error.c_str());
    QCOMPARE(sniff_format(mp4.bytes), MediaFormat::Mp4);
    QCOMPARE(encode_mp4(frames, 4).bytes, mp4.bytes);  // bit-exact: same frames, same file
    const auto video = decode_video(mp4.bytes);
    QVERIFY2(video.ok(), video.error.c_str());
    QCOMPARE(int(video.value->frames.size()), 4);
    QCOMPARE(video.value->width_px, 96);
    QCOMPARE(video.value->height_px, 64);
    QCOMPARE(video.value->fps, 4.0);
    for (int i = 0; i < 4; ++i) {
      const Rgb centre = video.value->frames[size_t(i)].at(8 + i * 12 + 16, 32);
      QVERIFY2(codecs_max_channel_error(centre, colours[i]) < 24,
               qPrintable(
                   QString("frame %1: %2,%3,%4").arg(i).arg(centre.r).arg(centre.g).arg(centre.b)));
    }
  }

  void corrupt_input_is_an_error() {
    const Encoded png = encode_png(codecs_gradient(40, 40));
    std::string truncated = png.bytes.substr(0, png.bytes.size() / 2);
    auto r = decode_media(truncated);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("PNG") != std::string::npos, r.error.c_str());

    std::string flipped = png.bytes;
    for (size_t i = 40; i < flipped.size(); i += 7) flipped[i] = char(flipped[i] ^ 0x5a);
    QVERIFY(!decode_media(flipped).ok());

    const Encoded jpeg = encode_jpeg(codecs_gradient(40, 40));
    r = decode_media(jpeg.bytes.substr(0, jpeg.bytes.size() / 3));
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("JPEG") != std::string::npos, r.error.c_str());

    std::vector<Image> frames(3, codecs_square_frame(64, 64, {1, 2, 3}, 4));
    const Encoded mp4 = encode_mp4(frames, 2);
    QVERIFY(!decode_media(mp4.bytes.substr(0, 40)).ok());
    std::string garbage_video = mp4.bytes.substr(0, 12) + std::string(500, '\x7f');
    QVERIFY(!decode_media(garbage_video).ok());
  }

  void unknown_format_and_bad_sizes_are_errors() {
    auto r = decode_media("GIF89a....");
    QVERIFY(!r.ok());
    QVERIFY2(r.error.find("unsupported media format") != std::string::npos, r.error.c_str());
    QVERIFY(!decode_media("").ok());
    QVERIFY(!encode_png(Image()).ok());
    QVERIFY(!encode_mp4({}, 4).ok());
    QVERIFY(!encode_mp4({Image(63, 64)}, 4).ok());  // odd width
    QVERIFY(!encode_mp4({Image(64, 64), Image(32, 32)}, 4).ok());
  }

  void reading_a_file_names_it() {
    QTemporaryDir dir;
    const std::string good =
        codecs_write_file(dir, "a.png", encode_png(codecs_gradient(8, 8)).bytes);
    const auto ok = read_media_file(good);
    QVERIFY2(ok.ok(), ok.error.c_str());
    QCOMPARE(ok.value->media.video.width_px, 8);
    QCOMPARE(ok.value->media.frame_count(), 1);

    const std::string bad = codecs_write_file(dir, "b.png", "not an image at all");
    const auto unreadable = read_media_file(bad);
    QVERIFY(!unreadable.ok());
    QVERIFY2(unreadable.error.rfind(bad + ": unsupported", 0) == 0, unreadable.error.c_str());

    const auto missing = read_media_file(dir.filePath("nope.mp4").toStdString());
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("nope.mp4: no such file") != std::string::npos,
             missing.error.c_str());

    const auto too_big = read_media_file(good, 10);
    QVERIFY(!too_big.ok());
    QVERIFY2(too_big.error.find("more than the 10 allowed") != std::string::npos,
             too_big.error.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestMediaCodecs)
#include "media_codecs_test.moc"
