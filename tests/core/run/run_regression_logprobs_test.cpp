// Regression with logprobs, end to end on simulator lanes: every lane's logprobs/<lane>.jsonl,
// and the token divergence analysis finds exactly the simulator's own flip (index, class and
// baseline margin, from the fp8 lane's trace) for every prompt. A lane that refuses logprobs is
// recorded as such and the run goes on.
#include <QtTest>

#include <cmath>
#include <map>

#include "collecting_sink.h"
#include "core/logprobs/logprob_lines.h"
#include "core/plan/prompt_set.h"
#include "core/run/plan_runner.h"
#include "run_folder_reader.h"
#include "sim/text_filler.h"
#include "sim_plan_run.h"
#include "test_main.h"

namespace {

using nlohmann::json;

struct Folder {
  std::filesystem::path dir;
  json summary;
  json regression;
  lb::run::RunResult result;
};

// Like run_sim_plan, but the folder is kept for the files the analysis wrote.
Folder run_plan(const json& plan_json, const std::filesystem::path& dir) {
  lb::test::register_sim_starter();
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  auto sink = std::make_shared<lb::test::CollectingSink>();
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, *sink);
  Folder f;
  f.dir = dir;
  f.result = runner.run(stop);
  f.summary = lb::test::read_json(dir / "summary.json");
  for (const auto& e : f.summary["experiments"])
    if (e.value("kind", "") == "regression" || e.value("name", "") == "regression")
      f.regression = e;
  return f;
}

json regression_plan(const std::string& base, const std::string& cand,
                     json extra = json::object()) {
  json exp = {{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"concurrency", 4}};
  exp.update(extra);
  return {{"name", "logprobs"},
          {"lanes", {{{"id", "bf16"}, {"base_url", base}}, {{"id", "fp8"}, {"base_url", cand}}}},
          {"experiments", {exp}}};
}

std::string prompt_fnv(const lb::plan::PromptSpec& prompt) {
  const auto chat = prompt.chat();
  std::string user;
  for (const auto& m : chat)
    if (m.role == "user") user = m.content;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(lb::sim::fnv1a64(user)));
  return hex;
}

// prompt_fnv -> the flip record's detail.
std::map<std::string, json> flips(const std::filesystem::path& trace) {
  std::map<std::string, json> out;
  for (const auto& line : lb::test::read_jsonl(trace))
    if (line.value("kind", "") == "flip") out[line["detail"]["prompt_fnv"]] = line["detail"];
  return out;
}

}  // namespace

