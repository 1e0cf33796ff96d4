// Re-checks lb::compare against the python3 on this machine: random pairs (astral emoji, CJK,
// small alphabets that stress tie-breaking, texts long enough for autojunk) are generated here,
// CPython's difflib computes them live, and every ratio, block and opcode must agree.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "core/compare/code_point_text.h"
#include "golden_case.h"
#include "process_runner.h"

using nlohmann::json;

namespace {
constexpr const char* kPythonScript = R"(
import difflib, json, sys
cases = json.load(open(sys.argv[1], encoding="utf-8"))
for c in cases:
    sm = difflib.SequenceMatcher(None, c["a"], c["b"])
    c["len_a"], c["len_b"] = len(c["a"]), len(c["b"])
    c["ratio"] = repr(sm.ratio())
    c["blocks"] = [list(m) for m in sm.get_matching_blocks()]
    c["opcodes"] = [list(op) for op in sm.get_opcodes()]
json.dump(cases, open(sys.argv[2], "w", encoding="utf-8"))
)";

std::string random_text(std::mt19937_64& rng, std::size_t length) {
  static const std::u32string pools[] = {
      U"ab", U"abc ", U"the quick brown fox 0123456789 ,.\n",
      U"\U0001F600\U0001F389\U0001F44D\U0001F3FD\u200D a\u00e9\u4e2d\u6587",
      U"\u0410\u0411\u0412 \u03b1\u03b2\u03b3 \u00fc\u00df xyz"};
  const std::u32string& pool = pools[rng() % std::size(pools)];
  std::u32string out;
  for (std::size_t i = 0; i < length; ++i) out += pool[rng() % pool.size()];
  return lb::compare::encode_utf8(out);
}

std::string mutated(std::mt19937_64& rng, const std::string& text) {
  std::u32string cps = lb::compare::decode_utf8(text);
  const std::size_t edits = 1 + rng() % 8;
  for (std::size_t e = 0; e < edits && !cps.empty(); ++e) {
    const std::size_t at = rng() % cps.size();
    if (rng() % 2) {
      cps.erase(at, 1 + rng() % 4);
    } else {
      cps.insert(at, lb::compare::decode_utf8(random_text(rng, 1 + rng() % 5)));
    }
  }
  return lb::compare::encode_utf8(cps);
}
}  // namespace

class DifflibLivePythonTest : public QObject {
  Q_OBJECT

 private slots:
  void randomPairsAgreeWithLivePython() {
    std::mt19937_64 rng(20261129);
    json cases = json::array();
    for (int i = 0; i < 150; ++i) {
      const std::size_t length = (i % 5 == 0) ? 200 + rng() % 2500 : rng() % 180;
      const std::string a = random_text(rng, length);
      const std::string b = (i % 3 == 0) ? random_text(rng, rng() % 400) : mutated(rng, a);
      cases.push_back({{"id", "live-" + std::to_string(i)}, {"a", a}, {"b", b}});
    }
    QTemporaryDir dir;
    const QString in = dir.filePath("in.json");
    const QString out = dir.filePath("out.json");
    const QString script = dir.filePath("difflib_live.py");
    std::ofstream(in.toStdString()) << cases.dump();
    std::ofstream(script.toStdString()) << kPythonScript;
    const auto python = lb::compare::testing::run_process("python3", {script, in, out}, 120000);
    QVERIFY2(python.exit_code == 0,
             qPrintable("python3 (a build requirement) could not run difflib: " + python.err));
    const json results = lb::compare::testing::read_json_file(out.toStdString());
    QCOMPARE(results.size(), cases.size());
    for (const auto& c : results) {
      const std::string problem = lb::compare::testing::check_golden_case(
          c, c.at("a").get<std::string>(), c.at("b").get<std::string>());
      QVERIFY2(problem.empty(), problem.c_str());
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(DifflibLivePythonTest)
#include "compare_difflib_live_python_test.moc"
