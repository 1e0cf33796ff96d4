// Multi-turn sessions on simulator lanes over HTTP: every turn carries the whole history (the
// lane's own answers included), so on a caching lane the later turns find almost all of their
// prompt in the prefix cache and reach their first token sooner than the first turn; with
// caching off nothing is reused. ShareGPT files run their user turns; bad ones are plan errors
// naming the file and the position.
#include <QtTest>

#include <fstream>
#include <map>

#include "test_main.h"

#include "core/plan/sharegpt_file.h"
#include "sim_plan_run.h"
#include "test_paths.h"

namespace {

// Time scale 0.1: a cold 8,000-token prefill takes tens of ms of modelled time, well above a
// loaded machine's scheduling noise, while a whole run stays a few seconds.
nlohmann::json synthetic_plan() {
  return {{"name", "sessions"},
          {"lanes",
           {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}},
            {{"id", "nocache"}, {"base_url", "sim:fp8-nocache?time_scale=0.1"}}}},
          {"experiments",
           {{{"kind", "sessions"},
             {"sessions", 2},
             {"total_sessions", 3},
             {"turns", 3},
             {"system_prompt_tokens", 8000},
             {"user_tokens_per_turn", 64},
             {"output_tokens", 16},
             {"think_time_s", 0.05}}}}};
}

const nlohmann::json& turn_of(const nlohmann::json& lane, int turn) {
  return lane["sessions"]["per_turn"].at(static_cast<size_t>(turn));
}

}  // namespace

class TestSessionsExperiment : public QObject {
  Q_OBJECT
 private slots:
  void laterTurnsHitTheCacheOnlyOnACachingLane() {
    const auto run = lb::test::run_sim_plan(synthetic_plan(), "lb-exp-sessions");
    QCOMPARE(run.result.exit_code, 0);
    const auto e = run.experiment("sessions");
    const auto fp8 = e["lanes"]["fp8"];
    const auto nocache = e["lanes"]["nocache"];
    QCOMPARE(fp8["sessions"]["per_turn"].size(), size_t{3});
    for (int t = 0; t < 3; ++t) {
      qInfo("turn %d: fp8 ttft p50 %.1f ms cached %s | nocache ttft p50 %.1f ms cached %s", t,
            double(turn_of(fp8, t)["ttft_p50_ms"]), turn_of(fp8, t)["cached_share"].dump().c_str(),
            double(turn_of(nocache, t)["ttft_p50_ms"]),
            turn_of(nocache, t)["cached_share"].dump().c_str());
      QCOMPARE(turn_of(fp8, t)["requests"], 3);
      QCOMPARE(turn_of(fp8, t)["failed"], 0);
    }
    const double fp8_first = turn_of(fp8, 0)["ttft_p50_ms"];
    for (int t = 1; t < 3; ++t) {
      QCOMPARE(turn_of(fp8, t)["cached_share"]["provenance"], "server");
      QVERIFY(double(turn_of(fp8, t)["cached_share"]["value"]) > 0.8);
      QVERIFY2(double(turn_of(fp8, t)["ttft_p50_ms"]) < 0.5 * fp8_first,
               "a later turn reuses the history and starts sooner than the first");
      // Without a cache a later turn prefills its whole, longer history again.
      QVERIFY(double(turn_of(nocache, t)["ttft_p50_ms"]) >
              0.75 * double(turn_of(nocache, 0)["ttft_p50_ms"]));
      QVERIFY(double(turn_of(nocache, t)["ttft_p50_ms"]) >
              3 * double(turn_of(fp8, t)["ttft_p50_ms"]));
      const auto& share = turn_of(nocache, t)["cached_share"];
      QVERIFY2(share.is_null() || double(share["value"]) < 0.05, share.dump().c_str());
    }
    // Each session has its own system prompt: the first turn is cold on the caching lane too.
    QVERIFY(double(turn_of(fp8, 0)["cached_share"]["value"]) < 0.2);
    const auto counters = nocache["sessions"]["prefix_cache_counters"];
    if (!counters.is_null()) QCOMPARE(double(counters["prefix_cache_hits"]), 0.0);
    QVERIFY(double(fp8["sessions"]["prefix_cache_counters"]["hit_rate"]["value"]) > 0.5);
    // Whole sessions: three turns and two think times each.
    for (const auto& lane : {fp8, nocache}) {
      QCOMPARE(lane["sessions"]["sessions_completed"], 3);
      QCOMPARE(lane["sessions"]["sessions_failed"], 0);
      QVERIFY(double(lane["sessions"]["session_e2e_p50_s"]) > 0.1);
      QVERIFY(double(lane["sessions"]["session_e2e_p99_s"]) >=
              double(lane["sessions"]["session_e2e_p50_s"]));
    }
  }

