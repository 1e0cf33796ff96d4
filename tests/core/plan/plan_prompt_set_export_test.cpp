// A prompt set written out as files (prompts.jsonl, media/, media.json) loads back as the same
// set: builtin:multimodal-30's 30 prompts with the same checks and the same media bytes, a URL
// medium kept as its URL; media.json describes every file, and each generated square video with
// its fps and the square of its last frame as drawn. A folder that cannot be made is an error.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/media/media_reader.h"
#include "core/plan/prompt_set.h"
#include "core/plan/prompt_set_export.h"

using namespace lb::plan;
using nlohmann::json;

class TestPromptSetExport : public QObject {
  Q_OBJECT
 private slots:
  void theBuiltinMultimodalSetRoundTrips() {
    const auto builtin = load_prompt_set("builtin:multimodal-30");
    QVERIFY2(builtin.ok(), builtin.error_text().c_str());
    QTemporaryDir dir;
    const PromptSetExport written = export_prompt_set(*builtin.set, dir.path().toStdString());
    QVERIFY2(written.ok(), written.error.c_str());
    QCOMPARE(written.media_files, 40);  // 25 images and 15 videos, each written once
    const auto back = load_prompt_set(written.jsonl_path);
    QVERIFY2(back.ok(), back.error_text().c_str());
    QCOMPARE(back.set->prompts.size(), builtin.set->prompts.size());
    for (size_t i = 0; i < back.set->prompts.size(); ++i) {
      const PromptSpec& a = builtin.set->prompts[i];
      const PromptSpec& b = back.set->prompts[i];
      QCOMPARE(b.id, a.id);
      QCOMPARE(b.category, a.category);
      QCOMPARE(b.prompt, a.prompt);
      QCOMPARE(b.max_tokens, a.max_tokens);
      QCOMPARE(b.checks.size(), a.checks.size());
      for (size_t c = 0; c < a.checks.size(); ++c)
        QCOMPARE(check_to_json(b.checks[c]).dump(), check_to_json(a.checks[c]).dump());
      QCOMPARE(b.media.size(), a.media.size());
      for (size_t m = 0; m < a.media.size(); ++m) {
        QCOMPARE(b.media[m].kind, a.media[m].kind);
        QVERIFY(*b.media[m].bytes == *a.media[m].bytes);
        QCOMPARE(b.media[m].frames, a.media[m].frames);
      }
    }

    std::ifstream in(written.manifest_path);
    const json manifest = json::parse(in);
    QCOMPARE(manifest["prompt_set"].get<std::string>(), std::string("builtin:multimodal-30"));
    QCOMPARE(manifest["media"].size(), size_t{40});
    int videos = 0;
    for (const auto& e : manifest["media"]) {
      if (e["kind"] != "video") continue;
      ++videos;
      QCOMPARE(e["fps"].get<int>(), 4);
      QCOMPARE(e["frames"].get<int>(), 8);
      QCOMPARE(e["width_px"].get<int>(), 128);
      QCOMPARE(e["height_px"].get<int>(), 96);
      const json& sq = e["last_square"];
      QCOMPARE(sq["side_px"].get<int>(), 32);
      // The drawn colour is where our own reader finds it, in the file that was written.
      std::ifstream file(dir.filePath(QString::fromStdString(e["file"])).toStdString(),
                         std::ios::binary);
      std::stringstream bytes;
      bytes << file.rdbuf();
      const auto decoded = lb::media::decode_media(bytes.str());
      QVERIFY2(decoded.ok(), decoded.error.c_str());
      const auto& last = decoded.value->video.frames.back();
      const int x = sq["left_px"].get<int>() + 16, y = sq["top_px"].get<int>() + 16;
      const auto px = last.at(x, y);
      for (int k = 0; k < 3; ++k) {
        const int want = sq["rgb"][size_t(k)].get<int>();
        const int got = k == 0 ? px.r : k == 1 ? px.g : px.b;
        QVERIFY2(std::abs(got - want) < 40, e.dump().c_str());
      }
    }
    QCOMPARE(videos, 15);
  }

  void aUrlMediumStaysAUrl() {
    PromptSet set;
    set.name = "mine";
    PromptSpec p;
    p.id = "u1";
    p.prompt = "What is it?";
    MediaRef m;
    m.kind = MediaKind::Video;
    m.url = "https://example.org/clip.mp4";
    p.media.push_back(m);
    set.prompts.push_back(p);
    QTemporaryDir dir;
    const auto written = export_prompt_set(set, dir.path().toStdString());
    QVERIFY2(written.ok(), written.error.c_str());
    QCOMPARE(written.media_files, 0);
    const auto back = load_prompt_set(written.jsonl_path);
    QVERIFY2(back.ok(), back.error_text().c_str());
    QCOMPARE(back.set->prompts[0].media[0].url, m.url);
    QCOMPARE(back.set->prompts[0].media[0].kind, MediaKind::Video);
  }

  void anUnwritableFolderIsAnError() {
    QTemporaryDir dir;
    std::ofstream(dir.filePath("file").toStdString()) << "x";
    const auto written = export_prompt_set(*load_prompt_set("builtin:multimodal-30").set,
                                           dir.filePath("file/sub").toStdString());
    QVERIFY(!written.ok());
    QVERIFY2(written.error.find("cannot create") != std::string::npos, written.error.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestPromptSetExport)
#include "plan_prompt_set_export_test.moc"
