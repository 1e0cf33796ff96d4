// Launch blocks and sweeps in plan files: what is accepted, every mistake reported at its JSON
// path, secrets kept out of plan.json, and the derived lanes a sweep makes.
#include <QtTest>

#include "test_main.h"

#include "core/plan/plan.h"
#include "core/plan/sweep_expansion.h"

using namespace lb::plan;
using nlohmann::json;

namespace launch_sweep_test {

json launch_lane(const std::string& id) {
  return {{"id", id},
          {"base_url", "http://127.0.0.1:{port}/v1"},
          {"launch",
           {{"command", {"lanebench-sim", "--profile", "fp8-mtp3", "--port", "{port}"}},
            {"env", {{"HF_TOKEN", "hf_plansecret42"}, {"LOG_LEVEL", "debug"}}},
            {"ready", {{"url", "http://127.0.0.1:{port}/health"}, {"timeout_s", 30}}},
            {"stop", {{"signal", "SIGINT"}, {"grace_s", 2}}}}}};
}

json managed_plan(const json& lanes, const json& extra = json::object()) {
  json p = {{"name", "t"},
            {"lanes", lanes},
            {"experiments", {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 4}}}}};
  p.update(extra);
  return p;
}

PlanParseResult parse_json_plan(const json& p) { return parse_plan(p.dump(), "plan.json"); }

// Each error as "PATH: MESSAGE", one per line.
std::string plan_errors(const json& p) {
  std::string out;
  for (const auto& e : parse_json_plan(p).errors) out += e.path + ": " + e.message + "\n";
  return out;
}

bool contains_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace launch_sweep_test

using namespace launch_sweep_test;

