// Teacher-forced cross-scoring end to end over HTTP: a regression with "cross_score": true on
// simulator lanes reads each lane's answers under the other (/tokenize, then /v1/completions
// with echo and logprobs). Two lanes that answer alike agree on every token with a KL of about
// zero; a lane that flips facts loses agreement exactly at its confident changes, and the most
// surprising token is one of them. A server without /tokenize is "unsupported", with the reason.
#include <QtTest>

#include "fake_vllm.h"
#include "net/stream_client.h"
#include "replay_server.h"
#include "run/cross_scoring.h"
#include "sim_plan_run.h"
#include "test_main.h"

namespace {

using nlohmann::json;

json cross_plan(const std::string& base, const std::string& cand, json extra = json::object()) {
  json exp = {{"kind", "regression"},
              {"prompts", "builtin:regression-20"},
              {"concurrency", 4},
              {"cross_score", true}};
  exp.update(extra);
  return {{"name", "cross"},
          {"lanes", {{{"id", "bf16"}, {"base_url", base}}, {{"id", "cand"}, {"base_url", cand}}}},
          {"experiments", {exp}}};
}

json token_section(const lb::test::SimRun& run) {
  const json reg = run.experiment("regression");
  return reg["comparisons"][0]["token_divergence"];
}

}  // namespace

class TestCrossScore : public QObject {
  Q_OBJECT
 private slots:
  void identicalLanesAgreeOnEveryToken() {
    const auto run = lb::test::run_sim_plan(
        cross_plan("sim:bf16?time_scale=0.001", "sim:bf16?time_scale=0.001"), "lb-cross-same");
    const json cross = token_section(run)["cross_score"];
    QVERIFY2(cross.is_object(), qPrintable(QString::fromStdString(token_section(run).dump())));
    QVERIFY(std::string(cross["kl_tail_rule"]).find("tail bucket") != std::string::npos);
    for (const char* dir : {"candidate_under_baseline", "baseline_under_candidate"}) {
      const json& d = cross[dir];
      QCOMPARE(d["status"].get<std::string>(), std::string("ok"));
      QCOMPARE(d["prompts"].get<int>(), 20);
      QVERIFY(d["tokens"].get<int>() > 200);
      QCOMPARE(d["top1_agreeing"].get<int>(), d["tokens"].get<int>());
      QCOMPARE(d["top1_agreement"].get<double>(), 1.0);
      QVERIFY(d["mean_kl_nats"].get<double>() < 1e-4);
      QVERIFY(d["mean_abs_dlogprob_nats"].get<double>() < 1e-4);
    }
  }

  void flippedFactsAreTheSurprises() {
    const auto run = lb::test::run_sim_plan(
        cross_plan("sim:bf16?time_scale=0.001", "sim:fp8?time_scale=0.001&flip_facts=1",
                   {{"min_top1_agreement", 0.5}}),
        "lb-cross-flip");
    const json tokens = token_section(run);
    const json& d = tokens["cross_score"]["candidate_under_baseline"];
    QCOMPARE(d["status"].get<std::string>(), std::string("ok"));
    const int total = d["tokens"];
    const int agreeing = d["top1_agreeing"];
    // The candidate departs from the baseline's top-1 once per answer that parts from the
    // baseline's (a length change counts only where the baseline stopped first), then the
    // baseline reads on in the candidate's own context.
    const json& counts = tokens["counts"];
    const int departures = counts["near_tie"].get<int>() + counts["confident_change"].get<int>();
    QVERIFY(departures > 0);
    QVERIFY(total - agreeing >= departures);
    QVERIFY(total - agreeing <= departures + counts["length_change"].get<int>());
    QVERIFY(d["top1_agreement"].get<double>() < 1.0);
    QVERIFY(d["mean_kl_nats"].get<double>() > 1e-3);
    QVERIFY(d["p95_abs_dlogprob_nats"].get<double>() >= 0);
    // The most surprising token is the candidate's token at one of its confident changes.
    const json& m = d["most_surprising"];
    bool at_change = false;
    for (const auto& c : tokens["confident_changes"])
      at_change = at_change || (c["index"] == m["index"] && c["token_index"] == m["token_index"] &&
                                c["token_candidate"] == m["token"]);
    QVERIFY2(at_change, qPrintable(QString::fromStdString(m.dump())));
    QVERIFY(m["scorer_logprob"].get<double>() < -5);
    QVERIFY(!m["token"].get<std::string>().empty());
  }

  void aServerWithoutTokenizeIsUnsupported() {
    lb::test::FakeVllm server;
    lb::net::StreamClient client;
    lb::run::LaneEndpoint lane = lb::run::endpoint_from_base_url("replay", server.base_url());
    lane.model = "test-org/test-model-8b";
    const auto r = lb::run::score_answer(client, lane, lb::run::ServerKind::Vllm,
                                         {{"user", "What is 2+2?"}}, {1, 2, 3}, 5);
    QCOMPARE(r.status, std::string("unsupported"));
    QVERIFY2(r.reason.find("/tokenize") != std::string::npos, r.reason.c_str());
    QVERIFY2(r.reason.find("404") != std::string::npos, r.reason.c_str());
    QVERIFY(r.tokens.empty());
  }

  // A server that refuses the key quotes it back (as OpenAI's API does); the reason, which goes
  // into tokens.json and the summary, does not.
  void aRefusedKeyStaysOutOfTheReason() {
    const std::string key = "sk-cross-score-secret-123456";
    lb::test::ReplayServer server([](const lb::test::ServedRequest& request) {
      const std::string auth = request.header("authorization");
      return lb::test::error_script(401, "{\"error\":{\"message\":\"Incorrect API key provided: " +
                                             auth.substr(auth.find(' ') + 1) + "\"}}");
    });
    lb::net::StreamClient client;
    lb::run::LaneEndpoint lane =
        lb::run::endpoint_from_base_url("refusing", server.base_url() + "/v1");
    lane.model = "m";
    lb::run::set_api_key(lane, key);
    const auto r = lb::run::score_answer(client, lane, lb::run::ServerKind::Vllm,
                                         {{"user", "What is 2+2?"}}, {1, 2, 3}, 5);
    QCOMPARE(r.status, std::string("failed"));
    QVERIFY2(r.reason.find("401") != std::string::npos, r.reason.c_str());
    QVERIFY2(r.reason.find("Incorrect API key") != std::string::npos, r.reason.c_str());
    QVERIFY2(r.reason.find(key) == std::string::npos, r.reason.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestCrossScore)
#include "run_cross_score_test.moc"
