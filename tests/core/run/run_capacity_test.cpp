// SLO capacity: the search on its own (doubling, then bisection to the resolution), and end to
// end on simulator lanes over HTTP, where FP8 (5 sequences at once, faster decode) holds a TTFT
// SLO at a higher concurrency than BF16 (2 sequences), and the probe and time bounds hold.
#include <QtTest>

#include "test_main.h"

#include "core/run/experiments/capacity_experiment.h"
#include "core/run/experiments/capacity_search.h"
#include "sim_plan_run.h"

namespace {

// Every load up to `capacity` passes.
std::vector<double> probed_loads(lb::run::CapacitySearch& search, double capacity) {
  std::vector<double> loads;
  while (auto load = search.next()) {
    lb::run::CapacityProbe probe;
    probe.load = *load;
    probe.pass = *load <= capacity;
    search.record(probe);
    loads.push_back(*load);
    if (loads.size() > 100) break;
  }
  return loads;
}

nlohmann::json capacity_plan(nlohmann::json experiment) {
  nlohmann::json e = {{"kind", "capacity"}, {"slo", {{"ttft_p99_ms", 150}}}, {"requests", 20},
                      {"warmups", 2},       {"input_tokens", 512},           {"output_tokens", 16},
                      {"max_probes", 10},   {"max_duration_s", 60}};
  if (experiment.is_object()) e.update(experiment);
  return {{"name", "capacity"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.1"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}}}},
          {"experiments", {e}}};
}

void print_probes(const nlohmann::json& lane, const char* id) {
  for (const auto& p : lane["capacity"]["probes"])
    qInfo("%s probe load %g: ttft p99 %s ms, tpot p99 %s ms, %s (%s)", id, double(p["load"]),
          p["ttft_p99_ms"].dump().c_str(), p["tpot_p99_ms"].dump().c_str(),
          p["pass"].get<bool>() ? "pass" : "fail", p["binding"].dump().c_str());
}

}  // namespace

class TestCapacityExperiment : public QObject {
  Q_OBJECT
 private slots:
  void searchDoublesThenBisectsToTheResolution() {
    lb::run::CapacitySearch by_concurrency(1, 1024, 1, true);
    QCOMPARE(probed_loads(by_concurrency, 13), (std::vector<double>{1, 2, 4, 8, 16, 12, 14, 13}));
    QCOMPARE(by_concurrency.capacity().value(), 13.0);
    QCOMPARE(by_concurrency.limiting_probe()->load, 14.0);

    lb::run::CapacitySearch by_rate(1, 1000, 0.5, false);
    QCOMPARE(probed_loads(by_rate, 3.3), (std::vector<double>{1, 2, 4, 3, 3.5}));
    QCOMPARE(by_rate.capacity().value(), 3.0);

    lb::run::CapacitySearch capped(1, 6, 1, true);
    QCOMPARE(probed_loads(capped, 100), (std::vector<double>{1, 2, 4, 6}));
    QVERIFY(capped.reached_max());

    lb::run::CapacitySearch none(1, 64, 1, true);
    QCOMPARE(probed_loads(none, 0), (std::vector<double>{1}));
    QVERIFY(!none.capacity());
  }

  void probeVerdictNamesTheBindingSlo() {
    lb::run::CapacityProbe p;
    p.completed = 10;
    p.ttft_p99_ms = 90;
    p.tpot_p99_ms = 30;
    lb::run::judge_probe(p, 100, 20);
    QVERIFY(!p.pass);
    QCOMPARE(p.binding, std::string("tpot_p99_ms"));
    p.ttft_p99_ms = 500;  // 5x over beats 1.5x over
    lb::run::judge_probe(p, 100, 20);
    QCOMPARE(p.binding, std::string("ttft_p99_ms"));
    p.ttft_p99_ms = 50;
    p.tpot_p99_ms = 10;
    lb::run::judge_probe(p, 100, 20);
    QVERIFY(p.pass);
    p.errors = 1;
    lb::run::judge_probe(p, 100, 20);
    QCOMPARE(p.binding, std::string("errors"));
  }

  void fp8HoldsTheSloAtAHigherConcurrencyThanBf16() {
    const auto run = lb::test::run_sim_plan(capacity_plan({}), "lb-exp-capacity");
    QCOMPARE(run.result.exit_code, 0);
    const auto e = run.experiment("capacity");
    print_probes(e["lanes"]["bf16"], "bf16");
    print_probes(e["lanes"]["fp8"], "fp8");
    const auto bf16 = e["lanes"]["bf16"]["capacity"];
    const auto fp8 = e["lanes"]["fp8"]["capacity"];
    QVERIFY2(!bf16["capacity"].is_null() && !fp8["capacity"].is_null(), e.dump().c_str());
    QVERIFY2(double(fp8["capacity"]) > double(bf16["capacity"]), e.dump().c_str());
    for (const auto& lane : {bf16, fp8}) {
      QCOMPARE(lane["stopped_by"], "resolution");
      QCOMPARE(lane["binding_slo"], "ttft_p99_ms");
      QVERIFY(double(lane["goodput_req_s"]) > 0);
      QCOMPARE(double(lane["failing_load"]), double(lane["capacity"]) + 1);
      // Every probe is recorded with its figures, and its verdict agrees with them.
      for (const auto& p : lane["probes"]) {
        QCOMPARE(p["pass"].get<bool>(), double(p["ttft_p99_ms"]) <= 150 && p["errors"] == 0);
        QVERIFY(double(p["load"]) <= double(lane["capacity"]) || !p["pass"].get<bool>());
      }
    }
    // Each probe is a phase of its own with the usual figures, warm-ups excluded.
    const auto phases = e["lanes"]["fp8"]["phases"];
    QVERIFY(phases.contains("c1") && phases.contains("c2"));
    QCOMPARE(phases["c1"]["warmups_excluded"], 2);
    QCOMPARE(phases["c1"]["completed"], 20);
  }

