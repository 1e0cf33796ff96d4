// Throughput sweeps on simulator lanes: doubling concurrency stops once aggregate tok/s flattens
// (a lane admitting two sequences gains nothing from 2 to 4 once no fixed API latency overlaps
// the queue), records why and marks the knee;
// failed requests stop it too; every lane reports its KV capacity from the cache config.
#include <QtTest>

#include "test_main.h"

#include "sim_plan_run.h"

namespace {

nlohmann::json doubling_plan(const std::string& base_url) {
  return {{"name", "doubling"},
          {"lanes", {{{"id", "lane"}, {"base_url", base_url}}}},
          {"experiments",
           // Two sequences decode at once: c2 gains 0.43-0.51 over c1, c4 only 0.04-0.11 over c2
           // (measured under ASan), so a 0.2 bound stops at c4 with room on both sides.
           {{{"kind", "throughput"},
             {"concurrency_doubling", {{"start", 1}, {"max", 64}, {"min_gain", 0.2}}},
             {"requests", 6},
             {"warmups", 0},
             {"input_tokens", 256},
             {"output_tokens", 24}}}}};
}

}  // namespace

class TestThroughputExperiment : public QObject {
  Q_OBJECT
 private slots:
  void doublingStopsWhereThroughputFlattens() {
    const auto run = lb::test::run_sim_plan(
        doubling_plan("sim:fp8?time_scale=0.1&max_num_seqs=2&api_latency_s=0"), "lb-exp-doubling");
    QCOMPARE(run.result.exit_code, 0);
    const auto lane = run.experiment("throughput")["lanes"]["lane"];
    const auto sweep = lane["concurrency_sweep"];
    QCOMPARE(sweep["mode"], "doubling");
    for (const auto& l : sweep["levels"])
      qInfo("c%d: %.1f tok/s (gain %s), decode median %.1f tok/s, E2EL p99 %.0f ms",
            int(l["concurrency"]), double(l["output_tok_s"]), l["output_tok_s_gain"].dump().c_str(),
            double(l["decode_tok_s_median"]), double(l["e2el_p99_ms"]));
    QCOMPARE(sweep["stopped"]["reason"], "gain_below_min");
    QCOMPARE(sweep["stopped"]["at_concurrency"], 4);
    QCOMPARE(sweep["levels"].size(), size_t(3));
    QVERIFY(double(sweep["levels"][1]["output_tok_s_gain"]) > 0.3);  // two sequences decode at once
    QCOMPARE(sweep["knee"]["concurrency"], 2);
    QCOMPARE(sweep["knee"]["reached"], true);
    for (const auto& l : sweep["levels"]) {
      QCOMPARE(l["completed"], 6);
      for (const char* key :
           {"decode_tok_s_median", "ttft_p50_ms", "ttft_p99_ms", "e2el_p50_ms", "e2el_p99_ms"})
        QVERIFY2(double(l[key]) > 0, key);
    }
    // The levels are ordinary phases as well, so reports and charts see them.
    QCOMPARE(lane["phase_order"], nlohmann::json({"c1", "c2", "c4"}));
    // 1,825,809 tokens of KV cache = 6.96 native 262,144-token windows.
    const auto kv = lane["kv_capacity"];
    QCOMPARE(kv["provenance"], "server");
    QVERIFY(std::abs(double(kv["tokens"]) - 1825809.0) < 16.0);
    QVERIFY(std::abs(double(kv["full_context_windows"]) - 6.96) < 0.01);
  }

  // The plan's steady_state_fraction sets each closed-loop level's threshold, and is recorded.
  void theSteadyStateShareIsThePlans() {
    const nlohmann::json plan = {
        {"name", "steady share"},
        {"lanes", {{{"id", "lane"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
        {"experiments",
         {{{"kind", "throughput"},
           {"concurrency", {4}},
           {"requests", 12},
           {"warmups", 0},
           {"input_tokens", 128},
           {"output_tokens", 16},
           {"steady_state_fraction", 0.5}}}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-throughput-steady-share");
    const auto steady =
        run.experiment("throughput")["lanes"]["lane"]["phases"]["c4"]["steady_state"];
    QCOMPARE(steady["fraction"], 0.5);
    QCOMPARE(steady["threshold"], 2);
    QCOMPARE(steady["found"], true);
  }

  // An open-loop level's window is what the plan's trim leaves: here the sends from the sixth
  // to the sixth from last.
  void anOpenLoopLevelIsTrimmedAsThePlanSays() {
    const nlohmann::json plan = {
        {"name", "trimmed"},
        {"lanes", {{{"id", "lane"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
        {"experiments",
         {{{"kind", "throughput"},
           {"request_rate", 40},
           {"requests", 30},
           {"warmups", 0},
           {"input_tokens", 128},
           {"output_tokens", 16},
           {"trim", {{"warmup_requests", 5}, {"cooldown_requests", 5}}}}}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-throughput-trimmed");
    const auto phases = run.experiment("throughput")["lanes"]["lane"]["phases"];
    QCOMPARE(phases.size(), size_t(1));
    const auto steady = phases.begin().value()["steady_state"];
    QCOMPARE(steady["rule"], "trimmed");
    QCOMPARE(steady["found"], true);
    QCOMPARE(steady["requests_started"], 20);
    QCOMPARE(steady["trim"]["cooldown_requests"], 5);
  }

  // A lane's cost_per_hour gives each of its phases a cost per million output tokens at the
  // phase's output throughput; a lane without one gets no cost.
  void aLanesHourlyCostGivesACostPerMillionTokens() {
    const nlohmann::json plan = {
        {"name", "cost"},
        {"lanes",
         {{{"id", "paid"}, {"base_url", "sim:fp8?time_scale=0.01"}, {"cost_per_hour", 3.6}},
          {{"id", "free"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
        {"experiments",
         {{{"kind", "throughput"},
           {"concurrency", {2}},
           {"requests", 6},
           {"warmups", 0},
           {"input_tokens", 128},
           {"output_tokens", 16}}}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-throughput-cost");
    const auto lanes = run.experiment("throughput")["lanes"];
    const auto paid = lanes["paid"]["phases"]["c2"];
    const double tok_s = paid["output_throughput"].get<double>();
    QVERIFY(tok_s > 0);
    QCOMPARE(paid["cost"]["usd_per_hour"], 3.6);
    QVERIFY(std::abs(paid["cost"]["usd_per_million_output_tokens"].get<double>() -
                     3.6 / 3600 / tok_s * 1e6) < 1e-9);
    QVERIFY(!lanes["free"]["phases"]["c2"].contains("cost"));
  }

  void failedRequestsStopTheDoubling() {
    const auto run = lb::test::run_sim_plan(doubling_plan("sim:fp8?time_scale=0.02&error_rate=1"),
                                            "lb-exp-doubling-errors");
    const auto sweep = run.experiment("throughput")["lanes"]["lane"]["concurrency_sweep"];
    QCOMPARE(sweep["stopped"]["reason"], "errors");
    QCOMPARE(sweep["stopped"]["at_concurrency"], 1);
    QCOMPARE(sweep["levels"].size(), size_t(1));
    QVERIFY(sweep["knee"].is_null());
    QVERIFY(!sweep["stopped"]["detail"].get<std::string>().empty());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestThroughputExperiment)
#include "run_throughput_test.moc"
