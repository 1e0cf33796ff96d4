// The determinism floor end to end on simulator lanes: a lane whose answers never change on
// their own has a floor of zero with every check measured; one with batch- and cache-variant
// near-ties shows flips in those checks (each with its first divergent token and margin) and none
// in plain repetition; a lane without prefix caching cannot pass the cache check vacuously; a
// server without a reset endpoint says so.
#include <QtTest>

#include <map>

#include "test_main.h"

#include "core/run/experiments/determinism_checks.h"
#include "core/run/lanes/prefix_cache_reset.h"
#include "sim_plan_run.h"

using nlohmann::json;

namespace {

json determinism_plan(const json& lanes, const json& extra = json::object()) {
  json experiment = {{"kind", "determinism"}, {"max_tokens", 64}, {"batch_concurrency", 8}};
  experiment.update(extra);
  return {{"name", "floor"}, {"lanes", lanes}, {"experiments", {experiment}}};
}

json lane(const std::string& id, const std::string& url) { return {{"id", id}, {"base_url", url}}; }

}  // namespace

class TestDeterminism : public QObject {
  Q_OBJECT
 private slots:
  void aSteadyLaneHasNoFloorAndAVariantOneHasItsFlips() {
    const auto run =
        lb::test::run_sim_plan(determinism_plan({lane("steady", "sim:fp8?time_scale=0.002"),
                                                 lane("variant",
                                                      "sim:fp8?time_scale=0.002&batch_variance=0.9&"
                                                      "cache_variance=0.6&seed=5")}),
                               "lb-determinism-floor");
    const json section = run.experiment("determinism");
    QVERIFY2(section.is_object(), run.summary.dump().c_str());
    QCOMPARE(section["prompt_count"], 20);

    const json steady = section["lanes"]["steady"]["determinism"];
    for (const char* check : {"repeatability", "batch", "cache"}) {
      QCOMPARE(steady[check]["status"], "measured");
      QCOMPARE(steady[check]["flips"], 0);
      QCOMPARE(steady[check]["prompts_compared"], 20);
    }
    QCOMPARE(steady["repeatability"]["passes"], 3);
    QCOMPARE(steady["repeatability"]["cache_reset_before_each"], true);
    QVERIFY(steady["cache"]["warm_cached_tokens"].get<double>() > 0);
    QCOMPARE(steady["floor"]["flips"], 0);
    QCOMPARE(steady["floor"]["flip_rate"], 0.0);
    QCOMPARE(steady["floor"]["checks"], json({"repeatability", "batch", "cache"}));

    const json variant = section["lanes"]["variant"]["determinism"];
    QCOMPARE(variant["repeatability"]["flips"], 0);  // alone and cold, nothing moves
    const int batch = variant["batch"]["flips"].get<int>();
    const int cache = variant["cache"]["flips"].get<int>();
    QVERIFY2(batch > 0 && cache > 0, variant.dump().c_str());
    QVERIFY(variant["floor"]["flips"].get<int>() >= std::max(batch, cache));
    const auto interval = variant["floor"]["flip_rate_interval"];
    QVERIFY(interval[0].get<double>() > 0 && interval[1].get<double>() < 1);
    // A batch or cache flip resolves a near-tie the other way: at a token whose margin is small,
    // or where one answer stops (no margin is reported for the end of a sequence).
    int near_ties = 0;
    for (const char* check : {"batch", "cache"}) {
      for (const auto& flip : variant[check]["flipped"]) {
        QCOMPARE(flip["unique_outputs"], 2);
        const json d = flip["divergence"];
        QVERIFY2(d["class"] == "near_tie" || d["class"] == "length_change", flip.dump().c_str());
        QVERIFY(d["token_index"].get<int>() >= 0);
        QVERIFY(d["reference_token"] != d["other_token"]);
        if (d["class"] != "near_tie") continue;
        ++near_ties;
        QVERIFY(d["margin_nats"].get<double>() <= 0.5);
      }
    }
    QVERIFY(near_ties > 0);
    // Every pass's answers are kept, by phase.
    QCOMPARE(section["lanes"]["variant"]["determinism"]["answers_file"],
             "determinism/variant.json");
    int phases = 0;
    for (const auto& r : run.requests)
      if (r.value("lane", "") == "variant") ++phases;
    QCOMPARE(phases, 20 * 6);  // three repeats, the batch pass, cold and warm
  }

