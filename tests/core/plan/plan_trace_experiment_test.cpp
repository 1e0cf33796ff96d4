// The "trace" experiment kind in a plan: defaults, each option checked with errors that name the
// field, relative trace paths resolved against the plan file's folder, and a bad trace reported
// as a plan error naming the trace's file and line before anything runs.
#include <QtTest>

#include "test_main.h"

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>

#include "core/plan/plan.h"
#include "test_paths.h"

using namespace lb::plan;
using nlohmann::json;

namespace {

json plan_with(const json& experiment) {
  return {{"name", "replay"},
          {"lanes", {{{"id", "a"}, {"base_url", "sim:fp8"}}}},
          {"experiments", {experiment}}};
}

// Every error as "PATH: MESSAGE", one per line.
std::string errors_of(const PlanParseResult& r) {
  std::string out;
  for (const auto& e : r.errors) out += e.path + ": " + e.message + "\n";
  return out;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class PlanTraceExperimentTest : public QObject {
  Q_OBJECT
 private slots:
  void defaults() {
    const auto r = parse_plan(plan_with({{"kind", "trace"}, {"path", "t.jsonl"}}).dump(), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& t = std::get<TraceExperiment>(r.plan->experiments[0].params);
    QCOMPARE(t.path, std::string("t.jsonl"));
    QCOMPARE(t.format, std::string("auto"));
    QCOMPARE(t.speedup, 1.0);
    QCOMPARE(t.max_requests, int64_t(0));
    QCOMPARE(t.skip_bad_rows, false);
    QCOMPARE(t.max_gap_s, 0.0);
    QVERIFY(t.ignore_eos);
    const json resolved = resolved_plan_json(*r.plan)["experiments"][0];
    QCOMPARE(resolved["kind"], "trace");
    QCOMPARE(resolved["speedup"], 1.0);
    QVERIFY(!resolved.contains("max_requests"));
  }

  void optionsAreRead() {
    const json e = {{"kind", "trace"},       {"path", "t.csv"},     {"format", "burstgpt"},
                    {"speedup", 4.0},        {"max_requests", 100}, {"max_duration_s", 30},
                    {"skip_bad_rows", true}, {"max_gap_s", 120}};
    const auto r = parse_plan(plan_with(e).dump(), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& t = std::get<TraceExperiment>(r.plan->experiments[0].params);
    QCOMPARE(t.format, std::string("burstgpt"));
    QCOMPARE(t.speedup, 4.0);
    QCOMPARE(t.max_requests, int64_t(100));
    QCOMPARE(t.max_duration_s, 30.0);
    QVERIFY(t.skip_bad_rows);
    QCOMPARE(t.max_gap_s, 120.0);
    const TraceReadOptions o = trace_read_options(t);
    QCOMPARE(o.format, TraceFormat::BurstGpt);
    QCOMPARE(o.max_offset_ns, int64_t(120'000'000'000));  // 30 s of replay at 4x
    QCOMPARE(o.max_requests, int64_t(100));
  }

  void badOptionsNameTheirField() {
    const json e = {{"kind", "trace"},   {"format", "sharegpt"}, {"speedup", 0},
                    {"max_requests", 0}, {"max_duration_s", -1}, {"skip_bad_rows", "yes"},
                    {"max_gap_s", 0},    {"spedup", 2}};
    const std::string errors = errors_of(parse_plan(plan_with(e).dump(), "p"));
    for (const char* field : {"experiments[0]: missing required key 'path'",
                              "experiments[0].format: unknown trace format",
                              "experiments[0].speedup: ", "experiments[0].max_requests: ",
                              "experiments[0].max_duration_s: ", "experiments[0].skip_bad_rows: ",
                              "experiments[0].max_gap_s: ", "experiments[0].spedup: "})
      QVERIFY2(errors.find(field) != std::string::npos,
               (field + std::string("\n") + errors).c_str());
  }

  void relativeTracePathsResolveAgainstThePlanFolder() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    std::filesystem::create_directories(root / "plans" / "traces");
    std::filesystem::copy_file(lb::test::fixture_path("traces/mooncake.jsonl"),
                               root / "plans" / "traces" / "m.jsonl");
    write_file(root / "plans" / "plan.json",
               plan_with({{"kind", "trace"}, {"path", "traces/m.jsonl"}}).dump());
    const auto r = load_plan_file((root / "plans" / "plan.json").string());
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& t = std::get<TraceExperiment>(r.plan->experiments[0].params);
    QCOMPARE(t.path, (root / "plans" / "traces" / "m.jsonl").string());
  }

  void aBadTraceIsAPlanErrorNamingFileAndLine() {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    std::filesystem::copy_file(lb::test::fixture_path("traces/mooncake_bad_rows.jsonl"),
                               root / "bad.jsonl");
    write_file(root / "plan.json", plan_with({{"kind", "trace"}, {"path", "bad.jsonl"}}).dump());
    const auto r = load_plan_file((root / "plan.json").string());
    QVERIFY(!r.ok());
    const std::string trace = (root / "bad.jsonl").string();
    QCOMPARE(errors_of(r), "experiments[0].path: " + trace + ":3: missing 'output_length'\n" +
                               "experiments[0].path: " + trace + ":5: not a JSON object\n");
    // The same trace with skip_bad_rows is a valid plan.
    write_file(
        root / "plan.json",
        plan_with({{"kind", "trace"}, {"path", "bad.jsonl"}, {"skip_bad_rows", true}}).dump());
    QVERIFY(load_plan_file((root / "plan.json").string()).ok());
    write_file(root / "plan.json", plan_with({{"kind", "trace"}, {"path", "none.csv"}}).dump());
    QCOMPARE(
        errors_of(load_plan_file((root / "plan.json").string())),
        "experiments[0].path: " + (root / "none.csv").string() + ": cannot read the trace file\n");
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanTraceExperimentTest)
#include "plan_trace_experiment_test.moc"
