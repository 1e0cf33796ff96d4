// A candidate's differences judged against the baseline's determinism floor: the one-sided
// Fisher exact test against known values, and the verdict's words.
#include <QtTest>

#include "test_main.h"

#include "core/compare/floor_verdict.h"

using namespace lb::compare;

class TestFloorVerdict : public QObject {
  Q_OBJECT
 private slots:
  void fisherExactMatchesKnownTables() {
    // Fisher's tea-tasting table (3 of 4 right against 1 of 4): 17/70.
    QVERIFY(std::abs(fisher_exact_greater(3, 4, 1, 4) - 17.0 / 70.0) < 1e-12);
    // All four right: 1/70.
    QVERIFY(std::abs(fisher_exact_greater(4, 4, 0, 4) - 1.0 / 70.0) < 1e-12);
    // 10 of 20 against 1 of 20: sum over x >= 10 of C(20,x) C(20,11-x) / C(40,11).
    QVERIFY(std::abs(fisher_exact_greater(10, 20, 1, 20) - 0.0016710) < 1e-6);
    // Fewer than the floor, and nothing differing, are never significant.
    QCOMPARE(fisher_exact_greater(0, 20, 5, 20), 1.0);
    QVERIFY(fisher_exact_greater(2, 20, 5, 20) > 0.9);
    // Invalid counts give 1, not a crash.
    QCOMPARE(fisher_exact_greater(5, 4, 0, 4), 1.0);
    QCOMPARE(fisher_exact_greater(1, 0, 0, 0), 1.0);
  }

  void aboveAndWithinTheFloorAreSaidWithTheTest() {
    const FloorVerdict above = judge_against_floor(10, 20, 1, 20);
    QVERIFY(above.above);
    QCOMPARE(std::string(verdict_name(above)), std::string("above the floor"));
    QVERIFY2(verdict_text(above).find("10 of 20 answers differ against 1 of 20 on the baseline "
                                      "alone (one-sided Fisher exact test, p = 0.00167)") !=
                 std::string::npos,
             verdict_text(above).c_str());
    const FloorVerdict within = judge_against_floor(3, 20, 2, 20);
    QVERIFY(!within.above);
    QVERIFY(verdict_text(within).rfind("within the floor: 3 of 20", 0) == 0);
    const auto j = to_json(within);
    QCOMPARE(j["verdict"], "within the floor");
    QCOMPARE(j["floor_flips"], 2);
    QCOMPARE(j["test"], "one-sided Fisher exact test");
    QVERIFY(j["p_value"].get<double>() > 0.05);
    // A candidate whose every request failed compared nothing: not judged, never "within".
    const FloorVerdict dead = judge_against_floor(0, 0, 2, 20);
    QVERIFY(!dead.judged && !dead.above);
    QCOMPARE(std::string(verdict_name(dead)), std::string("not judged"));
    QVERIFY(verdict_text(dead).rfind("not judged", 0) == 0);
    QCOMPARE(std::string(verdict_name(judge_against_floor(0, 20, 0, 0))),
             std::string("not judged"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestFloorVerdict)
#include "compare_floor_verdict_test.moc"