  void requestsCarryTheirSessionAndTurnAndTheGrowingHistory() {
    const auto run = lb::test::run_sim_plan(synthetic_plan(), "lb-exp-sessions-requests");
    QCOMPARE(run.result.exit_code, 0);
    std::map<std::pair<std::string, int64_t>, std::vector<nlohmann::json>> by_session;
    for (const auto& r : run.requests) {
      if (r["experiment"] != "sessions") continue;
      by_session[{r["lane"], r["session"].get<int64_t>()}].push_back(r);
    }
    QCOMPARE(by_session.size(), size_t{6});  // 3 sessions on each of 2 lanes
    for (auto& [key, turns] : by_session) {
      QCOMPARE(turns.size(), size_t{3});
      std::sort(turns.begin(), turns.end(),
                [](const auto& a, const auto& b) { return a["turn"] < b["turn"]; });
      for (size_t t = 0; t < turns.size(); ++t) {
        QCOMPARE(turns[t]["turn"].get<size_t>(), t);
        if (t == 0) continue;
        // The next turn holds the previous prompt, the lane's answer and a new user message,
        // and is sent only after the answer came plus the think time.
        QVERIFY(turns[t]["prompt_tokens"].get<int64_t>() >
                turns[t - 1]["prompt_tokens"].get<int64_t>() +
                    turns[t - 1]["output_tokens"].get<int64_t>());
        QVERIFY(turns[t]["t_sent_ns"].get<int64_t>() >=
                turns[t - 1]["t_done_ns"].get<int64_t>() + 50'000'000);
      }
    }
  }

  void shareGptConversationsRunTheirUserTurns() {
    nlohmann::json plan = synthetic_plan();
    plan["lanes"] = {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.02"}}};
    plan["experiments"] = {{{"kind", "sessions"},
                            {"path", lb::test::fixture_path("sessions/sharegpt-small.json")},
                            {"sessions", 2},
                            {"output_tokens", 8}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-exp-sessions-sharegpt");
    QCOMPARE(run.result.exit_code, 0);
    const auto e = run.experiment("sessions");
    QCOMPARE(e["conversations"]["sessions"], 3);
    QCOMPARE(e["conversations"]["skipped_without_user_turn"], 1);
    const auto per_turn = e["lanes"]["fp8"]["sessions"]["per_turn"];
    QCOMPARE(per_turn.size(), size_t{3});
    QCOMPARE(per_turn[0]["requests"], 3);  // every conversation's first user turn
    QCOMPARE(per_turn[1]["requests"], 2);
    QCOMPARE(per_turn[2]["requests"], 1);
    QCOMPARE(e["lanes"]["fp8"]["sessions"]["sessions_completed"], 3);
    int64_t lines = 0;
    for (const auto& r : run.requests) lines += r["experiment"] == "sessions" ? 1 : 0;
    QCOMPARE(lines, int64_t{6});
  }

  void badShareGptFilesNameTheFileAndPosition() {
    const std::string bad = lb::test::fixture_path("sessions/sharegpt-bad-speaker.json");
    const auto read = lb::plan::read_sharegpt_file(bad);
    QVERIFY(!read.ok());
    QCOMPARE(read.errors.size(), size_t{2});
    QVERIFY2(
        read.errors[0].find(bad + ": [1].conversations[2].from: unknown speaker 'narrator'") == 0,
        read.errors[0].c_str());
    QVERIFY2(read.errors[1].find(bad + ": [2].conversations[0].value: missing") == 0,
             read.errors[1].c_str());
    const std::string cut = lb::test::fixture_path("sessions/sharegpt-truncated.json");
    const auto truncated = lb::plan::read_sharegpt_file(cut);
    QCOMPARE(truncated.errors.size(), size_t{1});
    QVERIFY2(truncated.errors[0].find(cut + ": invalid JSON") == 0, truncated.errors[0].c_str());
    QVERIFY(!lb::plan::read_sharegpt_text("{}", "x.json").ok());
    QVERIFY(!lb::plan::read_sharegpt_text("[]", "x.json").ok());
    // As a plan: the run does not start, and the error names the experiment's field and file.
    const auto dir = lb::test::fresh_dir("lb-sessions-bad-plan");
    std::filesystem::create_directories(dir);
    nlohmann::json plan = {
        {"name", "bad"},
        {"lanes", {{{"id", "fp8"}, {"base_url", "sim:fp8"}}}},
        {"experiments", {{{"kind", "sessions"}, {"path", bad}, {"sessions", 1}}}}};
    std::ofstream(dir / "plan.json") << plan.dump();
    const auto parsed = lb::plan::load_plan_file((dir / "plan.json").string());
    QVERIFY(!parsed.ok());
    const std::string text = parsed.error_text();
    QVERIFY2(text.find("experiments[0].path: " + bad + ": [1].conversations[2].from") !=
                 std::string::npos,
             text.c_str());
    std::filesystem::remove_all(dir);
  }

  void planKeysAreChecked() {
    auto errors = [](const nlohmann::json& experiment) {
      nlohmann::json plan = {{"name", "p"},
                             {"lanes", {{{"id", "a"}, {"base_url", "sim:fp8"}}}},
                             {"experiments", {experiment}}};
      return lb::plan::parse_plan(plan.dump(), "p.json").error_text();
    };
    QVERIFY(errors({{"kind", "sessions"}}).empty());
    QVERIFY2(errors({{"kind", "sessions"}, {"path", "x.json"}, {"turns", 3}})
                     .find("experiments[0].turns: only applies to synthetic sessions") !=
                 std::string::npos,
             "turns with a file");
    QVERIFY(errors({{"kind", "sessions"}, {"sessions", 0}}).find("experiments[0].sessions") !=
            std::string::npos);
    QVERIFY(errors({{"kind", "sessions"}, {"think_time_s", -1}}).find("think_time_s") !=
            std::string::npos);
    QVERIFY(errors({{"kind", "sessions"}, {"turnz", 2}}).find("turnz") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestSessionsExperiment)
#include "run_sessions_test.moc"