class TestRegressionLogprobs : public QObject {
  Q_OBJECT
 private slots:
  void analysisFindsTheSimulatorsFlips() {
    const auto dir = lb::test::fresh_dir("lb-regression-logprobs");
    std::filesystem::create_directories(dir);
    const std::string bf16 = "sim:bf16?time_scale=0.001&trace=" + (dir / "bf16.trace").string();
    const std::string fp8 =
        "sim:fp8?time_scale=0.001&flip_facts=1&trace=" + (dir / "fp8.trace").string();
    const Folder f = run_plan(regression_plan(bf16, fp8), dir / "run");
    const auto set = lb::plan::load_prompt_set("builtin:regression-20");
    QVERIFY(set.ok());

    // Both lanes' logprobs: one ok line per prompt, top-5, ids, compact.
    for (const char* lane : {"bf16", "fp8"}) {
      std::string error;
      const std::string text =
          lb::test::read_text(f.dir / "logprobs" / (std::string(lane) + ".jsonl"));
      const auto lines = lb::logprobs::parse_lines(text, error);
      QVERIFY2(error.empty(), error.c_str());
      QCOMPARE(lines.size(), set.set->prompts.size());
      size_t tokens = 0;
      for (const auto& l : lines) {
        QCOMPARE(l.status, std::string("ok"));
        QCOMPARE(l.top_k, 5);
        QVERIFY(!l.tokens.empty());
        QCOMPARE(l.tokens.front().top.size(), size_t(5));
        QVERIFY(l.tokens.front().id >= 0);
        tokens += l.tokens.size();
      }
      QVERIFY2(text.size() / tokens < 200, qPrintable(QString::number(text.size() / tokens)));
      QCOMPARE(f.regression["lanes"][lane]["logprobs"]["status"].get<std::string>(),
               std::string("ok"));
    }
    QVERIFY(flips(dir / "bf16.trace").empty());  // the unperturbed lane never departs
    const auto truth = flips(dir / "fp8.trace");
    const json report = lb::test::read_json(f.dir / "tokens.json");
    QCOMPARE(report["thresholds"]["near_tie_margin_nats"].get<double>(), 0.5);
    QCOMPARE(report["pairs"].size(), set.set->prompts.size());
    std::map<std::string, int> seen;
    for (size_t i = 0; i < set.set->prompts.size(); ++i) {
      const json& pair = report["pairs"][i];
      const std::string cls = pair["class"];
      const auto it = truth.find(prompt_fnv(set.set->prompts[i]));
      const QString where = QString("prompt %1 (%2): %3")
                                .arg(i)
                                .arg(set.set->prompts[i].id.c_str(), pair.dump().c_str());
      if (it == truth.end()) {
        QVERIFY2(cls == "identical", qPrintable(where));
        ++seen["identical"];
        continue;
      }
      QVERIFY2(cls == it->second["class"].get<std::string>(), qPrintable(where));
      QVERIFY2(pair["token_index"] == it->second["index"], qPrintable(where));
      QCOMPARE(pair["aligned_by"].get<std::string>(), std::string("ids"));
      if (cls == "near_tie" || cls == "confident_change") {
        const double margin = pair["baseline_margin_nats"];
        QVERIFY2(std::abs(margin - it->second["margin_nats"].get<double>()) < 1e-3,
                 qPrintable(where));
        QCOMPARE(pair["candidate_logprob_of_baseline_token"].is_number(), true);
      }
      if (cls == "near_tie") QVERIFY(pair["baseline_margin_nats"].get<double>() <= 0.5);
      if (cls == "confident_change") QVERIFY(pair["baseline_logprob_of_candidate_token"].is_null());
      ++seen[cls];
    }
    // The drift model gives this set every kind of departure.
    QVERIFY(seen["identical"] > 0);
    QVERIFY(seen["near_tie"] > 0);
    QVERIFY(seen["confident_change"] > 0);
    const json counts = f.regression["comparisons"][0]["token_divergence"]["counts"];
    QCOMPARE(counts["near_tie"].get<int>(), seen["near_tie"]);
    QCOMPARE(counts["confident_change"].get<int>(), seen["confident_change"]);
    std::filesystem::remove_all(dir);
  }

  void aLaneThatRefusesLogprobsIsRecordedAndTheRunGoesOn() {
    const auto dir = lb::test::fresh_dir("lb-regression-logprobs-refused");
    const Folder f = run_plan(
        regression_plan("sim:bf16?time_scale=0.001", "sim:fp8?time_scale=0.001&refuse_logprobs=1"),
        dir);
    const json lane = f.regression["lanes"]["fp8"];
    QCOMPARE(lane["logprobs"]["status"].get<std::string>(), std::string("logprobs unsupported"));
    QVERIFY(lane["logprobs"]["note"].get<std::string>().find("refused") != std::string::npos);
    QVERIFY(lane["prompt_errors"].empty());  // the retry without logprobs answered every prompt
    const json texts = lb::test::read_json(dir / "texts" / "fp8.texts.json");
    QCOMPARE(texts.size(), size_t(20));
    QVERIFY(!texts[0].get<std::string>().empty());
    const json report = lb::test::read_json(dir / "tokens.json");
    for (const auto& pair : report["pairs"]) {
      const std::string cls = pair["class"];
      QVERIFY2(cls == "identical" || cls == "no_logprobs", pair.dump().c_str());
    }
    QVERIFY(report["counts"]["no_logprobs"].get<int>() > 0);
    std::filesystem::remove_all(dir);
  }

  void logprobsOffWritesNone() {
    const auto dir = lb::test::fresh_dir("lb-regression-logprobs-off");
    const Folder f = run_plan(regression_plan("sim:bf16?time_scale=0.001",
                                              "sim:fp8?time_scale=0.001", {{"logprobs", false}}),
                              dir);
    QVERIFY(!std::filesystem::exists(dir / "logprobs"));
    QVERIFY(!std::filesystem::exists(dir / "tokens.json"));
    QVERIFY(!f.regression["comparisons"][0].contains("token_divergence"));
    std::filesystem::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestRegressionLogprobs)
#include "run_regression_logprobs_test.moc"
