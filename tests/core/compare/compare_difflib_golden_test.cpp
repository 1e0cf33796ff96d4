// lb::compare against CPython's difflib on the committed goldens (scripts/gen_difflib_goldens.py).
#include <QtTest>

#include "test_main.h"

#include "core/compare/similarity.h"
#include "generated_text.h"
#include "golden_case.h"
#include "test_paths.h"

using namespace lb::compare;
using lb::compare::testing::check_golden_case;

class DifflibGoldenTest : public QObject {
  Q_OBJECT

 private slots:
  void shortPairsMatchCPython() {
    const auto file = testing::read_json_file(lb::test::fixture_path("difflib/short_pairs.json"));
    const auto& cases = file.at("cases");
    QVERIFY2(cases.size() >= 500, "the goldens must cover at least 500 pairs");
    int failures = 0;
    std::string first;
    for (const auto& c : cases) {
      const std::string problem =
          check_golden_case(c, c.at("a").get<std::string>(), c.at("b").get<std::string>());
      if (problem.empty()) continue;
      if (failures++ == 0) first = problem;
    }
    QVERIFY2(failures == 0, (std::to_string(failures) + " cases differ; first: " + first).c_str());
  }

  void similarityRatioIsDifflibRatio() {
    const auto file = testing::read_json_file(lb::test::fixture_path("difflib/short_pairs.json"));
    int checked = 0;
    for (const auto& c : file.at("cases")) {
      if (c.value("mode", std::string("char")) != "char" || c.contains("junk") ||
          !c.value("autojunk", true)) {
        continue;
      }
      const double expected = std::strtod(c.at("ratio").get<std::string>().c_str(), nullptr);
      QCOMPARE(similarity_ratio(c.at("a").get<std::string>(), c.at("b").get<std::string>()),
               expected);
      ++checked;
    }
    QVERIFY(checked > 400);
  }

  void longGeneratedPairsMatchCPython() {
    const auto file = testing::read_json_file(lb::test::fixture_path("difflib/long_pairs.json"));
    QVERIFY(!file.at("cases").empty());
    for (const auto& c : file.at("cases")) {
      const auto& gen = c.at("generated");
      const auto [a, b] =
          testing::generated_pair(gen.at("seed").get<uint64_t>(), gen.at("words").get<int>(),
                                  gen.at("mutation_permille").get<int>());
      QCOMPARE(testing::fnv1a64_hex(a), c.at("fnv1a64_a").get<std::string>());
      QCOMPARE(testing::fnv1a64_hex(b), c.at("fnv1a64_b").get<std::string>());
      QVERIFY2(a.size() >= 150 * 1024, "long goldens must be at least 150 KB");
      const std::string problem = check_golden_case(c, a, b);
      QVERIFY2(problem.empty(), problem.c_str());
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(DifflibGoldenTest)
#include "compare_difflib_golden_test.moc"
