// The resolved plan written to a run folder: every default filled in, re-readable by the parser,
// and free of secrets. API keys are read from the environment only when asked.
#include <QtTest>

#include "test_main.h"

#include <cstdlib>

#include "plan/api_key_source.h"
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
  // A keyring reference goes to the registered lookup under the referenced lane id; without one
  // (the CLI) the error says where the key is and what to do instead.
  void keyringReferenceResolvesThroughTheRegisteredLookup() {
    Lane lane;
    lane.id = "cand";
    lane.api_key_env = "keyring:cand";
    set_keyring_lookup(nullptr);
    std::string error;
    QVERIFY(!resolve_api_key(lane, &error).has_value());
    QVERIFY2(error.find("OS keyring") != std::string::npos, error.c_str());
    QVERIFY2(error.find("keyring:cand") != std::string::npos, error.c_str());
    QVERIFY2(error.find("set api_key_env") != std::string::npos, error.c_str());

    std::vector<std::string> asked;
    set_keyring_lookup([&](const std::string& id, std::string* why) -> std::optional<std::string> {
      asked.push_back(id);
      if (id == "cand") return std::string("sk-from-keyring");
      if (id == "locked") *why = "cannot read the key of lane locked: the keyring is locked";
      return std::nullopt;
    });
    QVERIFY(keyring_lookup_available());
    QCOMPARE(resolve_api_key(lane, &error).value(), std::string("sk-from-keyring"));
    lane.api_key_env = "keyring:other";
    error.clear();
    QVERIFY(!resolve_api_key(lane, &error).has_value());
    QVERIFY2(
        error.find("no key is stored in the OS keyring for keyring:other") != std::string::npos,
        error.c_str());
    lane.api_key_env = "keyring:locked";
    QVERIFY(!resolve_api_key(lane, &error).has_value());
    QCOMPARE(error, std::string("cannot read the key of lane locked: the keyring is locked"));
    QCOMPARE(asked, (std::vector<std::string>{"cand", "other", "locked"}));
    // An environment variable name never reaches the keyring.
    lane.api_key_env = "LB_TEST_UNSET_KEY_VAR";
    qunsetenv("LB_TEST_UNSET_KEY_VAR");
    QVERIFY(!resolve_api_key(lane, &error).has_value());
    QCOMPARE(error,
             std::string(
                 "environment variable LB_TEST_UNSET_KEY_VAR (api_key_env) is not set or empty"));
    QCOMPARE(asked.size(), size_t(3));
    set_keyring_lookup(nullptr);
    QVERIFY(!keyring_lookup_available());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanResolvedTest)
#include "test_plan_resolved.moc"