class PlanLaunchSweepTest : public QObject {
  Q_OBJECT
 private slots:
  void launchBlockIsRead() {
    const auto r = parse_json_plan(managed_plan(json::array({launch_lane("mtp")})));
    QVERIFY2(r.ok(), r.error_text().c_str());
    const Lane& lane = r.plan->lanes[0];
    QVERIFY(lane.launch.has_value());
    QCOMPARE(lane.launch->command.size(), size_t(5));
    QCOMPARE(lane.launch->ready_timeout_s, 30.0);
    QCOMPARE(lane.launch->stop_signal, std::string("SIGINT"));
    QCOMPARE(lane.launch->stop_grace_s, 2.0);
    QVERIFY(lane.launch->log);
    QVERIFY(r.plan->launches_servers());
    QVERIFY(uses_port_placeholder(*lane.launch, lane.base_url));
    QCOMPARE(with_port(lane.base_url, 8123), std::string("http://127.0.0.1:8123/v1"));
  }
  void commandAsStringIsRefused() {
    json lane = launch_lane("a");
    lane["launch"]["command"] = "vllm serve m --port 8000";
    const std::string e = plan_errors(managed_plan(json::array({lane})));
    QVERIFY2(contains_text(e, "lanes[0].launch.command: must be an argument list"), e.c_str());
    QVERIFY2(contains_text(e, "without a shell"), e.c_str());
  }
  void launchMistakesNamePaths() {
    json lane = launch_lane("a");
    lane["launch"]["command"] = json::array();
    lane["launch"]["ready"]["url"] = "localhost:8000/health";
    lane["launch"]["ready"]["timeout_s"] = 0;
    lane["launch"]["stop"]["signal"] = "SIGSEGV";
    lane["launch"]["env"]["1BAD"] = "x";
    lane["launch"]["shell"] = true;
    const std::string e = plan_errors(managed_plan(json::array({lane})));
    QVERIFY2(contains_text(e, "lanes[0].launch.command: must be a non-empty list"), e.c_str());
    QVERIFY2(contains_text(e, "lanes[0].launch.ready.url: 'localhost:8000/health' must be an http"),
             e.c_str());
    QVERIFY2(contains_text(e, "lanes[0].launch.ready.timeout_s"), e.c_str());
    QVERIFY2(contains_text(e, "lanes[0].launch.stop.signal: 'SIGSEGV'"), e.c_str());
    QVERIFY2(contains_text(e, "lanes[0].launch.env.1BAD"), e.c_str());
    QVERIFY2(contains_text(e, "lanes[0].launch.shell"), e.c_str());
  }
  void readyIsRequired() {
    json lane = launch_lane("a");
    lane["launch"].erase("ready");
    const std::string e = plan_errors(managed_plan(json::array({lane})));
    QVERIFY2(contains_text(e, "lanes[0].launch: missing required key 'ready'"), e.c_str());
  }
  void portPlaceholderNeedsLaunch() {
    const json lane = {{"id", "a"}, {"base_url", "http://127.0.0.1:{port}/v1"}};
    const std::string e = plan_errors(managed_plan(json::array({lane})));
    QVERIFY2(contains_text(e, "lanes[0].base_url: uses {port}"), e.c_str());
    json bad_port = launch_lane("a");
    bad_port["base_url"] = "http://127.0.0.1:{port}9/v1";
    QVERIFY(!parse_json_plan(managed_plan(json::array({bad_port}))).ok());
  }
  void simLaneTakesNoLaunch() {
    json lane = launch_lane("a");
    lane["base_url"] = "sim:fp8";
    QVERIFY(contains_text(plan_errors(managed_plan(json::array({lane}))),
                          "lanes[0].launch: a sim: lane"));
  }
  void secretsStayOutOfResolvedPlan() {
    const auto r = parse_json_plan(managed_plan(json::array({launch_lane("a")})));
    QVERIFY(r.ok());
    const std::string text = resolved_plan_json(*r.plan).dump();
    QVERIFY(!contains_text(text, "hf_plansecret42"));
    QVERIFY(contains_text(text, "\"HF_TOKEN\":\"[redacted]\""));
    QVERIFY(contains_text(text, "\"LOG_LEVEL\":\"debug\""));
    const std::string shown = display_command(*r.plan->lanes[0].launch);
    QVERIFY2(!contains_text(shown, "hf_plansecret42"), shown.c_str());
    QVERIFY2(contains_text(shown, "lanebench-sim --profile fp8-mtp3 --port {port}"), shown.c_str());
    QVERIFY(is_secret_env_name("DB_PASSWORD"));
    QVERIFY(is_secret_env_name("aws_secret"));
    QVERIFY(!is_secret_env_name("KEYRING_PATH"));
  }
  void sweepExpandsIntoDerivedLanes() {
    const json sweep = {
        {"lane", "mtp"}, {"parameter", "max_num_batched_tokens"}, {"values", {2048, 8192, 16384}}};
    json lanes = {{{"id", "base"}, {"base_url", "http://127.0.0.1:8000/v1"}}, launch_lane("mtp")};
    lanes[1]["launch"]["command"].push_back("--max-num-batched-tokens");
    lanes[1]["launch"]["command"].push_back("4096");
    json p = managed_plan(
        lanes, {{"sweep", sweep},
                {"objective",
                 {{"maximize", "output_throughput"}, {"subject_to", {{"p99_ttft_ms", 2000}}}}}});
    p["experiments"][0]["lanes"] = {"base", "mtp"};
    const auto r = parse_json_plan(p);
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.plan->objective.at_most.size(), size_t(1));
    const SweptPlan swept = expand_sweep(*r.plan);
    QCOMPARE(swept.points.size(), size_t(3));
    QCOMPARE(swept.plan.lanes.size(), size_t(4));
    QCOMPARE(swept.plan.lanes[0].id, std::string("base"));
    QCOMPARE(swept.plan.lanes[2].id, std::string("mtp[max_num_batched_tokens=8192]"));
    const auto& cmd = swept.plan.lanes[2].launch->command;
    QCOMPARE(std::count(cmd.begin(), cmd.end(), std::string("--max-num-batched-tokens")), 1L);
    QCOMPARE(cmd[cmd.size() - 2], std::string("--max-num-batched-tokens"));
    QCOMPARE(cmd.back(), std::string("8192"));
    QVERIFY(std::find(cmd.begin(), cmd.end(), "4096") == cmd.end());
    QCOMPARE(swept.plan.experiments[0].lanes,
             (std::vector<std::string>{"base", "mtp[max_num_batched_tokens=2048]",
                                       "mtp[max_num_batched_tokens=8192]",
                                       "mtp[max_num_batched_tokens=16384]"}));
  }
  void booleanAndGridSweeps() {
    const json axes = {
        {{"lane", "mtp"}, {"parameter", "enable_prefix_caching"}, {"values", {true, false}}},
        {{"lane", "mtp"}, {"parameter", "num_speculative_tokens"}, {"values", {1, 3}}}};
    const auto one =
        parse_json_plan(managed_plan(json::array({launch_lane("mtp")}), {{"sweep", axes}}));
    QVERIFY2(one.ok(), one.error_text().c_str());
    QCOMPARE(expand_sweep(*one.plan).points.size(), size_t(4));  // 2 + 2, one at a time
    const auto grid = parse_json_plan(managed_plan(
        json::array({launch_lane("mtp")}), {{"sweep", {{"mode", "grid"}, {"axes", axes}}}}));
    QVERIFY2(grid.ok(), grid.error_text().c_str());
    const SweptPlan g = expand_sweep(*grid.plan);
    QCOMPARE(g.points.size(), size_t(4));  // 2 x 2
    QCOMPARE(g.plan.lanes[1].id,
             std::string("mtp[enable_prefix_caching=true,num_speculative_tokens=3]"));
    const auto& cmd = g.plan.lanes[2].launch->command;
    QVERIFY(std::find(cmd.begin(), cmd.end(), "--no-enable-prefix-caching") != cmd.end());
  }
  void resolvedPlanReadsBack() {
    const json axes = {
        {"mode", "grid"},
        {"axes",
         {{{"lane", "mtp"}, {"parameter", "max_num_seqs"}, {"values", {4, 8}}},
          {{"lane", "mtp"}, {"parameter", "kv_cache_dtype"}, {"values", {"fp8", "auto"}}}}}};
    const auto r = parse_json_plan(managed_plan(
        json::array({launch_lane("mtp")}),
        {{"sweep", axes}, {"objective", {{"minimize", "p99_tpot_ms"}, {"phase", "c1"}}}}));
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto again = parse_json_plan(resolved_plan_json(*r.plan));
    QVERIFY2(again.ok(), again.error_text().c_str());
    QCOMPARE(again.plan->sweep.mode, std::string("grid"));
    QCOMPARE(again.plan->sweep.axes.size(), size_t(2));
    QCOMPARE(again.plan->sweep.axes[1].values, r.plan->sweep.axes[1].values);
    QCOMPARE(again.plan->objective.maximize, false);
    QCOMPARE(again.plan->objective.phase, std::string("c1"));
    QCOMPARE(again.plan->lanes[0].launch->command, r.plan->lanes[0].launch->command);
    QCOMPARE(again.plan->lanes[0].launch->stop_grace_s, 2.0);
  }
  void sweepMistakes() {
    json plain = {{"id", "plain"}, {"base_url", "http://127.0.0.1:8000/v1"}};
    const json axes = {{{"lane", "plain"}, {"parameter", "max_num_seqs"}, {"values", {8}}},
                       {{"lane", "ghost"}, {"parameter", "x"}, {"values", {1}}},
                       {{"lane", "mtp"}, {"parameter", "Max-Seqs"}, {"values", json::array()}},
                       {{"lane", "mtp"}, {"parameter", "max_num_seqs"}, {"values", {1, 1}}}};
    const json p = managed_plan({plain, launch_lane("mtp")},
                                {{"sweep", {{"mode", "diagonal"}, {"axes", axes}}},
                                 {"objective", {{"maximize", "outptu_throughput"}}}});
    const std::string e = plan_errors(p);
    QVERIFY2(contains_text(e, "sweep.mode: must be \"one_at_a_time\" or \"grid\""), e.c_str());
    QVERIFY2(contains_text(e, "sweep.axes[0].lane: 'plain' has no launch block"), e.c_str());
    QVERIFY2(contains_text(e, "sweep.axes[1].lane: names no lane"), e.c_str());
    QVERIFY2(contains_text(e, "sweep.axes[2].parameter"), e.c_str());
    QVERIFY2(contains_text(e, "sweep.axes[2].values: must list at least one value"), e.c_str());
    QVERIFY2(contains_text(e, "sweep.axes[3].values[1]: repeats 1"), e.c_str());
    QVERIFY2(contains_text(e, "objective.maximize: 'outptu_throughput' is not a figure"),
             e.c_str());
    QVERIFY2(contains_text(e, "did you mean 'output_throughput'"), e.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanLaunchSweepTest)
#include "plan_launch_sweep_test.moc"
