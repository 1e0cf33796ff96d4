// summary.json's "sweeps" from a run's experiment sections and server records: the figures of
// every point against its value, the bounds each breaks, and the best point under the objective.
#include <QtTest>

#include "test_main.h"

#include "core/plan/plan.h"
#include "core/plan/sweep_expansion.h"
#include "core/run/experiments/sweeps_section.h"

using nlohmann::json;

namespace sweep_summary_test {

json swept_plan_json(const json& objective) {
  return {{"name", "s"},
          {"lanes",
           {{{"id", "mtp"},
             {"base_url", "http://127.0.0.1:{port}/v1"},
             {"launch",
              {{"command", {"server", "--port", "{port}"}},
               {"ready", {{"url", "http://127.0.0.1:{port}/health"}}}}}}}},
          {"experiments", {{{"kind", "throughput"}, {"concurrency", {1, 8}}, {"requests", 4}}}},
          {"sweep", {{"lane", "mtp"}, {"parameter", "max_num_seqs"}, {"values", {4, 8, 16}}}},
          {"objective", objective}};
}

// A phase summary with the figures the objective reads.
json phase(double tput, double p99_ttft) {
  return {{"output_throughput", tput}, {"p99_ttft_ms", p99_ttft}, {"failed", 0}};
}

// Lanes' c1 and c8 phases (c8 last), and server records; lane 16 never became ready.
json run_summary() {
  json lanes;
  const std::vector<std::tuple<std::string, double, double>> rows = {
      {"mtp[max_num_seqs=4]", 900, 800}, {"mtp[max_num_seqs=8]", 1500, 2500}};
  for (const auto& [lane, tput, ttft] : rows) {
    lanes[lane]["phases"]["c1"] = phase(100, 100);
    lanes[lane]["phases"]["c8"] = phase(tput, ttft);
    lanes[lane]["phase_order"] = {"c1", "c8"};
  }
  return {{"experiments", {{{"name", "throughput"}, {"lanes", lanes}}}},
          {"servers",
           {{"mtp[max_num_seqs=4]", {{"status", "stopped"}}},
            {"mtp[max_num_seqs=8]", {{"status", "stopped"}}},
            {"mtp[max_num_seqs=16]",
             {{"status", "failed"}, {"error", "lane mtp[max_num_seqs=16]: server exited"}}}}}};
}

json sweeps_for(const json& objective) {
  const auto parsed = lb::plan::parse_plan(swept_plan_json(objective).dump(), "p.json");
  if (!parsed.ok()) qFatal("%s", parsed.error_text().c_str());
  return lb::run::sweep_summary_json(lb::plan::expand_sweep(*parsed.plan), run_summary());
}

}  // namespace sweep_summary_test

using namespace sweep_summary_test;

class RunSweepSummaryTest : public QObject {
  Q_OBJECT
 private slots:
  void bestUnderBound() {
    const json sweeps =
        sweeps_for({{"maximize", "output_throughput"}, {"subject_to", {{"p99_ttft_ms", 2000}}}});
    QCOMPARE(sweeps.size(), size_t(1));
    const json& points = sweeps[0]["points"];
    QCOMPARE(points.size(), size_t(3));
    QCOMPARE(points[0]["phase"].get<std::string>(), std::string("c8"));
    QCOMPARE(points[0]["figures"]["output_throughput"].get<double>(), 900.0);
    QVERIFY(points[0]["eligible"].get<bool>());
    QVERIFY(!points[1]["eligible"].get<bool>());  // faster, but TTFT p99 2.5 s > 2 s
    QCOMPARE(points[1]["violates"], json({"p99_ttft_ms"}));
    QVERIFY(!points[2]["eligible"].get<bool>());
    QCOMPARE(points[2]["server_status"].get<std::string>(), std::string("failed"));
    QVERIFY(points[2]["why_not"].get<std::string>().find("server exited") != std::string::npos);
    QCOMPARE(sweeps[0]["best"]["value"].get<int>(), 4);
    QCOMPARE(sweeps[0]["best"]["lane"].get<std::string>(), std::string("mtp[max_num_seqs=4]"));
  }
  void unboundedMaximumAndMinimum() {
    QCOMPARE(sweeps_for({{"maximize", "output_throughput"}})[0]["best"]["value"].get<int>(), 8);
    QCOMPARE(sweeps_for({{"minimize", "p99_ttft_ms"}})[0]["best"]["value"].get<int>(), 4);
    // Another phase: both points tie at c1; the first wins.
    QCOMPARE(sweeps_for({{"maximize", "output_throughput"}, {"phase", "c1"}})[0]["best"]["value"]
                 .get<int>(),
             4);
  }
  void noEligiblePoint() {
    const json best = sweeps_for(
        {{"maximize", "output_throughput"}, {"subject_to", {{"p99_ttft_ms", 10}}}})[0]["best"];
    QVERIFY(best["lane"].is_null());
    QCOMPARE(best["reason"].get<std::string>(), std::string("no point met the objective"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunSweepSummaryTest)
#include "run_sweeps_section_test.moc"
