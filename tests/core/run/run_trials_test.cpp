// Repeated trials end to end on simulator lanes: each level runs `trials` times in the lane order
// asked for (the order is recorded, and requests.jsonl shows it), phases pool their trials with
// intervals over the per-trial figures, and lanes are compared over trials.
#include <QtTest>

#include "test_main.h"

#include <map>

#include "sim_plan_run.h"

namespace {

using nlohmann::json;

json trials_plan(int trials, const char* order) {
  json load = {{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 4},   {"warmups", 0},
               {"input_tokens", 64},   {"output_tokens", 8}, {"trials", trials}};
  if (order) load["lane_order"] = order;
  return {{"name", "trials"},
          // time_scale 0.1: a decode step stays milliseconds long, far above what an
          // instrumented client on a loaded machine adds, so fp8's lead is the model's.
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.1"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}}}},
          {"experiments", {load}}};
}

// The (lane, trial) blocks of the measured requests in the order they were sent.
std::vector<std::string> send_order(std::vector<json> requests) {
  std::sort(requests.begin(), requests.end(), [](const json& a, const json& b) {
    return a["t_sent_ns"].get<int64_t>() < b["t_sent_ns"].get<int64_t>();
  });
  std::vector<std::string> blocks;
  for (const json& r : requests) {
    const std::string b = r["lane"].get<std::string>() + std::to_string(r["trial"].get<int>());
    if (blocks.empty() || blocks.back() != b) blocks.push_back(b);
  }
  return blocks;
}

std::vector<std::string> turns_of(const json& experiment) {
  std::vector<std::string> out;
  for (const json& t : experiment["trials"]["turns"])
    out.push_back(t["lane"].get<std::string>() + std::to_string(t["trial"].get<int>()));
  return out;
}

using TrialBlocks = std::vector<std::string>;

}  // namespace

class TestRunTrials : public QObject {
  Q_OBJECT

 private slots:
  void interleavedIsTheDefaultAndAlternatesLanes() {
    const auto run = lb::test::run_sim_plan(trials_plan(3, nullptr), "lb-run-trials-i");
    QCOMPARE(run.result.exit_code, 0);
    const json e = run.experiment("throughput");
    QCOMPARE(e["trials"]["count"], 3);
    QCOMPARE(e["trials"]["lane_order"], "interleaved");
    const TrialBlocks expected = {"bf160", "fp80", "bf161", "fp81", "bf162", "fp82"};
    QCOMPARE(turns_of(e), expected);
    QCOMPARE(send_order(run.requests), expected);
    std::map<std::string, int> per_block;
    for (const json& r : run.requests)
      ++per_block[r["lane"].get<std::string>() + std::to_string(r["trial"].get<int>())];
    for (const auto& b : expected) QCOMPARE(per_block[b], 4);
  }

  void phasesPoolTheirTrialsWithIntervalsOverTrials() {
    const auto run = lb::test::run_sim_plan(trials_plan(3, "interleaved"), "lb-run-trials-p");
    QCOMPARE(run.result.exit_code, 0);
    const json e = run.experiment("throughput");
    for (const char* lane : {"bf16", "fp8"}) {
      const json& c1 = e["lanes"][lane]["phases"]["c1"];
      QCOMPARE(c1["completed"], 12);
      QCOMPARE(e["lanes"][lane]["phase_order"].size(), size_t(1));
      QCOMPARE(c1["trials"].size(), size_t(3));
      QCOMPARE(c1["interval_method"], "bootstrap over trials");
      for (const char* key : {"median_ttft_ms", "median_tpot_ms", "median_decode_tok_s",
                              "output_throughput", "median_itl_ms"}) {
        const json& i = c1["intervals"][key];
        QVERIFY2(i.is_object(), key);
        QCOMPARE(i["basis"], "trials");
        QCOMPARE(i["n"], 3);
        QCOMPARE(i["resamples"], 2000);
        QVERIFY2(
            double(i["lo"]) <= double(i["estimate"]) && double(i["estimate"]) <= double(i["hi"]),
            key);
        // The estimate is the mean of the per-trial figures.
        double sum = 0;
        for (const json& t : c1["trials"]) sum += double(t[key]);
        QVERIFY2(std::abs(sum / 3 - double(i["estimate"])) < 1e-9 * sum, key);
      }
      // Aggregate output tok/s is the trials' mean, not diluted by the pauses between them.
      QVERIFY(std::abs(double(c1["output_throughput"]) -
                       double(c1["intervals"]["output_throughput"]["estimate"])) <
              1e-9 * double(c1["output_throughput"]));
    }
    bool decode = false;
    for (const json& c : e["comparisons"]) {
      QCOMPARE(c["basis"], "trials");
      if (c["figure"] != "median_decode_tok_s") continue;
      decode = true;
      QCOMPARE(c["verdict"], "faster");  // fp8 decodes 47.9 tok/s against bf16's 26.9
      QVERIFY(double(c["ratio"]) > 1.4);
    }
    QVERIFY(decode);
  }

