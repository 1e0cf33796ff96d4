// tokens.json as types: the golden regression folder's files (one per candidate) read without a
// note, with every pair and its cause; cross-scores in both directions, in one object and on the
// pair itself (older files) read as such; damaged fields are noted and read as absent.
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/record/tokens_file.h"
#include "test_main.h"
#include "test_paths.h"

using namespace lb::record;
using nlohmann::json;

namespace {

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TokensFile read(const json& doc, std::vector<std::string>* damage = nullptr) {
  FileFields f("tokens.json");
  TokensFile out = read_tokens_file(doc, f);
  if (damage) *damage = f.damage();
  return out;
}

}  // namespace

class RecordTokensFileTest : public QObject {
  Q_OBJECT
 private slots:
  void goldenFilesReadWithoutANote() {
    const auto folder = std::filesystem::path(lb::test::fixture_path("run_folders")) / "regression";
    int files = 0;
    for (const char* name : {"tokens.fp8.json", "tokens.fp8-mtp.json"}) {
      const std::string text = file_text(folder / name);
      QVERIFY2(!text.empty(), name);
      FileFields f(name);
      const TokensFile t = read_tokens_file_text(text, f);
      QVERIFY2(!f.damaged(), f.damaged() ? f.damage().front().c_str() : "");
      QVERIFY(t.has_pairs);
      QCOMPARE(t.near_tie_margin_nats.value_or(-1), 0.5);
      QCOMPARE(t.top_k.value_or(-1), int64_t{5});
      // Every pair is there, in prompt order, and the causes add up to the file's own counts.
      const json doc = json::parse(text);
      QCOMPARE(t.pairs.size(), doc["pairs"].size());
      std::map<std::string, int64_t> causes;
      for (size_t i = 0; i < t.pairs.size(); ++i) {
        QCOMPARE(t.pairs[i].index, static_cast<int64_t>(i));
        QVERIFY(!t.pairs[i].reason.empty());
        ++causes[t.pairs[i].cause];
      }
      for (const auto& [cause, count] : doc["counts"].items())
        QCOMPARE(causes[cause], count.get<int64_t>());
      ++files;
    }
    QCOMPARE(files, 2);
  }

  void crossScoresReadInEachShape() {
    const json doc = {
        {"pairs",
         {{{"index", 0},
           {"class", "near_tie"},
           {"reason", "r"},
           {"token_index", 3},
           {"baseline_margin_nats", 0.25},
           {"cross_score",
            {{"candidate_under_baseline", {{"top1_agreement", 0.98}, {"mean_kl_nats", 0.01}}},
             {"baseline_under_candidate", {{"status", "unsupported"}, {"reason", "no /score"}}}}}},
          {{"index", 1}, {"class", "identical"}, {"cross_score", {{"top1_agreement", 0.9}}}},
          {{"index", 2}, {"class", "identical"}, {"top1_agreement", 0.8}, {"kl", 0.2}}}}};
    std::vector<std::string> damage;
    const TokensFile t = read(doc, &damage);
    QVERIFY(damage.empty());
    QCOMPARE(t.pairs.size(), size_t{3});
    const TokenPair& a = t.pairs[0];
    QCOMPARE(a.token_index, int64_t{3});
    QCOMPARE(a.baseline_margin_nats.value_or(-1), 0.25);
    QVERIFY(a.candidate_under_baseline && a.candidate_under_baseline->scored);
    QCOMPARE(a.candidate_under_baseline->top1_agreement.value_or(-1), 0.98);
    QCOMPARE(a.candidate_under_baseline->mean_kl_nats.value_or(-1), 0.01);
    QVERIFY(a.baseline_under_candidate && !a.baseline_under_candidate->scored);
    QCOMPARE(a.baseline_under_candidate->reason, std::string("no /score"));
    QVERIFY(!a.cross_whole);
    QVERIFY(t.pairs[1].cross_whole);
    QCOMPARE(t.pairs[1].cross_whole->top1_agreement.value_or(-1), 0.9);
    QVERIFY(!t.pairs[2].cross_whole);
    QCOMPARE(t.pairs[2].flat.mean_kl_nats.value_or(-1), 0.2);  // "kl" of older files
    QVERIFY(!t.pairs[0].flat.top1_agreement);
  }

  void damagedFieldsAreNotedAndReadAsAbsent() {
    const json doc = {{"thresholds", {{"top_k", "five"}}},
                      {"pairs",
                       {{{"index", 0}, {"class", 7}},
                        "not a pair",
                        {{"index", 1.5}, {"class", "near_tie"}, {"baseline_margin_nats", "x"}}}}};
    std::vector<std::string> damage;
    const TokensFile t = read(doc, &damage);
    QVERIFY(!t.top_k);
    QCOMPARE(t.pairs.size(), size_t{2});  // the string is left out
    QCOMPARE(t.pairs[0].cause, std::string());
    QCOMPARE(t.pairs[1].index, int64_t{-1});  // not a whole number
    QVERIFY(!t.pairs[1].baseline_margin_nats);
    std::string all;
    for (const auto& d : damage) all += d + "\n";
    QVERIFY2(all.find("damaged: tokens.json: thresholds.top_k") != std::string::npos, all.c_str());
    QVERIFY2(all.find("pairs[0].class") != std::string::npos, all.c_str());
    QVERIFY2(all.find("pairs[1] is") != std::string::npos, all.c_str());
    QVERIFY2(all.find("pairs[2].baseline_margin_nats") != std::string::npos, all.c_str());
    // Not JSON at all: one note, nothing read.
    FileFields f("tokens.json");
    const TokensFile none = read_tokens_file_text("{\"pairs\": [", f);
    QVERIFY(!none.has_pairs);
    QCOMPARE(f.damage().size(), size_t{1});
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RecordTokensFileTest)
#include "record_tokens_file_test.moc"
