// The resolved plan written to a run folder: every default filled in, re-readable by the parser,
// and free of secrets. API keys are read from the environment only when asked.
#include <QtTest>

#include <cstdlib>

#include "plan/plan.h"
#include "plan_test_texts.h"

using namespace lb::plan;

namespace {

Plan parsed(const std::string& text) {
  PlanParseResult r = parse_plan(text, "plan.json");
  if (!r.ok()) qFatal("%s", r.error_text().c_str());
  return *r.plan;
}
}  // namespace

class PlanResolvedTest : public QObject {
  Q_OBJECT
 private slots:
  void defaultsAreWrittenOut() {
    const nlohmann::json j = resolved_plan_json(parsed(kResolvedPlan));
    QCOMPARE(j.at("description").get<std::string>(), std::string("two lanes"));
    const auto& lanes = j.at("lanes");
    QCOMPARE(lanes[0].at("model").get<std::string>(), std::string("auto"));
    QCOMPARE(lanes[0].at("http_version").get<std::string>(), std::string("auto"));
    QCOMPARE(lanes[0].at("insecure").get<bool>(), false);
    QVERIFY(!lanes[0].contains("api_key_env"));
    QCOMPARE(lanes[1].at("insecure").get<bool>(), true);
    QCOMPARE(lanes[1].at("http_version").get<std::string>(), std::string("2"));
    const auto& open = j.at("experiments")[0];
    QCOMPARE(open.at("name").get<std::string>(), std::string("throughput"));
    QCOMPARE(open.at("request_rate").get<double>(), 8.0);
    QCOMPARE(open.at("max_concurrency").get<int64_t>(), int64_t(64));
    QVERIFY(!open.contains("concurrency"));
    QVERIFY(!open.contains("requests"));
    QCOMPARE(open.at("warmups").get<int64_t>(), int64_t(1));
    QCOMPARE(open.at("slo"), nlohmann::json({{"ttft_ms", 500.0}, {"tpot_ms", 50.0}}));
    const auto& sweep = j.at("experiments")[1];
    QCOMPARE(sweep.at("lanes"), nlohmann::json({"cand"}));
    QCOMPARE(sweep.at("requests").get<int64_t>(), int64_t(64));
    QCOMPARE(sweep.at("input_tokens").get<int64_t>(), int64_t(1024));
    QVERIFY(!sweep.contains("slo"));
    QCOMPARE(j.at("experiments")[3].at("shared_prefix_tokens").get<int64_t>(), int64_t(4096));
    QCOMPARE(j.at("experiments")[4].at("concurrency"), nlohmann::json({1, 5}));
    QCOMPARE(j.at("experiments")[5].at("max_tokens").get<int64_t>(), int64_t(256));
  }
  void roundTripsThroughTheParser() {
    const nlohmann::json once = resolved_plan_json(parsed(kResolvedPlan));
    const PlanParseResult again = parse_plan(once.dump(2), "resolved.json");
    QVERIFY2(again.ok(), again.error_text().c_str());
    QCOMPARE(resolved_plan_json(*again.plan), once);
  }
  void noSecretEverReachesTheResolvedPlan() {
    qputenv("LB_TEST_CAND_KEY", "sk-very-secret-value");
    const Plan plan = parsed(kResolvedPlan);
    const std::string text = resolved_plan_json(plan).dump();
    QVERIFY(text.find("sk-very-secret-value") == std::string::npos);
    QVERIFY(text.find("LB_TEST_CAND_KEY") != std::string::npos);
    qunsetenv("LB_TEST_CAND_KEY");
  }
  void apiKeyIsReadAtCallTime() {
    const Plan plan = parsed(kResolvedPlan);
    const Lane& cand = *plan.lane("cand");
    qunsetenv("LB_TEST_CAND_KEY");
    QVERIFY(!resolve_api_key(cand).has_value());
    qputenv("LB_TEST_CAND_KEY", "first");
    QCOMPARE(resolve_api_key(cand).value(), std::string("first"));
    qputenv("LB_TEST_CAND_KEY", "rotated");
    QCOMPARE(resolve_api_key(cand).value(), std::string("rotated"));
    qputenv("LB_TEST_CAND_KEY", "");
    QVERIFY(!resolve_api_key(cand).has_value());
    QVERIFY(!resolve_api_key(*plan.lane("base")).has_value());  // names no variable
    qunsetenv("LB_TEST_CAND_KEY");
  }
};

QTEST_GUILESS_MAIN(PlanResolvedTest)
#include "test_plan_resolved.moc"
