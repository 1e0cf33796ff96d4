// GPU energy and cost per phase on simulator lanes, read from the DCGM counter the simulator
// models: measured over the measured requests only, with intervals over trials and compared
// between lanes; "unsupported" for a lane without a counter; refused across a counter reset.
#include <QtTest>

#include <atomic>

#include "core/record/run_summary.h"
#include "core/report/report_model.h"
#include "replay_server.h"
#include "test_main.h"

#include "sim_plan_run.h"

namespace {

nlohmann::json energy_plan(nlohmann::json lanes, int trials) {
  return {{"name", "energy"},
          {"lanes", std::move(lanes)},
          {"experiments",
           {{{"kind", "throughput"},
             {"name", "energy"},
             {"concurrency", {2}},
             {"requests", 6},
             {"warmups", 2},
             {"trials", trials},
             {"input_tokens", 128},
             {"output_tokens", 24}}}}};
}

}  // namespace

class TestEnergy : public QObject {
  Q_OBJECT
 private slots:
  void simLanesReportEnergyAndCostWithIntervalsOverTrials() {
    const nlohmann::json lanes = {
        {{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}, {"cost_per_hour", 2.0}},
        {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}, {"cost_per_hour", 2.0}},
        {{"id", "dark"}, {"base_url", "sim:fp8?time_scale=0.01&energy_counter=0"}}};
    const auto run = lb::test::run_sim_plan(energy_plan(lanes, 3), "lb-run-energy");
    QCOMPARE(run.result.exit_code, 0);
    const auto e = run.experiment("energy");
    for (const char* lane : {"bf16", "fp8"}) {
      const auto phase = e["lanes"][lane]["phases"]["c2"];
      const auto energy = phase["energy"];
      qInfo("%s: %s", lane, energy.dump().c_str());
      QCOMPARE(energy["source"], "the lane's /metrics");
      QVERIFY(energy["joules"].get<double>() > 0);
      // The simulator's board power lies between its idle 90 W and busy 700 W.
      const double watts = energy["mean_watts"].get<double>();
      QVERIFY2(watts > 90 && watts <= 700, std::to_string(watts).c_str());
      // The window holds the measured requests and not the warm-ups: about the phase's span.
      const double window_s = energy["window_s"].get<double>();
      const double duration_s = phase["duration"].get<double>();
      QVERIFY2(window_s >= 0.9 * duration_s && window_s < duration_s + 1.0,
               (std::to_string(window_s) + " s against " + std::to_string(duration_s)).c_str());
      for (const char* key : {"joules_per_output_token", "usd_per_million_output_tokens"}) {
        const auto interval = phase["intervals"][key];
        QVERIFY2(interval.is_object(), key);
        QCOMPARE(interval["n"], 3);
        QCOMPARE(interval["basis"], "trials");
        QVERIFY(interval["lo"].get<double>() <= interval["hi"].get<double>());
        QVERIFY(phase["trials"][0][key].get<double>() > 0);
      }
    }
    // FP8 decodes faster at less power with two sequences in flight: less energy per token.
    bool compared = false;
    for (const auto& c : e["comparisons"]) {
      if (c["figure"] != "joules_per_output_token" || c["candidate"] != "fp8") continue;
      compared = true;
      QVERIFY2(c["ratio"].get<double>() < 1, c["statement"].get<std::string>().c_str());
      QVERIFY2(c["statement"].get<std::string>().find("less energy") != std::string::npos,
               c["statement"].get<std::string>().c_str());
    }
    QVERIFY(compared);
    const auto dark = e["lanes"]["dark"]["phases"]["c2"];
    QVERIFY(dark["energy"]["unsupported"].get<std::string>().find(
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION") != std::string::npos);
    QVERIFY(!dark["intervals"].contains("joules_per_output_token"));

    lb::record::FileFields fields("summary.json");
    const lb::record::ExperimentSection section = lb::record::read_experiment_section(e, fields);
    const auto table = lb::report::energy_cost_table(section, {"bf16", "fp8", "dark"});
    QCOMPARE(table.rows.size(), size_t(3));
    QCOMPARE(table.rows[1][0], "fp8");
    QVERIFY2(table.rows[1][3].find(" [") != std::string::npos, table.rows[1][3].c_str());
    QVERIFY(table.rows[2][2].rfind("unsupported", 0) == 0);
    QCOMPARE(table.rows[2][7], "no cost_per_hour");
    bool worded = false;
    for (const auto& row : lb::report::lane_comparisons_table(section).rows)
      if (row[2] == "J/output token") worded = row[4].rfind("less energy", 0) == 0;
    QVERIFY(worded);
  }

  // A named endpoint whose counter goes down between the readings (a GPU reset): no total.
  void aCounterResetRefusesThePhasesEnergy() {
    std::atomic<int> scrapes{0};
    lb::test::ReplayServer exporter([&](const lb::test::ServedRequest&) {
      const int n = scrapes.fetch_add(1);
      lb::test::ResponseScript s;
      s.headers = {{"Content-Type", "text/plain; version=0.0.4"}};
      s.framing = lb::test::BodyFraming::ContentLength;
      s.pieces = {
          {"# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"
           "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-x\"} " +
               std::string(n == 0 ? "90000000" : "1200") + "\n",
           0}};
      return s;
    });
    const nlohmann::json lanes = {
        {{"id", "lane"},
         {"base_url", "sim:fp8?time_scale=0.01&energy_counter=0"},
         {"energy", {{"metrics_url", exporter.url("/metrics")}, {"gpus", {"GPU-x"}}}}}};
    const auto run = lb::test::run_sim_plan(energy_plan(lanes, 1), "lb-run-energy-reset");
    QCOMPARE(run.result.exit_code, 0);
    const auto energy = run.experiment("energy")["lanes"]["lane"]["phases"]["c2"]["energy"];
    qInfo("%s", energy.dump().c_str());
    QCOMPARE(scrapes.load(), 2);
    QCOMPARE(energy["source"], exporter.url("/metrics"));
    QVERIFY(energy["refused"].get<std::string>().find("went down") != std::string::npos);
    QVERIFY(!energy.contains("joules"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestEnergy)
#include "run_energy_test.moc"