  // Decode load: each prompt alone among long decodes. A lane whose answers move with the batch
  // they join flips there; a steady lane does not; the background's requests are not recorded.
  void decodeLoadMeetsEachPromptWithLongDecodes() {
    const auto run = lb::test::run_sim_plan(
        determinism_plan({lane("steady", "sim:fp8?time_scale=0.002"),
                          lane("variant", "sim:fp8?time_scale=0.002&batch_variance=0.9&seed=5")},
                         {{"decode_load_streams", 4},
                          {"batch_concurrency", 0},
                          {"cache", false},
                          {"repeats", 2}}),
        "lb-determinism-decode-load");
    const json section = run.experiment("determinism");
    const json steady = section["lanes"]["steady"]["determinism"];
    QCOMPARE(steady["decode_load"]["status"], "measured");
    QCOMPARE(steady["decode_load"]["flips"], 0);
    QCOMPARE(steady["decode_load"]["prompts_compared"], 20);
    QCOMPARE(steady["decode_load"]["streams"], 4);
    QCOMPARE(steady["decode_load"]["background"]["streams"], 4);
    QCOMPARE(steady["decode_load"]["background"]["failed"], 0);
    QVERIFY(steady["decode_load"]["background"]["completed"].get<int>() >= 0);
    // The lane's GPUs also ran the background: the pass's energy is not the prompts' own.
    const json phase = section["lanes"]["steady"]["phases"]["decode-load-c4"];
    QVERIFY2(phase["energy"]["unsupported"].get<std::string>().find("decode-load background") !=
                 std::string::npos,
             phase["energy"].dump().c_str());
    QVERIFY(section["lanes"]["steady"]["phases"]["repeat-1"]["energy"].contains("joules"));
    QCOMPARE(steady["floor"]["checks"], json({"repeatability", "decode_load"}));
    const json variant = section["lanes"]["variant"]["determinism"];
    QCOMPARE(variant["repeatability"]["flips"], 0);
    QVERIFY2(variant["decode_load"]["flips"].get<int>() > 0, variant.dump().c_str());
    int recorded = 0;
    for (const auto& r : run.requests) {
      QVERIFY(r.value("phase", "") != "decode-load-background");
      if (r.value("lane", "") == "variant") ++recorded;
    }
    QCOMPARE(recorded, 20 * 3);  // two repeats and the pass under load
  }

