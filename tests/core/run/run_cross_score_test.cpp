// Teacher-forced cross-scoring end to end over HTTP: a regression with "cross_score": true on
// simulator lanes reads each lane's answers under the other (/tokenize, then /v1/completions
// with echo and logprobs). Two lanes that answer alike agree on every token with a KL of about
// zero; a lane that flips facts loses agreement exactly at its confident changes, and the most
// surprising token is one of them. A server that refuses echo is read through prompt_logprobs,
// with the very same scores; one that refuses both, or lacks /tokenize, is "unsupported", with
// the reason. Lanes whose tokenizers differ (another vocabulary) are compared as text: every
// differing pair is tokenizer_mismatch at the character where the texts part, and neither
// direction is cross-scored.
#include <QtTest>

#include "core/net/stream_client.h"
#include "core/run/experiments/cross_scoring.h"
#include "fake_vllm.h"
#include "replay_server.h"
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
    QCOMPARE(token_section(run)["tokenizers"]["match"], "same");
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

  // The candidate's server refuses echo with logprobs: the baseline's answers are read through
  // its prompt_logprobs, and every figure equals the one echo gives on a server that allows it.
  void refusedEchoFallsBackToPromptLogprobs() {
    const std::string cand = "sim:fp8?time_scale=0.001&flip_facts=1";
    const auto echo =
        lb::test::run_sim_plan(cross_plan("sim:bf16?time_scale=0.001", cand), "lb-cross-echo");
    const auto fallback = lb::test::run_sim_plan(
        cross_plan("sim:bf16?time_scale=0.001", cand + "&refuse_echo=1"), "lb-cross-prompt-lp");
    const json a = token_section(echo)["cross_score"]["baseline_under_candidate"];
    const json b = token_section(fallback)["cross_score"]["baseline_under_candidate"];
    QCOMPARE(a["scored_with"], "echo");
    QCOMPARE(b["scored_with"], "prompt_logprobs");
    QCOMPARE(b["status"], "ok");
    QCOMPARE(b["prompts"].get<int>(), 20);
    QVERIFY(b["top1_agreement"].get<double>() < 1.0);  // the flipped facts are read as changes
    for (const char* key : {"tokens", "top1_agreeing", "top1_agreement", "mean_kl_nats",
                            "mean_abs_dlogprob_nats", "p95_abs_dlogprob_nats"})
      QVERIFY2(a[key] == b[key], key);
    QCOMPARE(token_section(fallback)["cross_score"]["candidate_under_baseline"]["scored_with"],
             "echo");
  }

  void refusingEchoAndPromptLogprobsIsUnsupported() {
    const auto run = lb::test::run_sim_plan(
        cross_plan("sim:bf16?time_scale=0.001",
                   "sim:bf16?time_scale=0.001&refuse_echo=1&refuse_prompt_logprobs=1"),
        "lb-cross-refused");
    const json cross = token_section(run)["cross_score"];
    const json& d = cross["baseline_under_candidate"];
    QCOMPARE(d["status"], "unsupported");
    const std::string reason = d["reason"];
    QVERIFY2(reason.rfind("cross-scoring unsupported: ", 0) == 0, reason.c_str());
    QVERIFY2(reason.find("echo and logprobs") != std::string::npos, reason.c_str());
    QVERIFY2(reason.find("prompt_logprobs is not supported") != std::string::npos, reason.c_str());
    QCOMPARE(d["scored_with"], "prompt_logprobs");  // the last way tried
    QCOMPARE(cross["candidate_under_baseline"]["status"], "ok");
    QVERIFY(run.sink->has_message_containing("cross-scoring unsupported"));
  }

  void differentTokenizersAreComparedAsText() {
    const auto run = lb::test::run_sim_plan(
        cross_plan("sim:bf16?time_scale=0.001",
                   "sim:fp8?time_scale=0.001&flip_facts=1&token_id_offset=1000"),
        "lb-cross-vocab");
    const json tokens = token_section(run);
    QCOMPARE(tokens["tokenizers"]["match"], "different");
    const std::string why = tokens["tokenizers"]["reason"];
    QVERIFY2(why.find("/tokenize of the same text gave different ids") != std::string::npos,
             why.c_str());
    const json& counts = tokens["counts"];
    QCOMPARE(counts["near_tie"].get<int>(), 0);
    QCOMPARE(counts["confident_change"].get<int>(), 0);
    QVERIFY(counts["tokenizer_mismatch"].get<int>() > 0);
    QCOMPARE(counts["tokenizer_mismatch"].get<int>() + counts["identical"].get<int>(), 20);
    // Every differing pair: compared by text, at the first character where the texts part.
    const json& a = run.texts.at("bf16");
    const json& b = run.texts.at("cand");
    for (const json& p : run.tokens["pairs"]) {
      const size_t i = p["index"];
      const std::string ta = a[i], tb = b[i];
      if (ta == tb) {
        QCOMPARE(p["class"], "identical");
        continue;
      }
      QCOMPARE(p["class"], "tokenizer_mismatch");
      QCOMPARE(p["aligned_by"], "text");
      size_t common = 0;
      while (common < ta.size() && common < tb.size() && ta[common] == tb[common]) ++common;
      const auto chars = QString::fromStdString(ta.substr(0, common)).toUcs4().size();
      QCOMPARE(p["char_offset_baseline"].get<qsizetype>(), chars);
      QVERIFY(std::string(p["reason"]).find("tokenizers differ") != std::string::npos);
    }
    for (const char* dir : {"candidate_under_baseline", "baseline_under_candidate"}) {
      const json& d = tokens["cross_score"][dir];
      QCOMPARE(d["status"], "unsupported");
      QVERIFY(std::string(d["reason"]).find("tokenizers differ") != std::string::npos);
      QVERIFY(d["scored_with"].is_null());  // no scoring request was sent
    }
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
