// The report's tables of real traffic, read back from a real run on in-process simulator lanes:
// multi-turn sessions (TTFT and cached share per turn) and SLO capacity (capacity, goodput,
// binding SLO, and every probe by load).
#include <QtTest>

#include <algorithm>
#include <filesystem>

#include "test_main.h"

#include "core/record/run_summary.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"
#include "report_run_fixture.h"

namespace {

nlohmann::json traffic_plan() {
  return {{"name", "traffic"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.05"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.05"}}}},
          {"experiments",
           {{{"kind", "sessions"},
             {"sessions", 2},
             {"turns", 2},
             {"system_prompt_tokens", 4000},
             {"user_tokens_per_turn", 32},
             {"output_tokens", 8}},
            {{"kind", "capacity"},
             {"slo", {{"ttft_p99_ms", 5000}}},
             {"max_load", 4},
             {"requests", 6},
             {"warmups", 1},
             {"input_tokens", 256},
             {"output_tokens", 8}}}}};
}

const lb::report::ReportTable* traffic_table(const std::vector<lb::report::ReportTable>& tables,
                                             const std::string& title) {
  for (const auto& t : tables)
    if (t.title == title) return &t;
  return nullptr;
}

}  // namespace

class TestReportTraffic : public QObject {
  Q_OBJECT
 private slots:
  void sessionsAndCapacityHaveTheirTables() {
    const auto dir = lb::test::run_plan_into(traffic_plan(), "lb-report-traffic");
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY2(folder.has_value(), error.c_str());
    const auto tables = lb::report::performance_tables(*folder);

    const auto* sessions = traffic_table(tables, "Multi-turn sessions");
    QVERIFY(sessions != nullptr);
    QCOMPARE(sessions->rows.size(), size_t{4});  // 2 lanes x 2 turns
    QCOMPARE(sessions->rows[0][0], std::string("bf16"));
    QCOMPARE(sessions->rows[0][1], std::string("1"));
    QCOMPARE(sessions->rows[1][1], std::string("2"));
    QCOMPARE(sessions->rows[1][0], std::string(""));
    QCOMPARE(sessions->rows[0][2], std::string("2"));  // one first turn per session
    // The second turn reuses the session's history: most of its prompt is cached.
    const std::string cached = sessions->rows[3][6];
    QVERIFY2(cached.size() > 2 && std::stod(cached) > 80, cached.c_str());

    const auto* capacity = traffic_table(tables, "SLO capacity");
    QVERIFY(capacity != nullptr);
    QCOMPARE(capacity->rows.size(), size_t{2});
    // A 5 s TTFT limit holds at every load up to max_load 4.
    QCOMPARE(capacity->rows[1],
             (std::vector<std::string>{"fp8", ">= 4.00", "concurrent requests",
                                       capacity->rows[1][3], "n/a", "n/a", "3", "max_load"}));
    QVERIFY(std::stod(capacity->rows[1][3]) > 0);
    QVERIFY(capacity->note.find("TTFT p99 <= 5000 ms") != std::string::npos);
    const auto* probes = traffic_table(tables, "SLO capacity probes");
    QVERIFY(probes != nullptr);
    QCOMPARE(probes->rows.size(), size_t{6});  // loads 1, 2, 4 on each lane, by load
    QCOMPARE(probes->rows[0][1], std::string("1.00"));
    QCOMPARE(probes->rows[2][1], std::string("4.00"));
    QCOMPARE(probes->rows[2][5], std::string("pass"));

    // The report charts TTFT p99 against load (the only SLO set), with the SLO line.
    const auto charts = lb::report::report_charts(*folder);
    const auto chart = std::find_if(charts.begin(), charts.end(),
                                    [](const auto& c) { return c.id == "capacity_ttft_p99"; });
    QVERIFY(chart != charts.end());
    QVERIFY(std::none_of(charts.begin(), charts.end(),
                         [](const auto& c) { return c.id == "capacity_tpot_p99"; }));
    QCOMPARE(chart->x_title, std::string("probe load (concurrent requests)"));
    QCOMPARE(chart->series.size(), size_t{3});
    QCOMPARE(chart->series[0].points,
             (std::vector<std::pair<double, double>>{{1, 5000}, {4, 5000}}));
    QCOMPARE(chart->series[2].name, std::string("fp8"));
    QCOMPARE(chart->series[2].points.size(), size_t{3});
    for (const auto mark : chart->series[2].marks) QVERIFY(mark == lb::report::PointMark::Pass);

    // Damaged members read as not available, and the rows after them are kept: a turn without
    // its index is not called turn 0, a probe whose load is text is left out of the chart.
    nlohmann::json summary = lb::test::summary_json(folder->dir);
    for (auto& e : summary["experiments"]) {
      if (e["kind"] == "sessions") e["lanes"]["bf16"]["sessions"]["per_turn"][0]["turn"] = "one";
      if (e["kind"] == "capacity") e["lanes"]["fp8"]["capacity"]["probes"][0]["load"] = "1";
    }
    lb::report::RunFolder damaged = *folder;
    lb::record::FileFields fields("summary.json");
    damaged.record = lb::record::read_run_summary(summary, fields);
    const auto again = lb::report::performance_tables(damaged);
    const auto* turns = traffic_table(again, "Multi-turn sessions");
    QVERIFY(turns != nullptr && turns->rows.size() == 4);
    QCOMPARE(turns->rows[0][1], std::string("n/a"));
    QCOMPARE(turns->rows[1][1], std::string("2"));
    const auto* probed = traffic_table(again, "SLO capacity probes");
    QVERIFY(probed != nullptr && probed->rows.size() == 6);
    QCOMPARE(probed->rows[3][0], std::string("fp8"));
    QCOMPARE(probed->rows[3][1], std::string("n/a"));
    const auto redrawn = lb::report::report_charts(damaged);
    const auto fp8_curve = std::find_if(redrawn.begin(), redrawn.end(),
                                        [](const auto& c) { return c.id == "capacity_ttft_p99"; });
    QVERIFY(fp8_curve != redrawn.end());
    QCOMPARE(fp8_curve->series[2].points.size(), size_t{2});
    std::filesystem::remove_all(dir);
  }

