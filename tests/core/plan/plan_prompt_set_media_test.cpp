// Prompt sets with media: files by relative path (from the set's folder), http(s) URLs, the
// errors that name a missing, unreadable or mislabelled file, and builtin:multimodal-30.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "core/media/image_codec.h"
#include "core/media/video_codec.h"
#include "core/plan/builtin_prompt_sets.h"
#include "core/plan/prompt_set.h"

using namespace lb::plan;
using nlohmann::json;

namespace {

void media_write(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string media_line(const json& media) {
  return json{{"id", "p1"}, {"prompt", "What is shown?"}, {"media", media}}.dump() + "\n";
}

// A set file in `dir` with one line; returns the load result.
PromptSetResult media_load(const QTemporaryDir& dir, const json& media) {
  const std::string set_path = dir.filePath("sets/set.jsonl").toStdString();
  media_write(set_path, media_line(media));
  return load_prompt_set(set_path);
}

}  // namespace

class TestPlanPromptSetMedia : public QObject {
  Q_OBJECT

 private slots:
  void relative_paths_resolve_against_the_set_folder() {
    QTemporaryDir dir;
    const lb::media::Image image(40, 30, {10, 20, 30});
    const std::string png = lb::media::encode_png(image).bytes;
    media_write(dir.filePath("sets/imgs/a.png").toStdString(), png);
    const std::vector<lb::media::Image> frames(3, lb::media::Image(32, 16));
    media_write(dir.filePath("sets/v.mp4").toStdString(), lb::media::encode_mp4(frames, 2).bytes);
    const auto r = media_load(dir, json::array({{{"image", "imgs/a.png"}},
                                                {{"video", "v.mp4"}},
                                                {{"image_url", "https://example.org/c.jpg"}}}));
    QVERIFY2(r.ok(), r.error_text().c_str());
    const PromptSpec& p = r.set->prompts.at(0);
    QCOMPARE(int(p.media.size()), 3);
    QCOMPARE(p.media[0].kind, MediaKind::Image);
    QCOMPARE(p.media[0].mime, std::string("image/png"));
    QCOMPARE(p.media[0].source, std::string("imgs/a.png"));
    QVERIFY(p.media[0].bytes && *p.media[0].bytes == png);
    QCOMPARE(p.media[0].width_px, 40);
    QCOMPARE(p.media[0].height_px, 30);
    QCOMPARE(p.media[1].kind, MediaKind::Video);
    QCOMPARE(p.media[1].mime, std::string("video/mp4"));
    QCOMPARE(p.media[1].frames, 3);
    QCOMPARE(p.media[2].url, std::string("https://example.org/c.jpg"));
    QVERIFY(!p.media[2].bytes);
  }

  // Issue 36, case 5: a set from elsewhere named the user's files (absolute, ../, a link out);
  // their bytes went to the plan's server. Each is refused at load with the prompt and the path.
  void media_outside_the_set_folder_are_refused() {
    QTemporaryDir dir;
    const std::string png = lb::media::encode_png(lb::media::Image(4, 4)).bytes;
    const std::string secret = dir.filePath("secret.png").toStdString();
    media_write(secret, png);
    media_write(dir.filePath("sets/inside.png").toStdString(), png);
    std::filesystem::create_symlink(secret, dir.filePath("sets/out.png").toStdString());
    std::filesystem::create_symlink("inside.png", dir.filePath("sets/in.png").toStdString());
    for (const std::string& path : {secret, std::string("../secret.png"), std::string("out.png"),
                                    std::string("sub/../../secret.png")}) {
      const auto r = media_load(dir, json::array({{{"image", path}}}));
      QVERIFY2(!r.ok(), path.c_str());
      const std::string text = r.error_text();
      QVERIFY2(text.find(path) != std::string::npos, text.c_str());
      QVERIFY2(text.find("outside the prompt set's folder") != std::string::npos, text.c_str());
      QVERIFY2(text.find("p1") != std::string::npos, text.c_str());
    }
    const auto r = media_load(dir, json::array({{{"image", "./in.png"}}}));
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.set->prompts.at(0).media.at(0).source, std::string("in.png"));
  }

