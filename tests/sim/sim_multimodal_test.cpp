// The multimodal profile over HTTP: builtin:multimodal-30 sent as chat content parts scores
// 30/30 on bf16, answers come from the pixels (a freshly drawn image, the Responses API's
// input_image), media add prompt tokens by size, the text-only FP8 lane refuses media with vLLM's
// 400, unreadable media are a 400, and FP8 drift changes an answer only with flip_facts.
#include <QtTest>

#include "test_main.h"

#include "core/compare/fact_check.h"
#include "core/media/image_codec.h"
#include "core/media/known_scenes.h"
#include "core/net/data_url.h"
#include "core/plan/prompt_set.h"
#include "sim/multimodal_prefill.h"
#include "sim/profile.h"
#include "sim_engine_runs.h"
#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

json mm_part(const lb::plan::MediaRef& m) {
  const bool video = m.kind == lb::plan::MediaKind::Video;
  const std::string type = video ? "video_url" : "image_url";
  return {{"type", type},
          {type, {{"url", "data:" + m.mime + ";base64," + lb::net::base64_encode(*m.bytes)}}}};
}

json mm_image_part(const std::string& png) {
  return {{"type", "image_url"},
          {"image_url", {{"url", "data:image/png;base64," + lb::net::base64_encode(png)}}}};
}

std::string mm_chat_body(json parts, const std::string& text) {
  parts.push_back({{"type", "text"}, {"text", text}});
  return json{{"messages", {{{"role", "user"}, {"content", parts}}}},
              {"max_tokens", 64},
              {"temperature", 0}}
      .dump();
}

std::string mm_prompt_body(const lb::plan::PromptSpec& p) {
  json parts = json::array();
  for (const auto& m : p.media) parts.push_back(mm_part(m));
  return mm_chat_body(parts, p.prompt);
}

HttpResult mm_post(uint16_t port, const std::string& body) {
  return http_request(port, "POST", "/v1/chat/completions", body);
}

std::string mm_content(const HttpResult& r) {
  if (r.status != 200) return "<http " + std::to_string(r.status) + "> " + r.body;
  return json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>();
}

bool mm_all_pass(const lb::plan::PromptSpec& p, const std::string& out) {
  for (const auto& r : lb::compare::run_checks(p.checks, out))
    if (r.status != lb::compare::CheckStatus::Pass) return false;
  return true;
}

// Items of the set whose checks fail on the lane.
std::vector<std::string> mm_failures(uint16_t port, const lb::plan::PromptSet& set) {
  std::vector<std::string> failed;
  for (const auto& p : set.prompts) {
    const std::string out = mm_content(mm_post(port, mm_prompt_body(p)));
    if (!mm_all_pass(p, out)) failed.push_back(p.id + ": " + out);
  }
  return failed;
}

std::string mm_join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace

class SimMultimodalTest : public QObject {
  Q_OBJECT
  lb::plan::PromptSet set_;

 private slots:
  void initTestCase() {
    auto loaded = lb::plan::load_prompt_set("builtin:multimodal-30");
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    set_ = *loaded.set;
    QCOMPARE(int(set_.prompts.size()), 30);
  }