  void searchKeepsToItsProbeAndTimeBounds() {
    auto run = lb::test::run_sim_plan(capacity_plan({{"max_probes", 2}}), "lb-exp-capacity-probes");
    QCOMPARE(run.result.exit_code, 0);
    for (const char* lane : {"bf16", "fp8"}) {
      const auto c = run.experiment("capacity")["lanes"][lane]["capacity"];
      QCOMPARE(c["probe_count"], 2);
      QCOMPARE(c["stopped_by"], "max_probes");
    }
    run = lb::test::run_sim_plan(
        capacity_plan({{"max_duration_s", 0.3}, {"requests", 200}, {"load", "rate"}}),
        "lb-exp-capacity-time");
    QCOMPARE(run.result.exit_code, 0);
    for (const char* lane : {"bf16", "fp8"}) {
      const auto c = run.experiment("capacity")["lanes"][lane]["capacity"];
      QVERIFY2(c["stopped_by"] == "max_duration_s", run.experiment("capacity").dump().c_str());
      // The measured part of a probe stops sending at the bound; what is in flight finishes.
      QVERIFY2(double(c["search_duration_s"]) < 0.3 + 1.0, c.dump().c_str());
    }
  }

  // The time bound spans a probe's warm-ups and its measured requests: warm-ups that take the
  // whole bound leave no time to measure, rather than the measured part getting the bound again.
  void timeBoundCountsTheWarmups() {
    constexpr double kBoundS = 1.0;
    const auto run = lb::test::run_sim_plan(
        capacity_plan({{"max_duration_s", kBoundS}, {"warmups", 40}, {"requests", 200}}),
        "lb-exp-capacity-warmups");
    QCOMPARE(run.result.exit_code, 0);
    for (const char* lane : {"bf16", "fp8"}) {
      const auto c = run.experiment("capacity")["lanes"][lane]["capacity"];
      QVERIFY2(c["stopped_by"] == "max_duration_s", c.dump().c_str());
      QVERIFY2(double(c["search_duration_s"]) < kBoundS + 0.5, c.dump().c_str());
      // Every request of the lane, warm-up or measured, was handed to the client within the
      // bound of the first: the driver's own decision times (t_sched_ns), which machine load
      // cannot move past the bound, unlike the moment the I/O thread got to send.
      int64_t first_ns = INT64_MAX, last_ns = 0;
      for (const auto& r : run.requests) {
        if (r.value("lane", "") != lane || !r["t_sched_ns"].is_number()) continue;
        first_ns = std::min(first_ns, r["t_sched_ns"].get<int64_t>());
        last_ns = std::max(last_ns, r["t_sched_ns"].get<int64_t>());
      }
      QVERIFY(last_ns > first_ns);
      QVERIFY2(static_cast<double>(last_ns - first_ns) / 1e9 <= kBoundS,
               qPrintable(
                   QString("%1: hand-overs span %2 s").arg(lane).arg((last_ns - first_ns) / 1e9)));
    }
  }

  void planKeysAreChecked() {
    auto errors = [](const nlohmann::json& experiment) {
      nlohmann::json plan = {{"name", "p"},
                             {"lanes", {{{"id", "a"}, {"base_url", "sim:fp8"}}}},
                             {"experiments", {experiment}}};
      return lb::plan::parse_plan(plan.dump(), "p.json").error_text();
    };
    QVERIFY(errors({{"kind", "capacity"}, {"slo", {{"tpot_p99_ms", 50}}}}).empty());
    QVERIFY(errors({{"kind", "capacity"}}).find("experiments[0]: missing required key 'slo'") !=
            std::string::npos);
    QVERIFY(errors({{"kind", "capacity"}, {"slo", nlohmann::json::object()}})
                .find("experiments[0].slo: must set ttft_p99_ms") != std::string::npos);
    QVERIFY(errors({{"kind", "capacity"}, {"slo", {{"ttft_p99_ms", 1}}}, {"load", "qps"}})
                .find("experiments[0].load: must be 'concurrency'") != std::string::npos);
    QVERIFY(errors({{"kind", "capacity"}, {"slo", {{"ttft_p99_ms", 1}}}, {"start", 1.5}})
                .find("experiments[0].start: must be a whole number") != std::string::npos);
    QVERIFY(
        errors(
            {{"kind", "capacity"}, {"slo", {{"ttft_p99_ms", 1}}}, {"load", "rate"}, {"start", 1.5}})
            .empty());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestCapacityExperiment)
#include "run_capacity_test.moc"
