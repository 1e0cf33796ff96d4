// Trace replay on simulator lanes: every request of the trace is sent at the trace's own offset
// (divided by speedup) on each lane in turn, asks for the trace's output length, and requests
// that share Mooncake hash ids share prompt text, so the simulator's prefix cache reports cached
// tokens; the summary says how late the client sent and whether it kept up.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "test_main.h"

#include <algorithm>
#include <map>

#include "core/plan/trace_file.h"
#include "core/run/drive/trace_requests.h"
#include "core/run/experiments/trace_experiment.h"
#include "sim_plan_run.h"
#include "test_paths.h"
#include "timing_slack.h"

namespace {

using lb::test::slack_ms;

constexpr double kSpeedup = 2.0;

nlohmann::json trace_plan(const std::string& trace) {
  return {{"name", "replay"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.05"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.05"}}}},
          {"experiments",
           {{{"kind", "trace"},
             {"path", lb::test::fixture_path("traces/" + trace)},
             {"speedup", kSpeedup}}}}};
}

lb::plan::Trace fixture_trace(const std::string& name) {
  auto read = lb::plan::read_trace_file(lb::test::fixture_path("traces/" + name), {});
  if (!read.ok()) qFatal("%s", read.error_text().c_str());
  return std::move(*read.trace);
}

// The measured requests of one lane, in trace order.
std::vector<nlohmann::json> lane_requests(const lb::test::SimRun& run, const std::string& lane) {
  std::vector<nlohmann::json> out;
  for (const auto& r : run.requests)
    if (r["lane"] == lane && r["experiment"] == "trace") out.push_back(r);
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a["index"] < b["index"]; });
  return out;
}

}  // namespace

class TestTraceExperiment : public QObject {
  Q_OBJECT
 private slots:
  void sharedHashIdsShareBlocksOfPromptText() {
    lb::plan::TraceRequest a{0, 1100, 8, {7, 8, 9}, 1};
    lb::plan::TraceRequest b{0, 1300, 8, {7, 8, 3}, 2};
    lb::plan::TraceRequest c{0, 600, 8, {}, 3};
    const std::string pa = lb::run::trace_prompt(a, 0, 42);
    const std::string pb = lb::run::trace_prompt(b, 1, 42);
    const std::string pc = lb::run::trace_prompt(c, 2, 42);
    QCOMPARE(pa.size(), size_t(1100 * 4));  // 4 characters per token
    QCOMPARE(pb.size(), size_t(1300 * 4));
    QCOMPARE(pc.size(), size_t(600 * 4));
    const size_t block_chars = 512 * 4;
    const auto common = static_cast<size_t>(
        std::mismatch(pa.begin(), pa.end(), pb.begin(), pb.end()).first - pa.begin());
    QVERIFY2(common >= 2 * block_chars && common < 2 * block_chars + 16,
             std::to_string(common).c_str());  // blocks 7 and 8, then the third differs
    QVERIFY(pa.compare(0, 64, pc, 0, 64) != 0);
    // Deterministic: the same request gives the same text.
    QCOMPARE(lb::run::trace_prompt(a, 0, 42), pa);
    // Without hash ids, requests are text of their own.
    const std::string pc2 = lb::run::trace_prompt(c, 3, 42);
    QVERIFY(pc.compare(0, 32, pc2, 0, 32) != 0);
    const auto schedule = lb::run::trace_schedule_ns(fixture_trace("mooncake.jsonl"), 4.0);
    QCOMPARE(schedule.back(), int64_t(210'000'000));  // 840 ms of trace at 4x
  }

