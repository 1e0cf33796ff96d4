// trials, lane_order and performance_gates in a plan: defaults, what plan.json records, and each
// mistake reported at its JSON path.
#include <QtTest>

#include "test_main.h"

#include <nlohmann/json.hpp>

#include "core/plan/plan.h"

using namespace lb::plan;
using nlohmann::json;

namespace {

json trials_plan_with(const json& experiment) {
  return {{"name", "trials"},
          {"lanes",
           {{{"id", "base"}, {"base_url", "sim:bf16"}}, {{"id", "cand"}, {"base_url", "sim:fp8"}}}},
          {"experiments", {experiment}}};
}

json trials_throughput(const json& extra) {
  json e = {{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 4}};
  for (auto& [k, v] : extra.items()) e[k] = v;
  return e;
}

PlanParseResult trials_parse(const json& experiment) {
  return parse_plan(trials_plan_with(experiment).dump(), "plan.json");
}

// The one error expected, as "PATH: MESSAGE".
std::string trials_only_error(const json& experiment) {
  const PlanParseResult r = trials_parse(experiment);
  if (r.errors.size() != 1) return "expected one error, got:\n" + r.error_text();
  return r.errors[0].path + ": " + r.errors[0].message;
}

bool trials_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

class PlanTrialsTest : public QObject {
  Q_OBJECT
 private slots:
  void oneTrialRunsTheLanesOneAfterTheOther() {
    const PlanParseResult r = trials_parse(trials_throughput(json::object()));
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.plan->experiments[0].trials, int64_t(1));
    QVERIFY(r.plan->experiments[0].lane_order == LaneOrder::Sequential);
    const json resolved = resolved_plan_json(*r.plan);
    QCOMPARE(resolved["experiments"][0]["trials"], 1);
    QCOMPARE(resolved["experiments"][0]["lane_order"], "sequential");
  }

  void repeatedTrialsInterleaveByDefault() {
    for (const char* kind : {"throughput", "speculative", "context_sweep", "prefix_cache"}) {
      json e = {{"kind", kind}, {"trials", 5}};
      if (std::string(kind) == "throughput") e = trials_throughput({{"trials", 5}});
      if (std::string(kind) == "context_sweep") e["prompt_tokens"] = {1024};
      const PlanParseResult r = trials_parse(e);
      QVERIFY2(r.ok(), r.error_text().c_str());
      QCOMPARE(r.plan->experiments[0].trials, int64_t(5));
      QVERIFY2(r.plan->experiments[0].lane_order == LaneOrder::Interleaved, kind);
    }
  }

  void laneOrderIsRead() {
    for (const char* order : {"sequential", "interleaved", "parallel"}) {
      const PlanParseResult r =
          trials_parse(trials_throughput({{"trials", 3}, {"lane_order", order}}));
      QVERIFY2(r.ok(), r.error_text().c_str());
      QCOMPARE(std::string(to_string(r.plan->experiments[0].lane_order)), std::string(order));
      QCOMPARE(resolved_plan_json(*r.plan)["experiments"][0]["lane_order"], order);
    }
  }

  void badTrialOptionsAreReported() {
    QCOMPARE(trials_only_error(trials_throughput({{"trials", 0}})),
             std::string("experiments[0].trials: must be >= 1 (got 0)"));
    const std::string order = trials_only_error(trials_throughput({{"lane_order", "zigzag"}}));
    QVERIFY2(trials_contains(order, "experiments[0].lane_order: unknown lane order 'zigzag'"),
             order.c_str());
    const std::string kind = trials_only_error({{"kind", "regression"}, {"trials", 3}});
    QVERIFY2(trials_contains(kind,
                             "experiments[0].trials: applies to throughput, speculative, "
                             "context_sweep and prefix_cache experiments, not regression"),
             kind.c_str());
    json doubling = {{"kind", "throughput"},
                     {"requests", 4},
                     {"trials", 2},
                     {"concurrency_doubling", json::object()}};
    const std::string d = trials_only_error(doubling);
    QVERIFY2(
        trials_contains(d, "experiments[0].trials: cannot repeat a concurrency_doubling sweep"),
        d.c_str());
  }

  void performanceGatesAreRead() {
    const json gate = {{"figure", "median_decode_tok_s"},
                       {"candidate", "cand"},
                       {"baseline", "base"},
                       {"min_ratio", 0.98},
                       {"phase", "c1"}};
    const PlanParseResult r = trials_parse(trials_throughput({{"performance_gates", {gate}}}));
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& g = r.plan->experiments[0].performance_gates;
    QCOMPARE(g.size(), size_t(1));
    QCOMPARE(g[0].figure, std::string("median_decode_tok_s"));
    QCOMPARE(g[0].candidate, std::string("cand"));
    QCOMPARE(g[0].baseline, std::string("base"));
    QCOMPARE(g[0].phase, std::string("c1"));
    QCOMPARE(g[0].min_ratio, 0.98);
    QVERIFY(g[0].max_ratio < 0);
    QCOMPARE(resolved_plan_json(*r.plan)["experiments"][0]["performance_gates"][0], gate);
  }

  void badGatesAreReported() {
    const json good = {{"figure", "median_ttft_ms"},
                       {"candidate", "cand"},
                       {"baseline", "base"},
                       {"max_ratio", 1.1}};
    auto with = [&](const json& change) {
      json g = good;
      for (auto& [k, v] : change.items())
        if (v.is_null())
          g.erase(k);
        else
          g[k] = v;
      return trials_throughput({{"performance_gates", {g}}});
    };
    const std::string fig = trials_only_error(with({{"figure", "median_decode_toks"}}));
    QVERIFY2(trials_contains(fig,
                             "experiments[0].performance_gates[0].figure: unknown figure "
                             "'median_decode_toks' (did you mean 'median_decode_tok_s'?)"),
             fig.c_str());
    const std::string lane = trials_only_error(with({{"candidate", "cnad"}}));
    QVERIFY2(trials_contains(lane,
                             "performance_gates[0].candidate: 'cnad' is not a lane of this "
                             "experiment (did you mean 'cand'?)"),
             lane.c_str());
    const std::string same = trials_only_error(with({{"baseline", "cand"}}));
    QVERIFY2(trials_contains(same, "performance_gates[0].baseline: must differ from candidate"),
             same.c_str());
    const std::string none = trials_only_error(with({{"max_ratio", nullptr}}));
    QVERIFY2(trials_contains(none, "performance_gates[0]: needs min_ratio"), none.c_str());
    const std::string both = trials_only_error(with({{"min_ratio", 0.9}}));
    QVERIFY2(trials_contains(both, "performance_gates[0]: takes min_ratio or max_ratio, not both"),
             both.c_str());
    const std::string zero = trials_only_error(with({{"max_ratio", 0}}));
    QVERIFY2(trials_contains(zero, "performance_gates[0].max_ratio"), zero.c_str());
    const std::string unknown = trials_only_error(with({{"min_ration", 1}, {"max_ratio", 1.1}}));
    QVERIFY2(trials_contains(unknown, "min_ration"), unknown.c_str());
    json subset = with(json::object());
    subset["lanes"] = {"base"};
    const std::string outside = trials_only_error(subset);
    QVERIFY2(trials_contains(outside,
                             "performance_gates[0].candidate: 'cand' is not a lane of this "
                             "experiment"),
             outside.c_str());
    const std::string regression =
        trials_only_error({{"kind", "regression"}, {"performance_gates", {good}}});
    QVERIFY2(trials_contains(regression, "experiments[0].performance_gates: applies to throughput"),
             regression.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanTrialsTest)
#include "plan_trials_test.moc"
