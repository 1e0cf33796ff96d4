// Plan parsing: docs/plan-file.md's rules, defaults, and every kind of mistake reported with the
// JSON path of the field and what is wrong with it.
#include <QtTest>

#include "test_main.h"

#include <algorithm>

#include "core/plan/plan.h"
#include "plan_test_texts.h"

using namespace lb::plan;

namespace {
// The start of a lane object whose base_url follows.
constexpr const char* kLaneUrlOpen = "{\"id\": \"a\", \"base_url\": \"";

// The one error expected, as "PATH: MESSAGE".
std::string only_error(const std::string& text) {
  const PlanParseResult r = parse_plan(text, "plan.json");
  if (r.errors.size() != 1) return "expected one error, got:\n" + r.error_text();
  return r.errors[0].path + ": " + r.errors[0].message;
}
}  // namespace

class PlanParseTest : public QObject {
  Q_OBJECT
 private slots:
  void productExample() {
    const PlanParseResult r = parse_plan(kProductExample, "plan.json");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const Plan& p = *r.plan;
    QCOMPARE(p.name, std::string("fp8 qualification"));
    QCOMPARE(p.lanes.size(), size_t(2));
    QVERIFY(p.lanes[0].is_sim());
    QCOMPARE(p.lanes[0].sim_profile, std::string("bf16"));
    QCOMPARE(p.lanes[0].model, std::string("auto"));
    QVERIFY(!p.lanes[1].is_sim());
    QCOMPARE(p.lanes[1].api_key_env, std::string("FP8_KEY"));
    QCOMPARE(p.lanes[1].notes.weights, std::string("fp8"));
    QCOMPARE(p.lanes[1].notes.prefix_caching.value(), true);
    QCOMPARE(p.lane("fp8"), &p.lanes[1]);
    QCOMPARE(p.experiments.size(), size_t(6));
    const auto& t = std::get<ThroughputExperiment>(p.experiments[1].params);
    QCOMPARE(t.concurrency, (std::vector<int64_t>{1, 5, 32}));
    QCOMPARE(t.requests, int64_t(64));
    QCOMPARE(t.input_tokens, int64_t(4096));
    QCOMPARE(t.output_tokens, int64_t(45));
    QCOMPARE(t.warmups, int64_t(1));
    QCOMPARE(t.request_rate, -1.0);
    const auto& c = std::get<ContextSweepExperiment>(p.experiments[2].params);
    QCOMPARE(c.prompt_tokens.back(), int64_t(241250));
    QCOMPARE(std::get<PrefixCacheExperiment>(p.experiments[3].params).shared_prefix_tokens,
             int64_t(30000));
    QCOMPARE(std::get<GatesExperiment>(p.experiments[5].params).checks.size(), size_t(7));
    QCOMPARE(p.experiments[0].name, std::string("regression"));
    QVERIFY(p.experiments[0].lanes.empty());
  }
  void defaults() {
    const PlanParseResult r = parse_plan(
        with_experiment(R"({"kind": "throughput"}, {"kind": "throughput", "request_rate": 4},
                           {"kind": "gates"}, {"kind": "regression"})"),
        "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& closed = std::get<ThroughputExperiment>(r.plan->experiments[0].params);
    QCOMPARE(closed.concurrency, (std::vector<int64_t>{1}));
    QCOMPARE(closed.requests, int64_t(64));
    const auto& open = std::get<ThroughputExperiment>(r.plan->experiments[1].params);
    QVERIFY(open.concurrency.empty());
    QCOMPARE(open.request_rate, 4.0);
    QCOMPARE(open.burstiness, 1.0);
    QCOMPARE(r.plan->experiments[1].name, std::string("throughput-2"));
    QCOMPARE(std::get<GatesExperiment>(r.plan->experiments[2].params).repeat, int64_t(3));
    const auto& reg = std::get<RegressionExperiment>(r.plan->experiments[3].params);
    QCOMPARE(reg.prompts, std::string("builtin:regression-20"));
    QCOMPARE(reg.max_tokens, int64_t(256));
    QCOMPARE(reg.temperature, 0.0);
    QCOMPARE(reg.logprobs, int64_t(5));
    QCOMPARE(reg.near_tie_margin_nats, 0.5);
  }
  void logprobsTakeACountOrAFlag() {
    const auto regression = [](const char* experiment) {
      const PlanParseResult r = parse_plan(with_experiment(experiment), "p");
      if (!r.ok()) qFatal("%s", r.error_text().c_str());
      return std::get<RegressionExperiment>(r.plan->experiments[0].params);
    };
    QCOMPARE(regression(R"({"kind": "regression", "logprobs": false})").logprobs, int64_t(0));
    QCOMPARE(regression(R"({"kind": "regression", "logprobs": true})").logprobs, int64_t(5));
    const auto third =
        regression(R"({"kind": "regression", "logprobs": 20, "near_tie_margin_nats": 0.25})");
    QCOMPARE(third.logprobs, int64_t(20));
    QCOMPARE(third.near_tie_margin_nats, 0.25);
    QCOMPARE(only_error(with_experiment(R"({"kind": "regression", "logprobs": 21})")),
             std::string("experiments[0].logprobs: must be <= 20 (got 21)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "regression", "logprobs": "5"})")),
             std::string("experiments[0].logprobs: must be an integer (got string)"));
  }
  void sampledRegressionDefaultsAndBadValues() {
    const PlanParseResult r = parse_plan(with_experiment(R"({"kind": "sampled_regression"})"), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& d = std::get<SampledRegressionExperiment>(r.plan->experiments[0].params);
    QCOMPARE(d.samples, int64_t(16));
    QCOMPARE(d.temperature, 0.8);
    QCOMPARE(d.fdr, 0.05);
    QCOMPARE(d.prompts, std::string("builtin:regression-20"));
    const PlanParseResult r2 =
        parse_plan(with_experiment(R"({"kind": "sampled_regression", "samples": 8,
                                       "temperature": 1.2, "top_p": 0.9, "seed": 7, "fdr": 0.1,
                                       "permutations": 999})"),
                   "p");
    QVERIFY2(r2.ok(), r2.error_text().c_str());
    const auto& e = std::get<SampledRegressionExperiment>(r2.plan->experiments[0].params);
    QCOMPARE(e.samples, int64_t(8));
    QCOMPARE(e.seed, int64_t(7));
    QCOMPARE(e.permutations, int64_t(999));
    QCOMPARE(resolved_plan_json(*r2.plan)["experiments"][0]["top_p"].get<double>(), 0.9);
    QCOMPARE(only_error(with_experiment(R"({"kind": "sampled_regression", "temperature": 0})")),
             std::string("experiments[0].temperature: must be > 0 and <= 2 (got 0)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "sampled_regression", "samples": 1})")),
             std::string("experiments[0].samples: must be >= 2 (got 1)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "sampled_regression", "fdr": 0.9})")),
             std::string("experiments[0].fdr: must be > 0 and <= 0.5 (got 0.9)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "sampled_regression", "sample": 4})")),
             std::string("experiments[0].sample: unknown key 'sample' (did you mean "
                         "'samples'?)"));
  }

  void determinismDefaultsAndBadValues() {
    const PlanParseResult r = parse_plan(with_experiment(R"({"kind": "determinism"})"), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& d = std::get<DeterminismExperiment>(r.plan->experiments[0].params);
    QCOMPARE(d.prompts, std::string("builtin:regression-20"));
    QCOMPARE(d.repeats, int64_t(3));
    QCOMPARE(d.batch_concurrency, int64_t(16));
    QVERIFY(d.cache);
    QCOMPARE(d.logprobs, int64_t(5));
    const PlanParseResult r2 =
        parse_plan(with_experiment(R"({"kind": "determinism", "repeats": 5, "batch_concurrency": 0,
                            "cache": false, "logprobs": false, "max_tokens": 32})"),
                   "p");
    QVERIFY2(r2.ok(), r2.error_text().c_str());
    const auto& e = std::get<DeterminismExperiment>(r2.plan->experiments[0].params);
    QCOMPARE(e.repeats, int64_t(5));
    QCOMPARE(e.batch_concurrency, int64_t(0));
    QVERIFY(!e.cache);
    QCOMPARE(e.logprobs, int64_t(0));
    // The plan as resolved reads back to the same experiment.
    const auto resolved = resolved_plan_json(*r2.plan)["experiments"][0];
    QCOMPARE(resolved["kind"], "determinism");
    QCOMPARE(resolved["repeats"], 5);
    QCOMPARE(resolved["cache"], false);
    QCOMPARE(only_error(with_experiment(R"({"kind": "determinism", "repeats": 1})")),
             std::string("experiments[0].repeats: must be >= 2 (got 1)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "determinism", "batch_concurrency": 1})")),
             std::string("experiments[0].batch_concurrency: must be 0 (no batch check) or at "
                         "least 2: at 1 a prompt is alone, as in the repeatability passes"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "determinism"}, {"kind": "determinism"})")),
             std::string("experiments[1].kind: a plan holds one determinism (also experiments[0]): "
                         "a second one would overwrite its answers and floors (determinism/); run "
                         "it from a plan of its own"));
  }

  void regressionFloorTakesTheRegressionsPrompts() {
    const PlanParseResult on = parse_plan(
        with_experiment(R"({"kind": "regression", "max_tokens": 40, "floor": true})"), "p");
    QVERIFY2(on.ok(), on.error_text().c_str());
    const auto& reg = std::get<RegressionExperiment>(on.plan->experiments[0].params);
    QVERIFY(reg.floor.has_value());
    QCOMPARE(reg.floor->max_tokens, int64_t(40));
    QCOMPARE(reg.floor->prompts, reg.prompts);
    QCOMPARE(reg.floor->repeats, int64_t(3));
    const PlanParseResult object = parse_plan(
        with_experiment(R"({"kind": "regression", "floor": {"repeats": 4, "cache": false}})"), "p");
    QVERIFY2(object.ok(), object.error_text().c_str());
    const auto& reg2 = std::get<RegressionExperiment>(object.plan->experiments[0].params);
    QCOMPARE(reg2.floor->repeats, int64_t(4));
    QVERIFY(!reg2.floor->cache);
    QCOMPARE(resolved_plan_json(*object.plan)["experiments"][0]["floor"]["repeats"], 4);
    const PlanParseResult off =
        parse_plan(with_experiment(R"({"kind": "regression", "floor": false})"), "p");
    QVERIFY(!std::get<RegressionExperiment>(off.plan->experiments[0].params).floor);
    QCOMPARE(only_error(with_experiment(R"({"kind": "regression", "floor": {"repeat": 4}})")),
             std::string("experiments[0].floor.repeat: unknown key 'repeat' (did you mean "
                         "'repeats'?)"));
  }

  void steadyStateFractionIsAShareOfTheConcurrency() {
    const PlanParseResult r =
        parse_plan(with_experiment(R"({"kind": "throughput", "steady_state_fraction": 0.8})"), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.plan->experiments[0].steady_state_fraction, 0.8);
    QCOMPARE(resolved_plan_json(*r.plan)["experiments"][0]["steady_state_fraction"], 0.8);
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "steady_state_fraction": 0})")),
             std::string("experiments[0].steady_state_fraction: must be > 0 and <= 1 (got 0)"));
    const PlanParseResult trimmed =
        parse_plan(with_experiment(R"({"kind": "trace", "path": "t.jsonl",
                            "trim": {"warmup_s": 30, "cooldown_requests": 100}})"),
                   "p");
    QVERIFY2(trimmed.ok(), trimmed.error_text().c_str());
    QCOMPARE(trimmed.plan->experiments[0].trim.warmup_s, 30.0);
    QCOMPARE(trimmed.plan->experiments[0].trim.cooldown_requests, int64_t(100));
    QCOMPARE(resolved_plan_json(*trimmed.plan)["experiments"][0]["trim"]["warmup_s"], 30.0);
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "trim": {"warmup": 3}})")),
             std::string("experiments[0].trim.warmup: unknown key 'warmup' (did you mean "
                         "'warmup_s'?)"));
  }

  // Two regressions in one run would write the same texts/ files and review.json.
  void aSecondRegressionOfAKindIsRefused() {
    QCOMPARE(only_error(with_experiment(R"({"kind": "regression"}, {"kind": "throughput"},
                                           {"kind": "regression", "name": "again"})")),
             std::string("experiments[2].kind: a plan holds one regression (also experiments[0]): "
                         "a second one would overwrite its texts and review file; run it from a "
                         "plan of its own"));
    const PlanParseResult both = parse_plan(
        with_experiment(R"({"kind": "regression"}, {"kind": "sampled_regression"})"), "p");
    QVERIFY2(both.ok(), both.error_text().c_str());
  }

  void crossScoreNeedsLogprobsAndAgreementNeedsCrossScore() {
    const PlanParseResult r = parse_plan(
        with_experiment(
            R"({"kind": "regression", "cross_score": true, "min_top1_agreement": 0.98})"),
        "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& reg = std::get<RegressionExperiment>(r.plan->experiments[0].params);
    QVERIFY(reg.cross_score);
    QCOMPARE(reg.min_top1_agreement, 0.98);
    QCOMPARE(only_error(
                 with_experiment(R"({"kind": "regression", "logprobs": 0, "cross_score": true})")),
             std::string("experiments[0].cross_score: needs logprobs (the answers' token ids "
                         "and top-K come from them)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "regression", "min_top1_agreement": 0.9})")),
             std::string("experiments[0].min_top1_agreement: needs \"cross_score\": true "
                         "(agreement is measured by it)"));
    QVERIFY(!parse_plan(with_experiment(R"({"kind": "regression", "cross_score": true, )"
                                        R"("min_top1_agreement": 1.5})"),
                        "p")
                 .ok());
  }
  void unknownKeySuggestsTheRightOne() {
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "concurency": [1, 2]})")),
             std::string("experiments[0].concurency: unknown key 'concurency' (did you mean "
                         "'concurrency'?)"));
    QCOMPARE(only_error(with_lane(R"({"id": "a", "base_url": "sim:x", "modle": "m"})")),
             std::string("lanes[0].modle: unknown key 'modle' (did you mean 'model'?)"));
    QCOMPARE(only_error(with_lane(R"({"id": "a", "base_url": "sim:x", "colour": 1})")),
             std::string("lanes[0].colour: unknown key 'colour'"));
  }
  void missingRequiredKey() {
    QCOMPARE(only_error(with_lane(R"({"id": "a"})")),
             std::string("lanes[0]: missing required key 'base_url'"));
    QCOMPARE(only_error(R"({"lanes": [{"id": "a", "base_url": "sim:x"}],
                            "experiments": [{"kind": "gates"}]})"),
             std::string(": missing required key 'name'"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "context_sweep"})")),
             std::string("experiments[0]: missing required key 'prompt_tokens'"));
  }
  void wrongTypes() {
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "requests": "64"})")),
             std::string("experiments[0].requests: must be an integer (got string)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "requests": 6.5})")),
             std::string("experiments[0].requests: must be an integer (got 6.5)"));
    QCOMPARE(only_error(with_lane(R"({"id": "a", "base_url": "sim:x", "insecure": "yes"})")),
             std::string("lanes[0].insecure: must be true or false (got string)"));
    QCOMPARE(only_error(R"({"name": "t", "lanes": {}, "experiments": [{"kind": "gates"}]})")
                 .substr(0, 35),
             std::string("lanes: must be an array (got object"));
    QCOMPARE(only_error("[1, 2]"), std::string(": must be an object (got array)"));
  }
  void outOfRange() {
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "concurrency": [1, 5, 0]})")),
             std::string("experiments[0].concurrency[2]: must be >= 1 (got 0)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "request_rate": 0})")),
             std::string("experiments[0].request_rate: must be > 0 and <= 1000000 (got 0)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "regression", "similarity_threshold": 1.5})")),
             std::string("experiments[0].similarity_threshold: must be >= 0 and <= 1 (got 1.5)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "slo": {"ttft_ms": -5}})")),
             std::string("experiments[0].slo.ttft_ms: must be > 0 (got -5)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "concurrency": []})")),
             std::string("experiments[0].concurrency: must not be empty"));
  }
  void throughputModes() {
    const std::string one_shape =
        "experiments[0]: give one of 'concurrency' (closed-loop list), 'concurrency_doubling' "
        "(closed loop until throughput stops gaining) or 'request_rate' (open loop)";
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "throughput", "concurrency": [1], "request_rate": 2})")),
             one_shape);
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "throughput", "concurrency": [1], "concurrency_doubling": {}})")),
             one_shape);
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "burstiness": 0.5})")),
             std::string("experiments[0].burstiness: only applies with 'request_rate'"));
    const PlanParseResult r = parse_plan(
        with_experiment(R"({"kind": "throughput", "concurrency": 8, "duration_s": 30})"), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& t = std::get<ThroughputExperiment>(r.plan->experiments[0].params);
    QCOMPARE(t.concurrency, (std::vector<int64_t>{8}));
    QCOMPARE(t.requests, int64_t(0));
    QCOMPARE(t.duration_s, 30.0);
  }
  void concurrencyDoubling() {
    const PlanParseResult r = parse_plan(
        with_experiment(R"({"kind": "throughput", "concurrency_doubling": {"max": 64}})"), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& t = std::get<ThroughputExperiment>(r.plan->experiments[0].params);
    QVERIFY(t.doubling.has_value());
    QVERIFY(t.concurrency.empty());
    QCOMPARE(t.doubling->start, int64_t(1));
    QCOMPARE(t.doubling->max, int64_t(64));
    QCOMPARE(t.doubling->min_gain, 0.05);
    const nlohmann::json resolved = resolved_plan_json(*r.plan)["experiments"][0];
    QCOMPARE(resolved["concurrency_doubling"]["max"], 64);
    QVERIFY(!resolved.contains("concurrency"));
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "throughput", "concurrency_doubling": {"start": 8, "max": 4}})")),
             std::string("experiments[0].concurrency_doubling.max: must be >= start (8), got 4"));
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "throughput", "concurrency_doubling": {"min_gain": 2}})")),
             std::string("experiments[0].concurrency_doubling.min_gain: must be >= 0 and <= 1 "
                         "(got 2)"));
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "throughput", "concurrency_doubling": {"strat": 2}})")),
             std::string("experiments[0].concurrency_doubling.strat: unknown key 'strat' (did "
                         "you mean 'start'?)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "throughput", "concurrency_doubling": 4})"))
                 .substr(0, 47),
             std::string("experiments[0].concurrency_doubling: must be an"));
  }
  void needleDepth() {
    const PlanParseResult r = parse_plan(
        with_experiment(
            R"({"kind": "context_sweep", "prompt_tokens": [4096], "needle_depth": 0.9})"),
        "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(std::get<ContextSweepExperiment>(r.plan->experiments[0].params).needle_depth, 0.9);
    QCOMPARE(resolved_plan_json(*r.plan)["experiments"][0]["needle_depth"], 0.9);
    const PlanParseResult d =
        parse_plan(with_experiment(R"({"kind": "context_sweep", "prompt_tokens": [4096]})"), "p");
    QCOMPARE(std::get<ContextSweepExperiment>(d.plan->experiments[0].params).needle_depth, 0.25);
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "context_sweep", "prompt_tokens": [4096], "needle_depth": 1.5})")),
             std::string("experiments[0].needle_depth: must be >= 0 and <= 1 (got 1.5)"));
  }
  void duplicateLaneId() {
    QCOMPARE(only_error(with_lane(R"({"id": "a", "base_url": "sim:x"},
                                     {"id": "b", "base_url": "sim:y"},
                                     {"id": "a", "base_url": "sim:z"})")),
             std::string("lanes[2].id: duplicate lane id 'a' (also lanes[0])"));
  }
  void badLaneIds() {
    QCOMPARE(only_error(with_lane(R"({"id": "../etc", "base_url": "sim:x"})")),
             std::string("lanes[0].id: '../etc' must be 1-64 letters, digits, '-', '_' or '.'"));
  }
  void urls() {
    const auto url_error = [](const std::string& url) {
      return only_error(with_lane(std::string(kLaneUrlOpen) + url + "\"}"));
    };
    QCOMPARE(url_error("127.0.0.1:8000/v1"),
             std::string("lanes[0].base_url: '127.0.0.1:8000/v1' must start with http://, "
                         "https:// or sim:"));
    QCOMPARE(url_error("http://:8000/v1"),
             std::string("lanes[0].base_url: 'http://:8000/v1' has no host"));
    QCOMPARE(url_error("http://host:99999"),
             std::string("lanes[0].base_url: 'http://host:99999' has an invalid port '99999' "
                         "(1-65535)"));
    QVERIFY(url_error("https://user:pw@host/v1").find("must not contain credentials") !=
            std::string::npos);
    QVERIFY(url_error("sim:").find("names no simulator profile") != std::string::npos);
    QCOMPARE(url_error("sim:fp8?time_scale=abc"),
             std::string("lanes[0].base_url: 'sim:fp8?time_scale=abc' has an invalid time_scale "
                         "'abc' (a number > 0)"));
    QVERIFY(url_error("sim:fp8?time_scale").find("malformed simulator option") !=
            std::string::npos);
    for (const char* good : {"http://127.0.0.1:8000/v1", "https://example.org",
                             "http://[::1]:80/v1", "http://localhost/"}) {
      const PlanParseResult r =
          parse_plan(with_lane(std::string(kLaneUrlOpen) + good + "\"}"), "p");
      QVERIFY2(r.ok(), r.error_text().c_str());
    }
    const PlanParseResult sim = parse_plan(
        with_lane(R"({"id": "a", "base_url": "sim:fp8+mtp?time_scale=0.1&seed=7"})"), "p");
    QVERIFY2(sim.ok(), sim.error_text().c_str());
    QCOMPARE(sim.plan->lanes[0].sim_profile, std::string("fp8+mtp"));
    QCOMPARE(sim.plan->lanes[0].sim_options.at("time_scale"), std::string("0.1"));
    QCOMPARE(sim.plan->lanes[0].sim_options.at("seed"), std::string("7"));
  }
  // A lane's energy source: "lane" or an http(s) URL without credentials, GPU ids as strings.
  void energySourceIsALaneOrAUrl() {
    const auto lane = [](const std::string& energy) {
      return with_lane("{\"id\": \"a\", \"base_url\": \"sim:fp8\", \"energy\": " + energy + "}");
    };
    const PlanParseResult ok =
        parse_plan(lane("{\"metrics_url\": \"http:"
                        "//gpu-node:9400/metrics\", \"gpus\": [\"0\", \"GPU-ab\"]}"),
                   "p");
    QVERIFY2(ok.ok(), ok.error_text().c_str());
    QCOMPARE(ok.plan->lanes[0].energy->metrics_url, std::string("http://gpu-node:9400/metrics"));
    QCOMPARE(ok.plan->lanes[0].energy->gpus, (std::vector<std::string>{"0", "GPU-ab"}));
    const PlanParseResult own = parse_plan(lane(R"({"metrics_url": "lane"})"), "p");
    QVERIFY2(own.ok(), own.error_text().c_str());
    QVERIFY(own.plan->lanes[0].energy->gpus.empty());
    QVERIFY(!parse_plan(with_lane(R"({"id": "a", "base_url": "sim:fp8"})"), "p")
                 .plan->lanes[0]
                 .energy.has_value());
    QCOMPARE(only_error(lane("{\"metrics_url\": \"file:///etc/passwd\"}")),
             std::string("lanes[0].energy.metrics_url: 'file:///etc/passwd' must be \"lane\" or "
                         "start with http:// or https://"));
    const std::string creds = only_error(lane("{\"metrics_url\": \"http://u:secret@h/metrics\"}"));
    QVERIFY2(creds.find("must not contain credentials") != std::string::npos, creds.c_str());
    QVERIFY(creds.find("secret") == std::string::npos);
    QVERIFY(only_error(lane(R"({"gpus": ["0"]})")).find("metrics_url") != std::string::npos);
    QVERIFY(only_error(lane(R"({"metrics_url": "lane", "gpus": [""]})")).find("GPU id") !=
            std::string::npos);
    QVERIFY(only_error(lane(R"("lane")")).find("energy") != std::string::npos);
  }
  void apiKeyValueIsRefusedWithoutEchoingIt() {
    const PlanParseResult r =
        parse_plan(with_lane(R"({"id": "a", "base_url": "sim:x", "api_key": "sk-live-123"})"), "p");
    QCOMPARE(r.errors.size(), size_t(1));
    QCOMPARE(r.errors[0].path, std::string("lanes[0].api_key"));
    QVERIFY(r.errors[0].message.find("api_key_env") != std::string::npos);
    QVERIFY(r.error_text().find("sk-live-123") == std::string::npos);
    QCOMPARE(only_error(with_lane(R"({"id": "a", "base_url": "sim:x", "api_key_env": "1BAD"})")),
             std::string("lanes[0].api_key_env: '1BAD' is not an environment variable name "
                         "(or keyring:<lane-id>)"));
  }
  void keyringReferenceIsAcceptedInPlaceOfAVariable() {
    const PlanParseResult r = parse_plan(
        with_lane(R"({"id": "a", "base_url": "sim:x", "api_key_env": "keyring:a"})"), "p");
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.plan->lanes[0].api_key_env, std::string("keyring:a"));
    QCOMPARE(resolved_plan_json(*r.plan)["lanes"][0]["api_key_env"].get<std::string>(),
             std::string("keyring:a"));
    for (const char* bad : {"keyring:", "keyring:has space", "keyring:a/../b"}) {
      const std::string lane =
          std::string(R"({"id": "a", "base_url": "sim:x", "api_key_env": ")") + bad + "\"}";
      QCOMPARE(only_error(with_lane(lane)), "lanes[0].api_key_env: '" + std::string(bad) +
                                                "' must be keyring:<lane-id> with a valid lane id");
    }
  }
  void unknownKindAndChecksAndLanes() {
    QVERIFY(only_error(with_experiment(R"({"kind": "througput", "concurrency": [1]})"))
                .rfind("experiments[0].kind: unknown experiment kind 'througput' (did you mean "
                       "'throughput'?)",
                       0) == 0);
    QCOMPARE(only_error(with_experiment(R"({"kind": "gates", "checks": ["json", "tool"]})")),
             std::string("experiments[0].checks[1]: unknown check 'tool' (did you mean 'tools'?)"));
    QCOMPARE(only_error(with_experiment(R"({"kind": "gates", "lanes": ["b"]})")),
             std::string("experiments[0].lanes[0]: unknown lane 'b'"));  // too short to guess
    QCOMPARE(only_error(R"({"name": "t", "lanes": [{"id": "cand", "base_url": "sim:x"}],
                            "experiments": [{"kind": "gates", "lanes": ["cnad"]}]})"),
             std::string("experiments[0].lanes[0]: unknown lane 'cnad' (did you mean 'cand'?)"));
    QCOMPARE(only_error(with_lane(R"({"id": "a", "base_url": "sim:x", "http_version": "3"})")),
             std::string("lanes[0].http_version: must be \"1.1\", \"2\" or \"auto\" (got \"3\")"));
  }
  void everyErrorAtOnce() {
    const PlanParseResult r = parse_plan(kManyErrorsPlan, "plan.json");
    QVERIFY(!r.ok());
    QVERIFY(!r.plan.has_value());
    std::vector<std::string> paths;
    for (const auto& e : r.errors) paths.push_back(e.path);
    const std::vector<std::string> expected = {"name",
                                               "lanes[0].base_url",
                                               "lanes[1]",
                                               "experiments[0].requests",
                                               "experiments[1].concurrency[1]",
                                               "extra"};
    QCOMPARE(paths, expected);
    QVERIFY(r.error_text().rfind("plan.json: name: must not be empty\n", 0) == 0);
  }
  void invalidJsonGivesLineAndColumn() {
    const PlanParseResult r = parse_plan("{\n  \"name\": \"x\",\n  \"lanes\": [,]\n}", "bad.json");
    QCOMPARE(r.errors.size(), size_t(1));
    QVERIFY2(r.errors[0].message.rfind("invalid JSON at line 3, column 13: ", 0) == 0,
             r.errors[0].message.c_str());
    const PlanParseResult truncated = parse_plan("{\"name\": \"x\"", "t.json");
    QCOMPARE(truncated.errors.size(), size_t(1));
    QVERIFY2(truncated.errors[0].message.rfind("invalid JSON at line 1, column ", 0) == 0,
             truncated.errors[0].message.c_str());
    QVERIFY(parse_plan("", "empty.json").errors.size() == 1);
  }
  void numberTooLargeIsAnErrorNotACrash() {
    // Found by fuzz/fuzz_plan: nlohmann reports 1e999 as out_of_range, not as a parse_error.
    const PlanParseResult r = parse_plan(R"({"name": "x", "lanes": [], "x": 1e999})", "n.json");
    QCOMPARE(r.errors.size(), size_t(1));
    QCOMPARE(r.errors[0].message, std::string("invalid JSON: number overflow parsing '1e999'"));
  }
  void duplicateKeysAreErrors() {
    QCOMPARE(only_error(with_experiment(
                 R"({"kind": "throughput", "concurrency": [1], "concurrency": [64]})")),
             std::string("experiments[0].concurrency: duplicate key 'concurrency' (only one value "
                         "per key is allowed)"));
    QCOMPARE(only_error(R"({"name": "t", "lanes": [{"id": "a", "base_url": "sim:x"},
        {"id": "b", "base_url": "sim:y", "notes": {"spec": "a", "spec": "b"}}],
        "experiments": [{"kind": "gates"}]})"),
             std::string("lanes[1].notes.spec: duplicate key 'spec' (only one value per key is "
                         "allowed)"));
  }
  void everyTruncationIsAnErrorNotACrash() {
    const std::string text = kProductExample;
    for (size_t n = 0; n < text.size(); ++n) {
      const PlanParseResult r = parse_plan(text.substr(0, n), "cut.json");
      QVERIFY2(!r.ok() && !r.errors.empty(), std::to_string(n).c_str());
      QVERIFY(r.errors[0].message.rfind("invalid JSON at line ", 0) == 0);
    }
  }
  void missingFile() {
    const PlanParseResult r = load_plan_file("/nonexistent/dir/plan.json");
    QCOMPARE(r.errors.size(), size_t(1));
    QCOMPARE(r.error_text(),
             std::string("/nonexistent/dir/plan.json: cannot read the plan file\n"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanParseTest)
#include "plan_parse_test.moc"