  void keptUpAllowsOnePercentLate() {
    auto outcome_with_late = [](int late) {
      lb::run::PhaseOutcome o;
      for (int i = 0; i < 100; ++i) {
        lb::metrics::RequestRecord r;
        r.t_sched_ns = 1'000'000'000 + i * 1'000'000;
        r.result.t_sent_ns = r.t_sched_ns + (i < late ? 25'000'000 : 1'000'000);
        o.records.push_back(std::move(r));
      }
      return o;
    };
    const auto one = lb::run::schedule_adherence(outcome_with_late(1), 100);
    QCOMPARE(one.kept_up, std::optional<bool>(true));
    QCOMPARE(one.late_share, 0.01);
    QCOMPARE(one.lateness_p50_ms, 1.0);
    QCOMPARE(one.lateness_max_ms, 25.0);
    const auto two = lb::run::schedule_adherence(outcome_with_late(2), 100);
    QCOMPARE(two.kept_up, std::optional<bool>(false));
    QCOMPARE(two.late_share, 0.02);
    auto stopped = outcome_with_late(0);
    stopped.interrupted = true;
    QCOMPARE(lb::run::schedule_adherence(stopped, 150).kept_up, std::optional<bool>(false));
    // Nothing sent: no lateness to report, and not kept up; written as the file has it.
    const nlohmann::json none = lb::record::to_json(lb::run::schedule_adherence({}, 5));
    QCOMPARE(none["sent"], 0);
    QCOMPARE(none["scheduled"], 5);
    QVERIFY(none["lateness_p99_ms"].is_null());
    QCOMPARE(none["kept_up"], false);
    QCOMPARE(none["late_threshold_ms"], 10.0);
    // What the engine writes reads back into the same record.
    const auto written = lb::run::schedule_adherence(outcome_with_late(1), 100);
    const auto back = lb::record::read_trace_schedule(lb::record::to_json(written));
    QVERIFY(back.has_value());
    QCOMPARE(back->sent, 100.0);
    QCOMPARE(back->lateness_p99_ms, written.lateness_p99_ms);
    QCOMPARE(back->kept_up_rule, written.kept_up_rule);
    QCOMPARE(lb::record::to_json(*back), lb::record::to_json(written));
  }

  void replaysEachLaneOnTheTraceOffsets() {
    const lb::plan::Trace trace = fixture_trace("mooncake.jsonl");
    const auto run = lb::test::run_sim_plan(trace_plan("mooncake.jsonl"), "lb-exp-trace");
    QCOMPARE(run.result.exit_code, 0);
    const auto section = run.experiment("trace");
    QCOMPARE(section["status"], "done");
    QCOMPARE(section["trace"]["format"], "mooncake");
    QCOMPARE(section["trace"]["requests"], 30);
    QCOMPARE(section["trace"]["skipped_rows"], 0);
    QCOMPARE(double(section["trace"]["replay_span_s"]), 0.42);
    for (const std::string lane : {"bf16", "fp8"}) {
      const auto requests = lane_requests(run, lane);
      QCOMPARE(requests.size(), trace.requests.size());
      const int64_t t0 = requests[0]["t_sched_ns"];
      for (size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        QVERIFY2(r["ok"] == true, r.dump().c_str());
        // Scheduled exactly at the trace's offset over speedup (how close the sends came is the
        // schedule's lateness below: a bound on one request's delay is the machine's, not ours).
        QCOMPARE(int64_t(r["t_sched_ns"]) - t0,
                 int64_t(double(trace.requests[i].offset_ns) / kSpeedup));
        QVERIFY(double(r["queue_delay_ms"]) >= 0);
        // Each request asks for its own output length (ignore_eos on the simulator).
        QCOMPARE(int64_t(r["output_tokens"]), trace.requests[i].output_tokens);
      }
      const auto schedule = section["lanes"][lane]["schedule"];
      qInfo("%s schedule: %s", lane.c_str(), schedule.dump().c_str());
      QCOMPARE(schedule["scheduled"], 30);
      QCOMPARE(schedule["sent"], 30);
      for (const char* key : {"lateness_p50_ms", "lateness_p99_ms", "lateness_max_ms"})
        QVERIFY2(schedule[key].is_number() && double(schedule[key]) >= 0, key);
      QVERIFY(double(schedule["lateness_p50_ms"]) <= double(schedule["lateness_max_ms"]));
      QCOMPARE(schedule["late_threshold_ms"], 10.0);
      QVERIFY(double(schedule["lateness_p50_ms"]) < 5 + slack_ms);
      QCOMPARE(schedule["kept_up"], double(schedule["late_share"]) <= 0.01);
      const auto phase = section["lanes"][lane]["phases"]["trace"];
      QCOMPARE(phase["completed"], 30);
      QCOMPARE(phase["failed"], 0);
    }
    // Requests sharing hash ids found their blocks in the caching lane's prefix cache.
    const auto fp8 = section["lanes"]["fp8"]["phases"]["trace"];
    qInfo("fp8 cached tokens %s of %s prompt tokens", fp8["total_cached_tokens"].dump().c_str(),
          fp8["total_input_tokens"].dump().c_str());
    QVERIFY(fp8["total_cached_tokens"].is_number());
    QVERIFY(int64_t(fp8["total_cached_tokens"]) > 512);
    // Prompts are sized by the lane's tokenizer: the trace's input lengths as the lane counts
    // them (the chat template adds a few tokens per request).
    double traced = 0;
    for (const auto& r : trace.requests) traced += static_cast<double>(r.input_tokens);
    const double counted = fp8["total_input_tokens"];
    QVERIFY2(std::abs(counted - traced) < 0.03 * traced,
             qPrintable(QString("%1 counted, %2 in the trace").arg(counted).arg(traced)));
    QVERIFY(section.contains("comparisons"));
    QVERIFY(run.sink->has_message_containing("lane fp8: the client "));
  }