  void bf16_scores_30_of_30() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    const auto failed = mm_failures(bf16->port(), set_);
    QVERIFY2(failed.empty(), mm_join(failed).c_str());
  }

  void a_freshly_drawn_image_is_counted_from_its_pixels() {
    using lb::media::ShapeKind;
    auto bf16 = start_server("bf16?time_scale=0.001");
    for (int red = 1; red <= 5; ++red) {
      std::vector<lb::media::ShapeSpec> shapes(size_t(red), {ShapeKind::Triangle, 0});
      shapes.push_back({ShapeKind::Circle, 0});    // same colour, other shape
      shapes.push_back({ShapeKind::Triangle, 2});  // same shape, other colour
      const std::string png =
          lb::media::encode_png(lb::media::draw_shapes(shapes, 99u + red)).bytes;
      const std::string out = mm_content(
          mm_post(bf16->port(), mm_chat_body(json::array({mm_image_part(png)}),
                                             "How many red triangles are in the image?")));
      QVERIFY2(out.find(" " + std::to_string(red) + " red triangle") != std::string::npos,
               out.c_str());
    }
  }

  void jpeg_and_responses_input_image_are_read_too() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    const std::string jpeg = lb::media::encode_jpeg(lb::media::draw_word("ZEBRA"), 85).bytes;
    const json body = {
        {"input",
         {{{"role", "user"},
           {"content",
            {{{"type", "input_image"},
              {"image_url", "data:image/jpeg;base64," + lb::net::base64_encode(jpeg)}},
             {{"type", "input_text"}, {"text", "What word is written in the image?"}}}}}}},
        {"max_output_tokens", 64}};
    const auto r = http_request(bf16->port(), "POST", "/v1/responses", body.dump());
    QCOMPARE(r.status, 200);
    QVERIFY2(r.body.find("The word is ZEBRA.") != std::string::npos, r.body.c_str());
  }

  void media_add_prompt_tokens_by_size_and_frames() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    const auto prompt_tokens = [&](const json& parts) {
      const auto r = mm_post(bf16->port(), mm_chat_body(parts, "Describe it."));
      return r.status == 200 ? json::parse(r.body)["usage"]["prompt_tokens"].get<int64_t>() : -1;
    };
    const int64_t text = prompt_tokens(json::array());
    const auto png_of = [](int w, int h) {
      return lb::media::encode_png(lb::media::Image(w, h)).bytes;
    };
    // 28 px patches: 256 x 256 -> 10 x 10 tokens, 512 x 512 -> 19 x 19.
    QCOMPARE(prompt_tokens(json::array({mm_image_part(png_of(256, 256))})) - text, int64_t(100));
    QCOMPARE(prompt_tokens(json::array({mm_image_part(png_of(512, 512))})) - text, int64_t(361));
    QCOMPARE(prompt_tokens(
                 json::array({mm_image_part(png_of(256, 256)), mm_image_part(png_of(256, 256))})) -
                 text,
             int64_t(200));
    // The 8-frame 128 x 96 video: 5 x 4 tokens per pair of frames.
    const auto* video = set_.find("mm-video-01");
    QVERIFY(video);
    QCOMPARE(prompt_tokens(json::array({mm_part(video->media[0])})) - text, int64_t(80));
  }

  void the_vision_encoder_delays_the_first_token_by_pixels_and_frames() {
    Profile profile = *builtin_profile("bf16");
    profile.vision_encoder_s_per_mpx = 0.5;
    RequestMedia image{false, "image/png", 1000, 1000, 1000, 1, 1, nullptr};
    image.pixels = std::make_shared<const lb::media::Video>();
    RequestMedia video = image;
    video.video = true;
    video.frames = 8;
    QCOMPARE(vision_encoder_s({image}, profile), 0.5);
    QCOMPARE(vision_encoder_s({video}, profile), 4.0);
    QCOMPARE(vision_encoder_s({image, video}, profile), 4.5);
    QCOMPARE(vision_tokens(image, profile), int64_t(36 * 36));
    QCOMPARE(vision_tokens(video, profile), int64_t(36 * 36 * 4));
    // In the engine the encoder's time comes before scheduling: TTFT grows by exactly that.
    std::vector<double> ttft_s;
    for (double encoder_s : {0.0, 4.0}) {
      VirtualClock clock;
      EngineModel engine(profile, clock);
      std::vector<RequestTiming> done;
      SeqSpec spec;
      spec.prompt = engine_prompt(2000, 1);
      spec.output_tokens = 4;
      spec.encoder_s = encoder_s;
      submit_timed(clock, engine, spec, done);
      clock.run();
      QCOMPARE(int(done.size()), 1);
      ttft_s.push_back(done[0].ttft_s());
    }
    QVERIFY2(std::abs(ttft_s[1] - ttft_s[0] - 4.0) < 1e-9,
             qPrintable(QString("%1 -> %2").arg(ttft_s[0]).arg(ttft_s[1])));
  }

  void the_text_only_fp8_lane_refuses_media_as_vllm_does() {
    auto fp8 = start_server("fp8?time_scale=0.001");
    const auto* image_item = set_.find("mm-image-01");
    const auto r = mm_post(fp8->port(), mm_prompt_body(*image_item));
    QCOMPARE(r.status, 400);
    const json error = json::parse(r.body)["error"];
    QCOMPARE(error["message"].get<std::string>(),
             std::string("At most 0 image(s) may be provided in one prompt. Set "
                         "`--limit-mm-per-prompt` to increase this limit."));
    QCOMPARE(error["type"].get<std::string>(), std::string("BadRequestError"));
    const auto video = mm_post(fp8->port(), mm_prompt_body(*set_.find("mm-video-01")));
    QCOMPARE(video.status, 400);
    QVERIFY(video.body.find("At most 0 video(s)") != std::string::npos);
    // Text alone still works there, and the option turns media on.
    QCOMPARE(mm_post(fp8->port(), mm_chat_body(json::array(), "Hello")).status, 200);
    auto fp8_mm = start_server("fp8?time_scale=0.001&text_only=0");
    QCOMPARE(mm_post(fp8_mm->port(), mm_prompt_body(*image_item)).status, 200);
    auto bf16_text = start_server("bf16?time_scale=0.001&text_only=1");
    QCOMPARE(mm_post(bf16_text->port(), mm_prompt_body(*image_item)).status, 400);
    // A limit of one image: the two-image items are refused, the image-and-video ones are not.
    auto one_image = start_server("bf16?time_scale=0.001&image_limit=1");
    const auto two = mm_post(one_image->port(), mm_prompt_body(*set_.find("mm-mixed-01")));
    QCOMPARE(two.status, 400);
    QVERIFY2(
        two.body.find("At most 1 image(s) may be provided in one prompt.") != std::string::npos,
        two.body.c_str());
    QCOMPARE(mm_post(one_image->port(), mm_prompt_body(*set_.find("mm-mixed-06"))).status, 200);
  }

  void unreadable_media_are_a_400() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    const json bad_png = {
        {"type", "image_url"},
        {"image_url", {{"url", "data:image/png;base64," + lb::net::base64_encode("not a png")}}}};
    auto r = mm_post(bf16->port(), mm_chat_body(json::array({bad_png}), "What is it?"));
    QCOMPARE(r.status, 400);
    QVERIFY2(r.body.find("Failed to load image") != std::string::npos, r.body.c_str());
    const json bad_base64 = {{"type", "image_url"},
                             {"image_url", {{"url", "data:image/png;base64,@@@"}}}};
    r = mm_post(bf16->port(), mm_chat_body(json::array({bad_base64}), "What is it?"));
    QCOMPARE(r.status, 400);
    QVERIFY2(r.body.find("invalid base64") != std::string::npos, r.body.c_str());
    const json png_as_video = {
        {"type", "video_url"},
        {"video_url",
         {{"url",
           "data:video/mp4;base64," +
               lb::net::base64_encode(lb::media::encode_png(lb::media::Image(8, 8)).bytes)}}}};
    r = mm_post(bf16->port(), mm_chat_body(json::array({png_as_video}), "What is it?"));
    QCOMPARE(r.status, 400);
  }

  void fp8_drift_changes_answers_only_with_flip_facts() {
    auto kept = start_server("fp8?time_scale=0.001&text_only=0");
    const auto kept_failed = mm_failures(kept->port(), set_);
    QVERIFY2(kept_failed.empty(), mm_join(kept_failed).c_str());
    auto flipped = start_server("fp8?time_scale=0.001&text_only=0&flip_facts=1");
    const auto flipped_failed = mm_failures(flipped->port(), set_);
    // The drift model flips a fact in about a fifth of the items.
    QVERIFY2(!flipped_failed.empty() && flipped_failed.size() <= 12,
             mm_join(flipped_failed).c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimMultimodalTest)
#include "sim_multimodal_test.moc"