  void sequentialRunsEveryTrialOfALaneFirst() {
    const auto run = lb::test::run_sim_plan(trials_plan(2, "sequential"), "lb-run-trials-s");
    QCOMPARE(run.result.exit_code, 0);
    const json e = run.experiment("throughput");
    QCOMPARE(e["trials"]["lane_order"], "sequential");
    const TrialBlocks expected = {"bf160", "bf161", "fp80", "fp81"};
    QCOMPARE(turns_of(e), expected);
    QCOMPARE(send_order(run.requests), expected);
  }

  void parallelRunsTheLanesAtTheSameTime() {
    const auto run = lb::test::run_sim_plan(trials_plan(2, "parallel"), "lb-run-trials-par");
    QCOMPARE(run.result.exit_code, 0);
    const json e = run.experiment("throughput");
    QCOMPARE(e["trials"]["lane_order"], "parallel");
    // Each trial's span per lane; the lanes' spans of one trial overlap, trials do not.
    std::map<std::string, std::pair<int64_t, int64_t>> span;
    for (const json& r : run.requests) {
      const std::string key = r["lane"].get<std::string>() + std::to_string(r["trial"].get<int>());
      auto [it, fresh] = span.try_emplace(key, r["t_sent_ns"], r["t_done_ns"]);
      if (fresh) continue;
      it->second.first = std::min<int64_t>(it->second.first, r["t_sent_ns"]);
      it->second.second = std::max<int64_t>(it->second.second, r["t_done_ns"]);
    }
    QCOMPARE(span.size(), size_t(4));
    for (const char* t : {"0", "1"}) {
      const auto a = span[std::string("bf16") + t], b = span[std::string("fp8") + t];
      QVERIFY2(std::max(a.first, b.first) < std::min(a.second, b.second), t);
    }
    QVERIFY(span["bf160"].second <= span["bf161"].first);
    QVERIFY(span["fp80"].second <= span["fp81"].first);
    for (const char* lane : {"bf16", "fp8"})
      QCOMPARE(e["lanes"][lane]["phases"]["c1"]["completed"], 8);
    QCOMPARE(e["comparisons"][0]["basis"], "trials");
  }

  void oneTrialKeepsIntervalsOverRequests() {
    const auto run = lb::test::run_sim_plan(trials_plan(1, nullptr), "lb-run-trials-1");
    QCOMPARE(run.result.exit_code, 0);
    const json e = run.experiment("throughput");
    QCOMPARE(e["trials"]["lane_order"], "sequential");
    QCOMPARE(e["trials"]["count"], 1);
    for (const json& r : run.requests) QCOMPARE(r["trial"], 0);
    const json& c1 = e["lanes"]["bf16"]["phases"]["c1"];
    QCOMPARE(c1["intervals"]["median_ttft_ms"]["basis"], "requests");
    QCOMPARE(c1["intervals"]["median_ttft_ms"]["method_name"], "bootstrap over requests");
    QVERIFY(!c1["intervals"].contains("output_throughput"));
    QCOMPARE(c1["intervals_unavailable"]["output_throughput"], "n/a (1 trial)");
    QVERIFY(!c1.contains("trials"));
  }

  void laterTrialsDoNotFindEarlierPromptsInTheCache() {
    const json plan = {{"name", "prefix trials"},
                       {"lanes", {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.02"}}}},
                       {"experiments",
                        {{{"kind", "prefix_cache"},
                          {"burst", 2},
                          {"shared_prefix_tokens", 20000},
                          {"suffix_tokens", 32},
                          {"output_tokens", 4},
                          {"control", false},
                          {"trials", 2}}}}};
    const auto run = lb::test::run_sim_plan(plan, "lb-run-trials-prefix");
    QCOMPARE(run.result.exit_code, 0);
    std::map<std::string, int64_t> least, most;
    for (const json& r : run.requests) {
      if (r["warmup"] == true || !r["cached_tokens"].is_number()) continue;
      const std::string key = r["phase"].get<std::string>() + std::to_string(r["trial"].get<int>());
      const int64_t cached = r["cached_tokens"];
      least[key] = least.count(key) ? std::min(least[key], cached) : cached;
      most[key] = std::max(most[key], cached);
    }
    // The second trial's cold burst starts cold: its prompts are its own, not the first's.
    QVERIFY2(least.count("cold1") && least["cold1"] < 8192, std::to_string(least["cold1"]).c_str());
    // Within a trial the warm burst still reuses the cold burst's prefix.
    QVERIFY2(most["warm1"] >= 16384, std::to_string(most["warm1"]).c_str());
    QCOMPARE(run.experiment("prefix_cache")["lanes"]["fp8"]["phases"]["warm"]["completed"], 4);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestRunTrials)
#include "run_trials_test.moc"