  // Probes are drawn by load whatever order the search ran them in, each marked met or missed;
  // a probe without the figure (nothing completed) is left out of that figure's curve.
  void capacityChartSortsProbesByLoadAndMarksThem() {
    const nlohmann::json probes = {
        {{"load", 1.0}, {"pass", true}, {"ttft_p99_ms", 40.0}, {"tpot_p99_ms", 5.0}},
        {{"load", 2.0}, {"pass", true}, {"ttft_p99_ms", 60.0}, {"tpot_p99_ms", 6.0}},
        {{"load", 4.0}, {"pass", false}, {"ttft_p99_ms", 220.0}, {"tpot_p99_ms", 9.0}},
        {{"load", 3.0}, {"pass", false}, {"ttft_p99_ms", 150.0}, {"tpot_p99_ms", nullptr}}};
    const nlohmann::json e = {
        {"kind", "capacity"},
        {"slo", {{"ttft_p99_ms", 100.0}, {"tpot_p99_ms", 8.0}}},
        {"lanes", {{"a", {{"capacity", {{"unit", "req/s"}, {"probes", probes}}}}}}}};
    lb::record::FileFields fields("summary.json");
    const auto section = lb::record::read_experiment_section(e, fields);
    const auto charts = lb::report::capacity_charts(section, {"a", "missing"});
    QCOMPARE(charts.size(), size_t{2});
    const auto& ttft = charts[0];
    QCOMPARE(ttft.x_title, std::string("probe load (req/s)"));
    QCOMPARE(ttft.y_title, std::string("TTFT p99 (ms)"));
    QCOMPARE(ttft.series.size(), size_t{2});  // the SLO and lane a
    QCOMPARE(ttft.series[1].points,
             (std::vector<std::pair<double, double>>{{1, 40}, {2, 60}, {3, 150}, {4, 220}}));
    using lb::report::PointMark;
    QCOMPARE(ttft.series[1].marks, (std::vector<PointMark>{PointMark::Pass, PointMark::Pass,
                                                           PointMark::Fail, PointMark::Fail}));
    QCOMPARE(ttft.series[0].points, (std::vector<std::pair<double, double>>{{1, 100}, {4, 100}}));
    const auto& tpot = charts[1];
    QCOMPARE(tpot.id, std::string("capacity_tpot_p99"));
    QCOMPARE(tpot.series[1].points.size(), size_t{3});  // load 3 has no TPOT figure
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportTraffic)
#include "report_traffic_test.moc"
