// A throughput run on a simulator lane, exported as vLLM result JSON and imported back: the
// imported lane's medians equal the measured lane's, so the export carries every number the
// import needs and both speak vLLM's units.
#include <sys/stat.h>

#include <QtTest>

#include "test_main.h"

#include "core/interop/run_import.h"
#include "core/interop/vllm_export.h"
#include "interop_test_support.h"
#include "sim_plan_run.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json throughput_plan() {
  return {{"name", "roundtrip"},
          {"lanes", {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.05"}}}},
          {"experiments",
           {{{"kind", "throughput"},
             {"concurrency", {1, 4}},
             {"requests", 8},
             {"warmups", 1},
             {"input_tokens", 64},
             {"output_tokens", 16}}}}};
}

// Runs the plan into `dir` and keeps the folder.
void run_plan(const fs::path& dir) {
  lb::test::register_sim_starter();
  auto parsed = lb::plan::parse_plan(throughput_plan().dump(), "roundtrip.json");
  QVERIFY2(parsed.ok(), parsed.error_text().c_str());
  lb::test::CollectingSink sink;
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
  QCOMPARE(runner.run(stop).exit_code, 0);
}

json phases_of(const fs::path& run, const std::string& exp, const std::string& lane) {
  const json summary = lb::test::read_json(run / "summary.json");
  for (const auto& e : summary["experiments"])
    if (e.value("name", "") == exp) return e["lanes"][lane]["phases"];
  return nullptr;
}

void expect_close(const json& a, const json& b, const char* key) {
  QVERIFY2(a[key].is_number() && b[key].is_number(), key);
  const double x = a[key], y = b[key];
  QVERIFY2(std::abs(x - y) <= 1e-6 * std::max(1.0, std::abs(x)),
           (std::string(key) + ": " + std::to_string(x) + " vs " + std::to_string(y)).c_str());
}

}  // namespace

class TestInteropRoundTrip : public QObject {
  Q_OBJECT
 private slots:
  void exportedRunImportsBackWithTheSameMedians() {
    const fs::path measured = lb::test::fresh_dir("lb-roundtrip-run");
    run_plan(measured);
    const auto exported = lb::interop::export_vllm_results(measured.string());
    QVERIFY2(exported.ok, exported.error.c_str());
    QCOMPARE(exported.results.size(), size_t(2));
    const json& c4 = exported.results[1];
    QCOMPARE(c4["max_concurrency"], 4);
    QCOMPARE(c4["request_rate"], "inf");
    QCOMPARE(c4["completed"], 8);
    QCOMPARE(c4["ttfts"].size(), size_t(8));
    QCOMPARE(c4["itls"].size(), size_t(8));
    QVERIFY(double(c4["ttfts"][0]) > 0 && double(c4["ttfts"][0]) < 10);  // seconds, not ms
    QCOMPARE(c4["lanebench_phase"], "c4");
    const fs::path file = measured.string() + "-vllm.json";
    lb::test::write_text(file, lb::interop::format_vllm_export(exported.results));

    const fs::path imported = lb::test::fresh_dir("lb-roundtrip-imported");
    lb::interop::ImportOptions o;
    o.file = file.string();
    o.out_dir = imported.string();
    o.lane_name = "fp8-again";
    const auto r = lb::interop::import_into_run(o);
    QVERIFY2(r.exit_code == 0, r.error.c_str());
    QCOMPARE(r.phases, (std::vector<std::string>{"c1", "c4"}));
    const json a = phases_of(measured, "throughput", "fp8");
    const json b = phases_of(imported, "imported", "imported:fp8-again");
    for (const char* phase : {"c1", "c4"}) {
      qInfo("%s median TTFT ms: measured %.3f imported %.3f", phase,
            double(a[phase]["median_ttft_ms"]), double(b[phase]["median_ttft_ms"]));
      for (const char* key : {"median_ttft_ms", "median_tpot_ms", "median_itl_ms", "median_e2el_ms",
                              "median_decode_tok_s", "p99_itl_ms", "median_queue_delay_ms"})
        expect_close(a[phase], b[phase], key);
      QCOMPARE(b[phase]["completed"], a[phase]["completed"]);
      QCOMPARE(b[phase]["total_output_tokens"], a[phase]["total_output_tokens"]);
      QCOMPARE(b[phase]["total_input_tokens"], a[phase]["total_input_tokens"]);
    }

    // Into the measured run itself: the imported lane joins the throughput experiment.
    o.out_dir.clear();
    o.into_dir = measured.string();
    QCOMPARE(lb::interop::import_into_run(o).exit_code, 0);
    const json both = phases_of(measured, "throughput", "imported:fp8-again");
    expect_close(both["c4"], a["c4"], "median_ttft_ms");
    fs::remove_all(measured);
    fs::remove_all(imported);
    fs::remove(file);
  }

  // A run folder from elsewhere whose files are FIFOs: the export says so, or exports the
  // summary's figures alone, and never waits on a writer.
  void plantedFifosAreRefusedNotWaitedOn() {
    const fs::path dir = lb::test::fresh_dir("lb-export-fifo");
    fs::create_directories(dir);
    QCOMPARE(::mkfifo((dir / "summary.json").c_str(), 0600), 0);
    const auto refused = lb::interop::export_vllm_results(dir.string());
    QVERIFY(!refused.ok);
    QVERIFY2(refused.error.find("FIFO") != std::string::npos, refused.error.c_str());

    fs::remove(dir / "summary.json");
    lb::test::write_text(dir / "summary.json", R"({"experiments": [{"name": "t", "lanes": {"fp8":
        {"phase_order": ["c1"], "phases": {"c1": {"completed": 3, "median_ttft_ms": 9}}}}}]})");
    QCOMPARE(::mkfifo((dir / "requests.jsonl").c_str(), 0600), 0);
    const auto exported = lb::interop::export_vllm_results(dir.string());
    QVERIFY2(exported.ok, exported.error.c_str());
    QCOMPARE(exported.results.size(), size_t(1));
    QCOMPARE(exported.results[0]["completed"], 3);
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestInteropRoundTrip)
#include "interop_roundtrip_test.moc"
