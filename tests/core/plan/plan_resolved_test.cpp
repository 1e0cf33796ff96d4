// The resolved plan written to a run folder: every default filled in, re-readable by the parser,
// and free of secrets. API keys are read from the environment only when asked.
#include <QtTest>

#include "test_main.h"

#include <cstdlib>

#include "core/plan/api_key_source.h"
#include "core/plan/key_transport.h"
#include "core/plan/plan.h"
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
    const Environment env = Environment()
                                .with("LB_TEST_CAND_KEY", "sk-very-secret-value")
                                .allowing_key("LB_TEST_CAND_KEY");
    const Plan plan = parsed(kResolvedPlan);
    QCOMPARE(resolve_api_key(*plan.lane("cand"), env).value_or(""),
             std::string("sk-very-secret-value"));
    const std::string text = resolved_plan_json(plan).dump();
    QVERIFY(text.find("sk-very-secret-value") == std::string::npos);
    QVERIFY(text.find("LB_TEST_CAND_KEY") != std::string::npos);
  }
  void apiKeyIsReadAtCallTime() {
    const Plan plan = parsed(kResolvedPlan);
    const Lane& cand = *plan.lane("cand");
    const Environment none = Environment().allowing_key("LB_TEST_CAND_KEY");
    QVERIFY(!resolve_api_key(cand, none).has_value());
    QCOMPARE(resolve_api_key(cand, none.with("LB_TEST_CAND_KEY", "first")).value(),
             std::string("first"));
    QCOMPARE(resolve_api_key(cand, none.with("LB_TEST_CAND_KEY", "rotated")).value(),
             std::string("rotated"));
    QVERIFY(!resolve_api_key(cand, none.with("LB_TEST_CAND_KEY", "")).has_value());
    // names no variable
    QVERIFY(!resolve_api_key(*plan.lane("base"), none.with("LB_TEST_CAND_KEY", "x")).has_value());
  }
  // A keyring reference goes to the registered lookup under the referenced lane id; without one
  // (the CLI) the error says where the key is and what to do instead.
  void keyringReferenceResolvesThroughTheRegisteredLookup() {
    Lane lane;
    lane.id = "cand";
    lane.api_key_env = "keyring:cand";
    set_keyring_lookup(nullptr);
    std::string error;
    QVERIFY(!resolve_api_key(lane, Environment(), &error).has_value());
    QVERIFY2(error.find("OS keyring") != std::string::npos, error.c_str());
    QVERIFY2(error.find("keyring:cand") != std::string::npos, error.c_str());
    QVERIFY2(error.find("set api_key_env") != std::string::npos, error.c_str());

    std::vector<std::string> asked;
    set_keyring_lookup(
        [&](const KeyringItem& item, std::string* why) -> std::optional<std::string> {
          asked.push_back(item.lane_id + "@" + item.host);
          if (item.lane_id == "cand" && item.host == "gpu-a.example.com")
            return std::string("sk-from-keyring");
          if (item.lane_id == "locked")
            *why = "cannot read the key of lane locked: the keyring is locked";
          return std::nullopt;
        });
    QVERIFY(keyring_lookup_available());
    lane.base_url = "https://GPU-A.example.com:8443/v1";
    QCOMPARE(resolve_api_key(lane, Environment(), &error).value(), std::string("sk-from-keyring"));
    // The same lane pointed at another host finds no key: it is asked for again.
    lane.base_url = "https://gpu-b.example.com/v1";
    error.clear();
    QVERIFY(!resolve_api_key(lane, Environment(), &error).has_value());
    QVERIFY2(error.find("no key is stored in the OS keyring for keyring:cand at "
                        "gpu-b.example.com in this workspace") != std::string::npos,
             error.c_str());
    // A lane reads only its own item; the lookup is not even asked.
    lane.api_key_env = "keyring:other";
    QVERIFY(!resolve_api_key(lane, Environment(), &error).has_value());
    QVERIFY2(error.find("keyring:other names another lane's key") != std::string::npos,
             error.c_str());
    lane.id = "locked";
    lane.base_url = "sim:fp8";
    lane.api_key_env = "keyring:locked";
    QVERIFY(!resolve_api_key(lane, Environment(), &error).has_value());
    QCOMPARE(error, std::string("cannot read the key of lane locked: the keyring is locked"));
    QCOMPARE(asked, (std::vector<std::string>{"cand@gpu-a.example.com", "cand@gpu-b.example.com",
                                              "locked@sim"}));
    // An environment variable name never reaches the keyring.
    lane.api_key_env = "LB_TEST_UNSET_KEY";
    QVERIFY(!resolve_api_key(lane, Environment().allowing_key("LB_TEST_UNSET_KEY"), &error)
                 .has_value());
    QCOMPARE(
        error,
        std::string("environment variable LB_TEST_UNSET_KEY (api_key_env) is not set or empty"));
    QCOMPARE(asked.size(), size_t(3));
    set_keyring_lookup(nullptr);
    QVERIFY(!keyring_lookup_available());
  }

  // Security: api_key_env refused HOME and AWS_SECRET_ACCESS_KEY but sent any *_KEY/*_TOKEN
  // (HF_TOKEN, SLACK_BOT_TOKEN, STRIPE_SECRET_KEY, ANTHROPIC_API_KEY, ...) to the plan's server.
  // A variable is sent only where the user allowed it, for any host or for the lane's host.
  void keyVariablesAreSentOnlyWhereAllowed() {
    Lane lane;
    lane.id = "cand";
    lane.base_url = "https://GPU-A.example.com/v1";
    Environment env;
    for (const char* name :
         {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "SLACK_BOT_TOKEN", "STRIPE_SECRET_KEY",
          "NODE_AUTH_TOKEN", "CODECOV_TOKEN", "CLOUDFLARE_API_TOKEN", "ANTHROPIC_API_KEY",
          "OPENAI_API_KEY", "FP8_KEY", "HOME", "AWS_SECRET_ACCESS_KEY"}) {
      env = env.with(name, std::string("sk-not-for-a-stranger-") + name);
      lane.api_key_env = name;
      std::string error;
      QVERIFY2(!resolve_api_key(lane, env, &error).has_value(), name);
      QVERIFY2(error.find(std::string("api_key_env names ") + name) != std::string::npos,
               error.c_str());
      QVERIFY2(error.find("would be sent to gpu-a.example.com") != std::string::npos,
               error.c_str());
      QVERIFY2(
          error.find(std::string("lanebench-cli run --allow-env ") + name) != std::string::npos,
          error.c_str());
      QVERIFY(error.find("sk-not-for-a-stranger") == std::string::npos);
    }
    lane.api_key_env = "FP8_KEY";
    std::string error;
    // Allowed for another host: still refused. For this host, or any: sent.
    QVERIFY(!resolve_api_key(lane, env.allowing_key("FP8_KEY", "gpu-b.example.com"), &error));
    QCOMPARE(resolve_api_key(lane, env.allowing_key("FP8_KEY", "gpu-a.example.com"), &error)
                 .value_or(""),
             std::string("sk-not-for-a-stranger-FP8_KEY"));
    QCOMPARE(resolve_api_key(lane, env.allowing_key("FP8_KEY"), &error).value_or(""),
             std::string("sk-not-for-a-stranger-FP8_KEY"));
    // Allowing one variable allows no other.
    lane.api_key_env = "HF_TOKEN";
    QVERIFY(!resolve_api_key(lane, env.allowing_key("FP8_KEY"), &error));
  }

  // Plain http carries a key only to loopback, or where the lane allows it.
  void keysCrossTheNetworkOnlyEncrypted() {
    QCOMPARE(url_host("http://user:pw@GPU.example.com:8000/v1"), std::string("GPU.example.com"));
    QCOMPARE(url_host("http://[::1]:8000/v1"), std::string("::1"));
    QCOMPARE(url_host("https://10.0.0.5/v1?x=1"), std::string("10.0.0.5"));
    QCOMPARE(url_host("sim:fp8"), std::string());
    for (const char* host : {"127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1"})
      QVERIFY2(is_loopback_host(host), host);
    for (const char* host : {"127.0.0.1.evil.com", "10.0.0.1", "0.0.0.0", "example.com", "", "::"})
      QVERIFY2(!is_loopback_host(host), host);
    Lane lane;
    lane.id = "cand";
    lane.api_key_env = "CAND_KEY";
    lane.base_url = "http://gpu.example.com:8000/v1";
    QVERIFY(key_goes_over_plain_http(lane));
    QVERIFY(key_transport_refusal(lane).find("plain http to gpu.example.com") != std::string::npos);
    lane.allow_key_over_http = true;
    QVERIFY(key_transport_refusal(lane).empty());
    lane.allow_key_over_http = false;
    for (const char* fine : {"https://gpu.example.com/v1", "http://127.0.0.1:8000/v1",
                             "http://localhost:8000/v1", "http://[::1]:8000/v1"}) {
      lane.base_url = fine;
      QVERIFY2(key_transport_refusal(lane).empty(), fine);
    }
    lane.base_url = "http://gpu.example.com:8000/v1";
    lane.api_key_env.clear();  // no key, nothing to protect
    QVERIFY(key_transport_refusal(lane).empty());
    // The flag is part of the lane in a plan and survives the resolved plan.
    const nlohmann::json throughput = {
        {"kind", "throughput"}, {"concurrency", {1}}, {"requests", 1}};
    nlohmann::json lane_json = {{"id", "a"},
                                {"base_url", "http://gpu.example.com/v1"},
                                {"api_key_env", "A_KEY"},
                                {"allow_key_over_http", true}};
    const Plan plan =
        parsed(nlohmann::json{{"name", "p"}, {"lanes", {lane_json}}, {"experiments", {throughput}}}
                   .dump());
    QVERIFY(plan.lanes[0].allow_key_over_http);
    QCOMPARE(resolved_plan_json(plan)["lanes"][0]["allow_key_over_http"], nlohmann::json(true));
    // A keyring reference must name the lane itself.
    lane_json = {{"id", "a"}, {"base_url", "sim:fp8"}, {"api_key_env", "keyring:b"}};
    const PlanParseResult other = parse_plan(
        nlohmann::json{{"name", "p"}, {"lanes", {lane_json}}, {"experiments", {throughput}}}.dump(),
        "p");
    QVERIFY(!other.ok());
    QVERIFY2(other.error_text().find("names another lane's key") != std::string::npos,
             other.error_text().c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanResolvedTest)
#include "plan_resolved_test.moc"
