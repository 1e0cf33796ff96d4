// Greedy A/A baseline under load, end to end on simulator lanes over HTTP: each lane answers the
// regression prompts again at the load concurrency; with the simulator's batch_variance on, some
// prompts change within a lane, the summary gives each lane's mismatch rate and the cross-lane
// review marks exactly those prompts; with it off, no prompt changes and nothing is marked. The
// plan's load_baseline block is validated.
#include <QtTest>

#include <map>
#include <set>

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/plan/plan_validation.h"
#include "core/run/experiments/regression_experiment.h"
#include "core/run/plan_runner.h"
#include "run_folder_reader.h"
#include "sim_plan_run.h"
#include "test_main.h"

namespace {

using nlohmann::json;

struct LoadRunFolder {
  std::filesystem::path dir;
  json regression;
};

LoadRunFolder run_load_plan(const json& plan_json, const std::filesystem::path& dir) {
  lb::test::register_sim_starter();
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  auto sink = std::make_shared<lb::test::CollectingSink>();
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, *sink);
  runner.run(stop);
  LoadRunFolder f{dir, nullptr};
  const json summary = lb::test::read_json(dir / "summary.json");
  for (const auto& e : summary["experiments"])
    if (e.value("kind", "") == "regression") f.regression = e;
  return f;
}

// Two lanes (bf16 baseline, fp8 candidate) with the given simulator options.
json baseline_plan(const std::string& options, json load_baseline = json::object()) {
  const std::string common = "?time_scale=0.02&" + options;
  json exp = {{"kind", "regression"},
              {"prompts", "builtin:regression-20"},
              {"logprobs", 0},
              {"load_baseline", load_baseline}};
  return {{"name", "load baseline"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16" + common}},
            {{"id", "fp8"}, {"base_url", "sim:fp8" + common}}}},
          {"experiments", {exp}}};
}

std::set<size_t> batch_variant_indexes(const json& load_baseline) {
  std::set<size_t> out;
  for (const auto& v : load_baseline["batch_variant"]) out.insert(v["index"].get<size_t>());
  return out;
}

std::string load_plan_errors(const json& load_baseline) {
  json plan = baseline_plan("seed=1", load_baseline);
  auto parsed = lb::plan::parse_plan(plan.dump(), "p.json");
  return parsed.ok() ? std::string() : parsed.error_text();
}

}  // namespace

class TestLoadBaseline : public QObject {
  Q_OBJECT
 private slots:
  void batchVarianceMarksPromptsThatChangeUnderLoad() {
    const auto dir = lb::test::fresh_dir("lb-load-baseline-on");
    const LoadRunFolder f = run_load_plan(baseline_plan("batch_variance=1"), dir);
    QVERIFY2(f.regression.is_object(), "no regression section");
    std::map<std::string, std::set<size_t>> variant;
    for (const char* lane : {"bf16", "fp8"}) {
      const json& load = f.regression["lanes"][lane]["load_baseline"];
      QVERIFY2(load.is_object(), lane);
      QCOMPARE(load["concurrency"].get<int64_t>(), int64_t{32});
      QCOMPARE(load["baseline_concurrency"].get<int64_t>(), int64_t{1});
      QCOMPARE(load["prompts_compared"].get<int64_t>(), int64_t{20});
      const auto mismatches = load["mismatches"].get<int64_t>();
      QVERIFY2(mismatches > 0, lane);
      QVERIFY2(mismatches < 20, lane);  // the first request arrives alone and never changes
      QCOMPARE(load["mismatch_rate"].get<double>(), static_cast<double>(mismatches) / 20.0);
      const double lo = load["mismatch_rate_interval"][0], hi = load["mismatch_rate_interval"][1];
      QVERIFY(lo < load["mismatch_rate"].get<double>() && load["mismatch_rate"].get<double>() < hi);
      variant[lane] = batch_variant_indexes(load);
      QCOMPARE(static_cast<int64_t>(variant[lane].size()), mismatches);
      // The listed prompts are exactly those whose two answers differ.
      const json alone = lb::test::read_json(dir / "texts" / (std::string(lane) + ".texts.json"));
      const json loaded = lb::test::read_json(dir / load["texts_file"].get<std::string>());
      QCOMPARE(loaded.size(), alone.size());
      for (size_t i = 0; i < alone.size(); ++i)
        QVERIFY2((alone[i] != loaded[i]) == (variant[lane].count(i) == 1),
                 qPrintable(QString("%1 prompt %2").arg(lane).arg(i)));
    }
    // The review marks each prompt with the lanes on which it is batch-variant.
    const json review = lb::test::read_json(dir / "review.json");
    size_t marked = 0;
    for (const auto& pair : review["pairs"]) {
      const size_t i = pair["index"];
      std::vector<std::string> expected;
      for (const char* lane : {"bf16", "fp8"})
        if (variant[lane].count(i)) expected.push_back(lane);
      const auto lanes = pair.value("batch_variant", std::vector<std::string>{});
      QCOMPARE(lanes, expected);
      marked += lanes.empty() ? 0 : 1;
    }
    QVERIFY(marked > 0);
    QCOMPARE(f.regression["comparisons"][0]["batch_variant"].size(), marked);
    std::filesystem::remove_all(dir);
  }

