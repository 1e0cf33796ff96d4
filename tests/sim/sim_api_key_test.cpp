// A lane started with api_key_env behaves like `vllm serve --api-key`: the /v1 routes answer 401
// {"error":"Unauthorized"} unless the request carries "Authorization: Bearer <key>"; /health and
// /metrics stay open; the key is read from the environment and an unset variable is an error.
#include <QtTest>

#include "test_main.h"

#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

class SimApiKeyTest : public QObject {
  Q_OBJECT
 private slots:
  void v1_routes_need_the_bearer_key() {
    const EnvLookup env = [](std::string_view name) -> std::optional<std::string> {
      if (name == "LB_SIM_TEST_KEY") return "sk-sim-test-4f1c";
      return std::nullopt;
    };
    auto server = start_server("fp8?time_scale=0.01&api_key_env=LB_SIM_TEST_KEY", nullptr, env);
    QVERIFY(server);
    const uint16_t port = server->port();
    const std::string body = chat_body("Hello there.", {{"stream", true}, {"max_tokens", 3}});
    const auto anonymous = http_request(port, "POST", "/v1/chat/completions", body);
    QCOMPARE(anonymous.status, 401);
    QCOMPARE(json::parse(anonymous.body), json({{"error", "Unauthorized"}}));
    QCOMPARE(
        http_request(port, "GET", "/v1/models", "", {{"Authorization", "Bearer wrong"}}).status,
        401);
    QCOMPARE(
        http_request(port, "GET", "/v1/models", "", {{"Authorization", "Bearer sk-sim-test-4f1c"}})
            .status,
        200);
    const auto keyed = http_request(port, "POST", "/v1/chat/completions", body,
                                    {{"Authorization", "Bearer sk-sim-test-4f1c"}});
    QCOMPARE(keyed.status, 200);
    QVERIFY(keyed.complete);
    QCOMPARE(http_request(port, "GET", "/health").status, 200);
    QCOMPARE(http_request(port, "GET", "/metrics").status, 200);
  }

  void unset_variable_is_an_error_naming_it() {
    const EnvLookup nothing_set = [](std::string_view) { return std::optional<std::string>(); };
    auto parsed = parse_lane_spec("fp8?api_key_env=LB_SIM_TEST_NO_KEY", nothing_set);
    QVERIFY(std::holds_alternative<std::string>(parsed));
    QVERIFY(std::get<std::string>(parsed).find("LB_SIM_TEST_NO_KEY") != std::string::npos);
    // Without the option nothing is asked for.
    auto open = start_server("fp8?time_scale=0.01");
    QVERIFY(open);
    QCOMPARE(http_request(open->port(), "GET", "/v1/models").status, 200);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimApiKeyTest)
#include "sim_api_key_test.moc"
