// The report's determinism floor, read back from a real run on simulator lanes: one row per lane
// and check with the counts and interval summary.json records, the floor per lane, and a row
// per flip with its first divergent token and margin.
#include <QtTest>

#include <filesystem>

#include "test_main.h"

#include "core/report/report_model.h"
#include "report_run_fixture.h"

using nlohmann::json;

class TestReportDeterminism : public QObject {
  Q_OBJECT
 private slots:
  void floorAndFlipTablesFollowTheSummary() {
    const json plan = {
        {"name", "floor"},
        {"lanes",
         {{{"id", "steady"}, {"base_url", "sim:fp8?time_scale=0.002"}},
          {{"id", "variant"},
           {"base_url", "sim:fp8?time_scale=0.002&batch_variance=0.9&cache_variance=0.6"}}}},
        {"experiments",
         {{{"kind", "determinism"},
           {"repeats", 2},
           {"batch_concurrency", 6},
           {"max_tokens", 48}}}}};
    const auto run = lb::test::run_plan_into(plan, "lb-report-determinism");
    std::string error;
    const auto folder = lb::report::load_run_folder(run.string(), &error);
    QVERIFY2(folder, error.c_str());
    const auto tables = lb::report::determinism_tables(*folder);
    QCOMPARE(tables.size(), size_t(2));
    const auto& floor = tables[0];
    QCOMPARE(floor.title, std::string("Determinism floor"));
    QCOMPARE(floor.rows.size(), size_t(8));  // two lanes: three checks and the floor
    const nlohmann::json lanes =
        lb::test::summary_sections(folder->dir, lb::record::ExperimentKind::Determinism)
            .front()["lanes"];
    int flips_in_summary = 0;
    for (const auto& row : floor.rows) {
      const json& d = lanes[row.at(0)]["determinism"];
      const std::string check = row[1] == "floor (any check)" ? "floor" : row[1];
      QCOMPARE(row[4], std::to_string(d[check]["flips"].get<int>()));
      QCOMPARE(row[3], std::to_string(d[check]["prompts_compared"].get<int>()));
      QVERIFY2(row[5].find(" % [") != std::string::npos, row[5].c_str());
      if (check != "floor") {
        QVERIFY2(row[6].rfind("measured", 0) == 0, row[6].c_str());
        flips_in_summary += d[check]["flips"].get<int>();
      }
    }
    QVERIFY(flips_in_summary > 0);
    const auto& flips = tables[1];
    QCOMPARE(flips.rows.size(), size_t(flips_in_summary));
    for (const auto& row : flips.rows) {
      QCOMPARE(row[0], std::string("variant"));
      QVERIFY2(row[4].find("→") != std::string::npos, row[4].c_str());
      QVERIFY2(row[6] == "near_tie" || row[6] == "length_change", row[6].c_str());
      if (row[6] == "near_tie") QVERIFY2(std::stod(row[5]) <= 0.5, row[5].c_str());
    }
    // And in the report itself.
    const auto model = lb::report::build_report_model(*folder);
    bool found = false;
    for (const auto& t : model.performance) found = found || t.title == "Determinism floor";
    QVERIFY(found);
    std::filesystem::remove_all(run);
  }

  // A regression's floor: the verdict table and the regression gate's words say above or within
  // the floor with the test, as summary.json records it.
  void candidatesAreJudgedAgainstTheFloorInTablesAndGates() {
    const json plan = {
        {"name", "regression-floor"},
        {"lanes",
         {{{"id", "base"}, {"base_url", "sim:fp8?time_scale=0.002&batch_variance=0.2"}},
          {{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.002"}}}},
        {"experiments",
         {{{"kind", "regression"}, {"max_tokens", 48}, {"floor", {{"batch_concurrency", 8}}}}}}};
    const auto run = lb::test::run_plan_into(plan, "lb-report-regression-floor");
    std::string error;
    const auto folder = lb::report::load_run_folder(run.string(), &error);
    QVERIFY2(folder, error.c_str());
    const auto tables = lb::report::determinism_tables(*folder);
    QVERIFY(tables.size() >= 2);
    QCOMPARE(tables[0].title, std::string("Candidates against the baseline's floor"));
    QCOMPARE(tables[0].rows.size(), size_t(1));
    const nlohmann::json c =
        lb::test::summary_sections(folder->dir, lb::record::ExperimentKind::Regression)
            .front()["comparisons"][0];
    const auto& row = tables[0].rows[0];
    QCOMPARE(row[1], std::string("bf16"));
    QCOMPARE(row[2], std::to_string(c["floor_verdict"]["differing"].get<int>()) + " of " +
                         std::to_string(c["floor_verdict"]["compared"].get<int>()));
    QCOMPARE(row[5], c["floor_verdict"]["verdict"].get<std::string>());
    QCOMPARE(tables[1].rows.front()[0], std::string("base (regression baseline)"));
    const auto model = lb::report::build_report_model(*folder);
    bool said = false;
    for (const auto& gate : model.gates.rows)
      for (const auto& cell : gate.cells)
        said = said ||
               cell.detail.find(c["floor_verdict"]["text"].get<std::string>()) != std::string::npos;
    QVERIFY2(said, "the regression gate says the floor verdict");
    std::filesystem::remove_all(run);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportDeterminism)
#include "report_determinism_test.moc"