  void aTraceThatTurnedBadIsReportedAndNothingSent() {
    // load_plan_file reads the trace up front; a plan given as text meets it at run time.
    const auto run =
        lb::test::run_sim_plan(trace_plan("mooncake_backwards.jsonl"), "lb-exp-trace-bad");
    const auto section = run.experiment("trace");
    const std::string errors = section["error"].dump();
    QVERIFY2(
        errors.find("mooncake_backwards.jsonl:4: timestamp goes backwards") != std::string::npos,
        errors.c_str());
    QVERIFY(!section.contains("trace"));
    QVERIFY(run.requests.empty());
  }

  void aLoadedPlanReplaysTheRowsItChecked() {
    // load_plan_file reads the trace once: the runner replays those rows, so a file changed
    // (here: turned bad) after the plan was checked neither adds a second read nor an error.
    QTemporaryDir folder;
    const QString trace = folder.filePath("trace.jsonl");
    QVERIFY(QFile::copy(QString::fromStdString(lb::test::fixture_path("traces/mooncake.jsonl")),
                        trace));
    auto plan_json = trace_plan("mooncake.jsonl");
    plan_json["lanes"] = {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.02"}}};
    plan_json["experiments"][0]["path"] = "trace.jsonl";  // beside the plan
    plan_json["experiments"][0]["speedup"] = 50;
    QFile plan_file(folder.filePath("plan.json"));
    QVERIFY(plan_file.open(QIODevice::WriteOnly));
    plan_file.write(QByteArray::fromStdString(plan_json.dump()));
    plan_file.close();
    auto loaded = lb::plan::load_plan_file(plan_file.fileName().toStdString());
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    const auto& spec = std::get<lb::plan::TraceExperiment>(loaded.plan->experiments[0].params);
    QVERIFY(spec.rows != nullptr);
    QCOMPARE(spec.rows->requests.size(), size_t{30});

    QVERIFY(QFile::remove(trace));
    QVERIFY(QFile::copy(
        QString::fromStdString(lb::test::fixture_path("traces/mooncake_backwards.jsonl")), trace));
    const auto run = lb::test::run_sim_plan(*loaded.plan, "lb-exp-trace-once");
    QCOMPARE(run.result.exit_code, 0);
    const auto section = run.experiment("trace");
    QCOMPARE(section["status"], "done");
    QCOMPARE(section["trace"]["requests"], 30);
    QCOMPARE(lane_requests(run, "fp8").size(), size_t{30});
  }

  void aTraceOfUniquePromptsFindsLittleToReuse() {
    // Azure rows carry no hash ids: every prompt is text of its own.
    auto plan = trace_plan("azure.csv");
    plan["lanes"] = {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.02"}}};
    plan["experiments"][0]["max_requests"] = 8;
    plan["experiments"][0]["speedup"] = 200;
    const auto run = lb::test::run_sim_plan(plan, "lb-exp-trace-azure");
    QCOMPARE(run.result.exit_code, 0);
    const auto section = run.experiment("trace");
    QCOMPARE(section["trace"]["format"], "azure");
    QCOMPARE(section["trace"]["requests"], 8);
    QCOMPARE(section["trace"]["truncated"], true);
    const auto phase = section["lanes"]["fp8"]["phases"]["trace"];
    QCOMPARE(phase["completed"], 8);
    QVERIFY(int64_t(phase["total_cached_tokens"]) < 64);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestTraceExperiment)
#include "run_trace_test.moc"
