// A sampled regression's files as types: the golden sampled.fp8.json reads whole; a lane's
// samples file is found under texts/ whatever the lane is called (a lane id from the file cannot
// steer the read out of texts/); damaged files are errors that name them.
#include <QtTest>
#include <filesystem>
#include <fstream>

#include "core/record/sampled_file.h"
#include "test_main.h"
#include "test_paths.h"

using namespace lb::record;

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class RecordSampledFileTest : public QObject {
  Q_OBJECT
 private slots:
  void theGoldenSampledFileReadsWhole() {
    std::string error;
    const auto file = read_sampled_file(lb::test::fixture_path("run_folders/sampled_regression"),
                                        "sampled.fp8.json", &error);
    QVERIFY2(file.has_value(), error.c_str());
    QVERIFY2(file->damage.empty(), file->damage.empty() ? "" : file->damage[0].c_str());
    QCOMPARE(file->baseline, std::string("bf16"));
    QCOMPARE(file->candidate, std::string("fp8"));
    QCOMPARE(file->prompts.size(), size_t{20});
    size_t pairs = 0;
    for (const SampledPromptRecord& p : file->prompts) {
      QVERIFY(!p.result.empty());
      QVERIFY(p.q_value >= 0 && p.q_value <= 1);
      for (const auto& list : p.pairs) pairs += list.size();
    }
    QVERIFY(pairs > 0);
  }

  void laneSamplesAreReadFromTextsOnly() {
    QTemporaryDir tmp;
    const std::filesystem::path dir = tmp.path().toStdString();
    write_file(dir / "texts" / "fp8.samples.json", R"([["a", "b"], ["c", 7], "x"])");
    write_file(dir / "outside.samples.json", R"([["stolen"]])");
    std::string error;
    const auto fp8 = read_lane_samples(dir.string(), "fp8", &error);
    QVERIFY2(fp8.has_value(), error.c_str());
    QCOMPARE(*fp8, (std::vector<std::vector<std::string>>{{"a", "b"}, {"c", ""}, {}}));

    // texts/../outside.samples.json exists; the lane id "../outside" must not reach it.
    QVERIFY(!read_lane_samples(dir.string(), "../outside", &error).has_value());
    QVERIFY2(
        error.starts_with("damaged: texts/") && error.find("cannot be read") != std::string::npos,
        error.c_str());
  }

  void damagedFilesAreErrorsThatNameThem() {
    QTemporaryDir tmp;
    const std::filesystem::path dir = tmp.path().toStdString();
    std::string error;
    write_file(dir / "texts" / "fp8.samples.json", R"({"a": 1})");
    QVERIFY(!read_lane_samples(dir.string(), "fp8", &error).has_value());
    QCOMPARE(error, std::string("damaged: texts/fp8.samples.json: the file is object, not a list"));

    write_file(dir / "sampled.json", R"({"baseline": "bf16", "candidate": "fp8", "prompts": [)");
    QVERIFY(!read_sampled_file(dir.string(), "sampled.json", &error).has_value());
    QCOMPARE(error, std::string("damaged: sampled.json: not valid JSON (cut short?)"));

    write_file(dir / "sampled.json", R"({"baseline": "bf16", "candidate": "fp8", "prompts": []})");
    QVERIFY(!read_sampled_file(dir.string(), "sampled.json", &error).has_value());
    QCOMPARE(error, std::string("damaged: sampled.json: it has no prompts"));

    write_file(dir / "sampled.json", R"({"baseline": "bf16", "candidate": "fp8",
        "prompts": [{"index": 0, "q_value": "low", "fact_lost": {"fp8": {"lost": 1, "samples": 4},
        "bf16": 3}, "pairs": {"cross": [[0, 1, 0.5], [0, -1, 0.2]]}}]})");
    const auto file = read_sampled_file(dir.string(), "sampled.json", &error);
    QVERIFY(file.has_value());
    QCOMPARE(file->prompts[0].q_value, 1.0);
    QCOMPARE(file->damage.size(), size_t{1});
    QVERIFY2(file->damage[0].find("prompts[0].q_value") != std::string::npos,
             file->damage[0].c_str());
    QVERIFY(file->prompts[0].fact_lost.has_value());
    QCOMPARE(file->prompts[0].fact_lost->size(), size_t{1});
    QCOMPARE(file->prompts[0].fact_lost->at("fp8").lost, int64_t{1});
    QCOMPARE(file->prompts[0].pairs[2].size(), size_t{1});
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RecordSampledFileTest)
#include "record_sampled_file_test.moc"