  void a_missing_file_is_named_with_line_and_field() {
    QTemporaryDir dir;
    const auto r = media_load(dir, json::array({{{"image", "imgs/missing.png"}}}));
    QVERIFY(!r.ok());
    QCOMPARE(int(r.errors.size()), 1);
    QCOMPARE(r.errors[0].line, 1);
    QCOMPARE(r.errors[0].field, std::string("media[0].image"));
    QVERIFY2(r.errors[0].message.find("imgs/missing.png: no such file") != std::string::npos,
             r.error_text().c_str());
  }

  void unsupported_and_mislabelled_files_are_errors() {
    QTemporaryDir dir;
    media_write(dir.filePath("sets/notes.png").toStdString(), "just some text");
    auto r = media_load(dir, json::array({{{"image", "notes.png"}}}));
    QVERIFY(!r.ok());
    QVERIFY2(r.error_text().find("notes.png: unsupported media format") != std::string::npos,
             r.error_text().c_str());

    media_write(dir.filePath("sets/pic.png").toStdString(),
                lb::media::encode_png(lb::media::Image(4, 4)).bytes);
    r = media_load(dir, json::array({{{"video", "pic.png"}}}));
    QVERIFY(!r.ok());
    QVERIFY2(
        r.error_text().find("pic.png: is an image; list it as \\\"image\\\"") !=
                std::string::npos ||
            r.error_text().find("pic.png: is an image; list it as \"image\"") != std::string::npos,
        r.error_text().c_str());
  }

  void bad_media_entries_are_errors() {
    QTemporaryDir dir;
    QVERIFY(!media_load(dir, json::array({{{"image_url", "file:///etc/passwd"}}})).ok());
    const auto url_as_file =
        media_load(dir, json::array({{{"video", "https://example.org/v.mp4"}}}));
    QVERIFY(!url_as_file.ok());
    QVERIFY2(url_as_file.error_text().find("a URL goes in") != std::string::npos,
             url_as_file.error_text().c_str());
    QVERIFY(!media_load(dir, json::array({{{"picture", "a.png"}}})).ok());
    QVERIFY(!media_load(dir, json::array({{{"image", 3}}})).ok());
    QVERIFY(!media_load(dir, json{{"image", "a.png"}}).ok());
    const auto two_keys = media_load(dir, json::array({{{"image", "a"}, {"video", "b"}}}));
    QVERIFY(!two_keys.ok());
    QCOMPARE(two_keys.errors.at(0).field, std::string("media[0]"));
  }

  void builtin_multimodal_30() {
    const auto names = builtin_prompt_set_names();
    QVERIFY(std::find(names.begin(), names.end(), "multimodal-30") != names.end());
    const auto r = load_prompt_set("builtin:multimodal-30");
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(int(r.set->prompts.size()), 30);
    std::map<std::string, int> per_category;
    for (const auto& p : r.set->prompts) {
      ++per_category[p.category];
      QVERIFY2(!p.checks.empty(), p.id.c_str());
      QVERIFY2(!p.media.empty() && p.media[0].bytes && !p.media[0].bytes->empty(), p.id.c_str());
      QVERIFY(p.media[0].source.rfind("builtin:multimodal-30/", 0) == 0);
    }
    QCOMPARE(per_category["image"], 10);
    QCOMPARE(per_category["video"], 10);
    QCOMPARE(per_category["mixed"], 10);
    const PromptSpec* chart = r.set->find("mm-image-08");
    QVERIFY(chart);
    QCOMPARE(chart->checks.at(0).type, CheckType::Regex);
    const auto again = load_prompt_set("builtin:multimodal-30");
    QVERIFY(*again.set->prompts[20].media[1].bytes == *r.set->prompts[20].media[1].bytes);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestPlanPromptSetMedia)
#include "plan_prompt_set_media_test.moc"
