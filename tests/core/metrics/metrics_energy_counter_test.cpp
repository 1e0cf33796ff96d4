// GPU energy from DCGM's cumulative counter: the named GPUs are read by index or UUID, a phase's
// energy is the change over them, a counter that went down refuses the total, trials pool.
#include <QtTest>

#include "core/metrics/energy_counter.h"
#include "test_main.h"

using namespace lb::metrics;

namespace {

// Two GPUs as dcgm-exporter serves them, plus a gauge that must not be read.
std::string exporter_text(double gpu0_mj, double gpu1_mj) {
  return "# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot (in "
         "mJ).\n# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"
         "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-aaaa\",device=\"nvidia0\","
         "modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node1\"} " +
         std::to_string(int64_t(gpu0_mj)) +
         "\nDCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"1\",UUID=\"GPU-bbbb\",device=\"nvidia1\","
         "modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node1\"} " +
         std::to_string(int64_t(gpu1_mj)) +
         "\n# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 350.0\n";
}

EnergyReading reading(double gpu0_mj, double gpu1_mj, std::vector<std::string> gpus,
                      int64_t at_ns) {
  std::string why;
  EnergyReading r =
      read_dcgm_energy(parse_prometheus_text(exporter_text(gpu0_mj, gpu1_mj)), gpus, why);
  r.taken_ns = at_ns;
  return r;
}

}  // namespace

class TestEnergyCounter : public QObject {
  Q_OBJECT
 private slots:
  void readsTheNamedGpusByIndexOrUuid() {
    std::string why;
    const auto snapshot = parse_prometheus_text(exporter_text(5'000'000, 7'000'000));
    const auto all = read_dcgm_energy(snapshot, {}, why);
    QCOMPARE(all.millijoules_by_gpu.size(), size_t(2));
    const auto one = read_dcgm_energy(snapshot, {"GPU-bbbb"}, why);
    QCOMPARE(one.millijoules_by_gpu.size(), size_t(1));
    QCOMPARE(one.millijoules_by_gpu.at("GPU-bbbb"), 7'000'000.0);
    QVERIFY(why.empty());
    const auto missing = read_dcgm_energy(snapshot, {"0", "3"}, why);
    QVERIFY(missing.millijoules_by_gpu.empty());
    QVERIFY2(why.find("\"3\"") != std::string::npos, why.c_str());
    why.clear();
    const auto none =
        read_dcgm_energy(parse_prometheus_text("vllm:num_requests_running 1\n"), {}, why);
    QVERIFY(none.millijoules_by_gpu.empty());
    QVERIFY(why.find("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION") != std::string::npos);
  }

  void aPhasesEnergyIsTheChangeOverItsGpus() {
    // 2 s, 300 J + 500 J over 400 output tokens.
    const auto e = energy_between(reading(5'000'000, 7'000'000, {}, 1'000'000'000),
                                  reading(5'300'000, 7'500'000, {}, 3'000'000'000), 400);
    QVERIFY(e.measured());
    QCOMPARE(e.joules, 800.0);
    QCOMPARE(e.window_s, 2.0);
    const auto j = to_json(e);
    QCOMPARE(j["joules_per_output_token"].get<double>(), 2.0);
    QCOMPARE(j["output_tokens_per_joule"].get<double>(), 0.5);
    QCOMPARE(j["mean_watts"].get<double>(), 400.0);
    QCOMPARE(j["gpus"], nlohmann::json({"GPU-aaaa", "GPU-bbbb"}));
    QCOMPARE(j["window_from"], "the readings");
    QCOMPARE(j["provenance"], "server");
  }

  void aCounterThatWentDownRefusesTheTotal() {
    // GPU 1 was reset between the readings: a total across it would be meaningless.
    const auto e = energy_between(reading(5'000'000, 7'000'000, {}, 0),
                                  reading(5'300'000, 20'000, {}, 1'000'000'000), 100);
    QVERIFY(!e.measured());
    QVERIFY2(e.refused.find("GPU \"GPU-bbbb\"") != std::string::npos, e.refused.c_str());
    QVERIFY(e.refused.find("reset") != std::string::npos);
    const auto j = to_json(e);
    QVERIFY(j.contains("refused"));
    QVERIFY(!j.contains("joules"));
    // Not over GPU 0 alone either: the named set is what counts.
    const auto only0 = energy_between(reading(5'000'000, 7'000'000, {"0"}, 0),
                                      reading(5'300'000, 20'000, {"0"}, 1'000'000'000), 100);
    QVERIFY(only0.measured());
    QCOMPARE(only0.joules, 300.0);
  }

  // A Prometheus server's /federate: every node has a gpu="0", told apart by host, and the
  // samples carry the time they were scraped, which is the window then.
  void federatedSamplesAreKeyedByHostAndTimedByTheirTimestamps() {
    const auto text = [](double a_mj, double b_mj, int64_t at_ms) {
      const std::string ts = " " + std::to_string(at_ms) + "\n";
      return "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",Hostname=\"node-a\"} " +
             std::to_string(int64_t(a_mj)) + ts +
             "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",Hostname=\"node-b\"} " +
             std::to_string(int64_t(b_mj)) + ts;
    };
    std::string why;
    auto before =
        read_dcgm_energy(parse_prometheus_text(text(1'000'000, 5'000'000, 1'000)), {}, why);
    auto after =
        read_dcgm_energy(parse_prometheus_text(text(1'400'000, 5'600'000, 31'000)), {}, why);
    QCOMPARE(before.millijoules_by_gpu.size(), size_t(2));
    QVERIFY(before.millijoules_by_gpu.count("node-b:0"));
    before.taken_ns = 0;
    after.taken_ns = 40'000'000'000;  // read 40 s apart, sampled 30 s apart
    const auto e = energy_between(before, after, 100);
    QVERIFY2(e.measured(), e.refused.c_str());
    QCOMPARE(e.joules, 1000.0);
    QCOMPARE(e.window_s, 30.0);
    QCOMPARE(e.window_from, std::string("the samples' timestamps"));
    // Not scraped again in between: no window at all.
    const auto stale = energy_between(before, before, 100);
    QVERIFY(stale.refused.find("not refreshed") != std::string::npos);
  }

  // An exporter that had not collected again serves the same value: no energy, not zero energy.
  void aCounterThatDidNotMoveIsNotZeroEnergy() {
    const auto e = energy_between(reading(5'000'000, 7'000'000, {}, 0),
                                  reading(5'000'000, 7'000'000, {}, 2'000'000'000), 400);
    QVERIFY(!e.measured());
    QVERIFY2(e.refused.find("did not move") != std::string::npos, e.refused.c_str());
  }

  void trialsPoolTheirJoulesWindowsAndTokens() {
    PhaseEnergy a, b;
    a.source = b.source = "the lane's /metrics";
    a.joules = 10, a.window_s = 1, a.output_tokens = 100;
    b.joules = 30, b.window_s = 3, b.output_tokens = 100;
    const auto pooled = pooled_energy({a, b});
    QVERIFY(pooled.measured());
    QCOMPARE(pooled.joules, 40.0);
    QCOMPARE(to_json(pooled)["joules_per_output_token"].get<double>(), 0.2);
    b.refused = "the counter went down";
    QVERIFY(!pooled_energy({a, b}).measured());
    PhaseEnergy none;
    none.unsupported = "no energy source";
    QCOMPARE(to_json(none)["unsupported"], "no energy source");
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestEnergyCounter)
#include "metrics_energy_counter_test.moc"