  // A regression with "floor" measures its baseline against itself and says of each candidate
  // whether its differences rise above that: the same configuration does not, BF16 against FP8
  // (a different model's numerics) does.
  void aRegressionJudgesEachCandidateAgainstTheBaselinesFloor() {
    const json plan = {
        {"name", "regression-floor"},
        {"lanes",
         {lane("base", "sim:fp8?time_scale=0.002&batch_variance=0.2"),
          lane("same", "sim:fp8?time_scale=0.002&batch_variance=0.2"),
          lane("bf16", "sim:bf16?time_scale=0.002"),
          lane("dead", "sim:fp8?time_scale=0.002&error_rate=1")}},
        {"experiments",
         {{{"kind", "regression"}, {"max_tokens", 64}, {"floor", {{"batch_concurrency", 8}}}}}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-determinism-regression-floor");
    const json section = run.experiment("regression");
    const json floor = section["floor"];
    QCOMPARE(floor["lane"], "base");
    QCOMPARE(floor["answers_file"], "determinism/regression/base.json");
    const int floor_flips = floor["floor"]["flips"].get<int>();
    QVERIFY2(floor_flips > 0 && floor_flips < 10, floor.dump().c_str());
    std::map<std::string, json> verdicts;
    for (const auto& c : section["comparisons"]) verdicts[c["candidate"]] = c["floor_verdict"];
    QCOMPARE(verdicts["same"]["verdict"], "within the floor");
    QCOMPARE(verdicts["same"]["differing"], 0);
    QCOMPARE(verdicts["bf16"]["verdict"], "above the floor");
    QVERIFY(verdicts["bf16"]["p_value"].get<double>() < 0.05);
    QCOMPARE(verdicts["bf16"]["floor_flips"], floor_flips);
    QCOMPARE(verdicts["bf16"]["test"], "one-sided Fisher exact test");
    // Every request of "dead" failed: nothing compared, so no verdict, never "within".
    QCOMPARE(verdicts["dead"]["verdict"], "not judged");
    QCOMPARE(verdicts["dead"]["compared"], 0);
    // The candidates' own texts are the regression's usual ones: the floor adds phases only on
    // the baseline.
    int floor_requests = 0;
    for (const auto& r : run.requests)
      if (r.value("phase", "").rfind("repeat-", 0) == 0) {
        QCOMPARE(r.value("lane", ""), "base");
        ++floor_requests;
      }
    QCOMPARE(floor_requests, 60);
  }

  // The floor counts only prompts every check compared: a flip on a prompt that failed in
  // another check is left out rather than counted against too few prompts.
  void theFloorIsOverPromptsEveryCheckCompared() {
    lb::plan::PromptSet set;
    for (int i = 0; i < 4; ++i) {
      lb::plan::PromptSpec p;
      p.id = "p" + std::to_string(i);
      set.prompts.push_back(p);
    }
    auto texts = [](std::vector<std::string> t, std::vector<std::string> errors) {
      lb::run::LaneTexts out;
      out.texts = std::move(t);
      out.errors = std::move(errors);
      return out;
    };
    const auto ref = texts({"a", "b", "c", "d"}, {"", "", "", ""});
    const auto repeat = texts({"a", "b", "", "d"}, {"", "", "timeout", ""});  // p2 failed
    const auto batch = texts({"a", "b", "C", "D"}, {"", "", "", ""});         // p2, p3 flip
    const lb::compare::DivergenceThresholds th;
    const auto r = lb::run::compare_passes(set, ref, {&repeat}, th);
    const auto b = lb::run::compare_passes(set, ref, {&batch}, th);
    QCOMPARE(r.prompts_compared, int64_t(3));
    QCOMPARE(b.flipped.size(), size_t(2));
    const json floor = to_json(lb::run::combined_floor({&r, &b}, {"repeatability", "batch"}));
    QCOMPARE(floor["floor"]["prompts_compared"], 3);
    QCOMPARE(floor["floor"]["flips"], 1);  // p3; p2 was not compared by every check
    QCOMPARE(floor["floor"]["flipped_prompts"], json({3}));
    QCOMPARE(floor["floor"]["checks"], json({"repeatability", "batch"}));
    const json none = to_json(lb::run::combined_floor({}, {}))["floor"];
    QVERIFY(none["flip_rate"].is_null() && none["flip_rate_interval"].is_null());
    QCOMPARE(none["flips"], 0);
    // Each check with the prompts it left out and where each flip parted from the reference.
    const json batch_check = to_json(lb::run::flip_check_record("batch", b, set));
    QCOMPARE(batch_check["flips"], 2);
    QCOMPARE(batch_check["failed_prompts"], json::array());
    QCOMPARE(batch_check["flipped"][0]["index"], 2);
    QCOMPARE(batch_check["flipped"][0]["unique_outputs"], 2);
    QVERIFY(batch_check["flipped"][0]["divergence"].contains("class"));
    const json repeat_check = to_json(lb::run::flip_check_record("repeatability", r, set));
    QCOMPARE(repeat_check["failed_prompts"][0]["index"], 2);
  }

  void withoutPrefixCachingTheCacheCheckIsVacuousNotPassed() {
    const auto run = lb::test::run_sim_plan(
        determinism_plan(
            json::array({lane("nocache", "sim:fp8-nocache?time_scale=0.002&cache_variance=1")}),
            {{"batch_concurrency", 0}, {"repeats", 2}}),
        "lb-determinism-nocache");
    const json d = run.experiment("determinism")["lanes"]["nocache"]["determinism"];
    QCOMPARE(d["cache"]["status"], "vacuous");
    QCOMPARE(d["cache"]["warm_cached_tokens"], 0.0);
    QVERIFY(!d.contains("batch"));
    QCOMPARE(d["floor"]["checks"], json({"repeatability"}));
  }

  void aServerWithoutAResetEndpointIsUnsupported() {
    QCOMPARE(lb::run::prefix_cache_reset_path(lb::metrics::ServerKind::Vllm),
             "/reset_prefix_cache");
    QCOMPARE(lb::run::prefix_cache_reset_path(lb::metrics::ServerKind::Sglang), "/flush_cache");
    QCOMPARE(lb::run::prefix_cache_reset_path(lb::metrics::ServerKind::Ollama), "");
    const auto run = lb::test::run_sim_plan(
        determinism_plan(json::array({lane("ollama", "sim:fp8?time_scale=0.002&api=ollama")}),
                         {{"batch_concurrency", 0}, {"repeats", 2}}),
        "lb-determinism-ollama");
    const json d = run.experiment("determinism")["lanes"]["ollama"]["determinism"];
    QCOMPARE(d["cache"]["status"], "unsupported");
    QVERIFY2(d["cache"]["note"].get<std::string>().find("no endpoint") != std::string::npos,
             d.dump().c_str());
    QCOMPARE(d["repeatability"]["cache_reset_before_each"], false);
    QVERIFY(d["repeatability"]["note"].get<std::string>().find("may have reused") !=
            std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestDeterminism)
#include "run_determinism_test.moc"