  void noBatchVarianceNoMarks() {
    const auto dir = lb::test::fresh_dir("lb-load-baseline-off");
    const LoadRunFolder f =
        run_load_plan(baseline_plan("batch_variance=0", {{"concurrency", 8}}), dir);
    for (const char* lane : {"bf16", "fp8"}) {
      const json& load = f.regression["lanes"][lane]["load_baseline"];
      QCOMPARE(load["concurrency"].get<int64_t>(), int64_t{8});
      QCOMPARE(load["prompts_compared"].get<int64_t>(), int64_t{20});
      QCOMPARE(load["mismatches"].get<int64_t>(), int64_t{0});
      QCOMPARE(load["mismatch_rate"].get<double>(), 0.0);
      QVERIFY(load["batch_variant"].empty());
    }
    const json review = lb::test::read_json(dir / "review.json");
    for (const auto& pair : review["pairs"]) QVERIFY(!pair.contains("batch_variant"));
    QVERIFY(f.regression["comparisons"][0]["batch_variant"].empty());
    std::filesystem::remove_all(dir);
  }

  void planValidation() {
    auto parsed = lb::plan::parse_plan(baseline_plan("seed=1").dump(), "p.json");
    QVERIFY(parsed.ok());
    const auto& e = std::get<lb::plan::RegressionExperiment>(parsed.plan->experiments[0].params);
    QCOMPARE(e.load_baseline_concurrency, int64_t{32});
    // Without the block there is no load baseline.
    json plain = baseline_plan("seed=1");
    plain["experiments"][0].erase("load_baseline");
    auto none = lb::plan::parse_plan(plain.dump(), "p.json");
    QVERIFY(none.ok());
    QCOMPARE(std::get<lb::plan::RegressionExperiment>(none.plan->experiments[0].params)
                 .load_baseline_concurrency,
             int64_t{0});
    for (const auto& [block, needle] :
         std::vector<std::pair<json, std::string>>{{{{"concurrency", 1}}, "concurrency"},
                                                   {{{"concurrency", "x"}}, "concurrency"},
                                                   {{{"levels", 4}}, "levels"},
                                                   {json(32), "load_baseline"}}) {
      const std::string errors = load_plan_errors(block);
      QVERIFY2(errors.find(needle) != std::string::npos,
               qPrintable(QString::fromStdString(block.dump() + " -> " + errors)));
    }
    json same = baseline_plan("seed=1", {{"concurrency", 4}});
    same["experiments"][0]["concurrency"] = 4;
    auto clash = lb::plan::parse_plan(same.dump(), "p.json");
    QVERIFY(!clash.ok());
    QVERIFY(clash.error_text().find("must differ") != std::string::npos);
  }

  void wilsonInterval() {
    const auto [lo, hi] = lb::run::wilson_interval_95(3, 20);
    QVERIFY(std::abs(lo - 0.0524) < 1e-3);
    QVERIFY(std::abs(hi - 0.3604) < 1e-3);
    const auto [lo0, hi0] = lb::run::wilson_interval_95(0, 20);
    QCOMPARE(lo0, 0.0);
    QVERIFY(hi0 > 0.1 && hi0 < 0.2);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestLoadBaseline)
#include "run_load_baseline_test.moc"
