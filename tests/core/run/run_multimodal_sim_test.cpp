// Multimodal lanes end to end on in-process simulator lanes: the gates' multimodal check on
// builtin:multimodal-30 scores the multimodal BF16 lane 30/30 (10/10 per input kind) and records
// the text-only FP8 lane as "multimodal unsupported" without failing the run; a regression on the
// same set sends every prompt's media and records them; and no file of the run folder holds a
// data: URL.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "test_main.h"

#include "core/net/data_url.h"
#include "core/run/experiments/multimodal_gate.h"
#include "sim_plan_run.h"

namespace {

nlohmann::json multimodal_plan() {
  return {{"name", "multimodal"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
          {"experiments",
           {{{"kind", "gates"}, {"checks", {"multimodal"}}},
            {{"kind", "regression"},
             {"lanes", {"bf16"}},
             {"prompts", "builtin:multimodal-30"},
             {"max_tokens", 64},
             {"logprobs", 0}}}}};
}

}  // namespace

class TestMultimodalSim : public QObject {
  Q_OBJECT
 private slots:
  void multimodalLanePassesAndTextOnlyLaneIsUnsupported() {
    lb::test::register_sim_starter();
    auto parsed = lb::plan::parse_plan(multimodal_plan().dump(), "test-plan.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto dir = lb::test::fresh_dir("lb-multimodal-sim");
    lb::test::CollectingSink sink;
    std::atomic<bool> stop{false};
    lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
    const auto result = runner.run(stop);
    const auto summary = lb::test::read_json(dir / "summary.json");
    const auto requests = lb::test::read_jsonl(dir / "requests.jsonl");

    nlohmann::json gates;
    for (const auto& e : summary["experiments"])
      if (e["kind"] == "gates") gates = e["lanes"];
    const auto& bf16 = gates["bf16"]["gates"]["multimodal"];
    QVERIFY2(bf16["status"] == "pass", bf16.dump(1).c_str());
    QCOMPARE(bf16["score"], "30/30");
    for (const char* kind : {"image", "video", "mixed"})
      QCOMPARE(bf16["kinds"][kind]["score"], "10/10");
    const auto& fp8 = gates["fp8"]["gates"]["multimodal"];
    QCOMPARE(fp8["status"], "unsupported");
    QCOMPARE(fp8["unsupported"], lb::run::kMultimodalUnsupported);
    QCOMPARE(result.exit_code, 0);  // unsupported is a result, not a failure

    // The sink heard each gate as the engine scored it, exactly as summary.json records it.
    QVERIFY(sink.gates.size() >= 2);
    for (const lb::record::GateResult& g : sink.gates)
      QVERIFY2(lb::record::to_json(g) == gates[g.lane_id]["gates"][g.check],
               (g.lane_id + " " + g.check + ": " + lb::record::to_json(g).dump()).c_str());
    const auto heard = [&](const char* lane) {
      return std::count_if(sink.gates.begin(), sink.gates.end(), [&](const auto& g) {
        return g.lane_id == lane && g.check == "multimodal";
      });
    };
    QCOMPARE(heard("bf16"), 1L);
    QCOMPARE(heard("fp8"), 1L);

    int64_t gate_fp8 = 0, regression_with_media = 0;
    for (const auto& r : requests) {
      if (r["experiment"] == "gates" && r["lane"] == "fp8") ++gate_fp8;
      if (r["experiment"] == "regression" && r.contains("media") &&
          r["media"]["bytes"].get<int64_t>() > 0 && r["ok"] == true)
        ++regression_with_media;
    }
    QCOMPARE(gate_fp8, int64_t{1});  // refused once, not asked 30 times
    QCOMPARE(regression_with_media, int64_t{30});

    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string text = lb::test::read_text(entry.path());
      QVERIFY2(!lb::net::contains_data_url(text), entry.path().c_str());
    }
    std::filesystem::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestMultimodalSim)
#include "run_multimodal_sim_test.moc"
