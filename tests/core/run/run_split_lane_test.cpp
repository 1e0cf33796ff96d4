// A split lane (plan "split"): one lane's load sent by several clients, each a shard, that meet in
// a shared folder at every phase's start; the merge summarises the lane from all their requests.
// The clients run at once here, on threads, against one simulator server on loopback.
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <thread>

#include "core/fleet/request_line_record.h"
#include "core/fleet/run_merge.h"
#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/plan/sweep_expansion.h"
#include "core/run/drive/trace_requests.h"
#include "core/run/shard_selection.h"
#include "sim_plan_run.h"
#include "test_main.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kClients = 3;

json split_plan(const std::string& server_url, double sync_timeout_s = 120) {
  return {{"name", "split"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
            {{"id", "fp8"}, {"base_url", server_url}}}},
          {"split", {{"lane", "fp8"}, {"clients", kClients}, {"sync_timeout_s", sync_timeout_s}}},
          {"experiments",
           {{{"kind", "throughput"},
             {"concurrency", {3, 6}},
             {"requests", 12},
             {"warmups", 3},
             {"output_tokens", 16}},
            {{"kind", "trace"},
             {"path", lb::test::fixture_path("traces/mooncake.jsonl")},
             {"speedup", 4}},
            {{"kind", "gates"}, {"checks", {"json"}}, {"repeat", 1}}}}};
}

lb::plan::Plan parsed_split_plan(const json& plan_json) {
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "split-plan.json");
  if (parsed.ok()) {
    parsed.errors = lb::plan::check_plan_files(*parsed.plan, "");
    if (!parsed.errors.empty()) parsed.plan.reset();
  }
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  return *parsed.plan;
}

std::string plan_errors(const json& plan_json) {
  return lb::plan::parse_plan(plan_json.dump(), "p.json").error_text();
}

lb::run::RunResult run_shard(const lb::plan::Plan& plan, const fs::path& dir, int index,
                             int count) {
  lb::test::CollectingSink sink;
  std::atomic<bool> stop{false};
  lb::run::RunOptions options{dir.string(), "test", false};
  options.shard = lb::run::ShardSpec{index, count};
  lb::run::PlanRunner runner(plan, options, sink);
  return runner.run(stop);
}

std::vector<json> measured(const std::vector<json>& lines, const std::string& experiment,
                           const std::string& lane, const std::string& phase) {
  std::vector<json> out;
  for (const json& l : lines)
    if (l["experiment"] == experiment && l["lane"] == lane && l["phase"] == phase &&
        l["warmup"] == false)
      out.push_back(l);
  return out;
}

double percentile_of(std::vector<double> v, double p) {
  return lb::metrics::describe(std::move(v)).*
         (p == 50 ? &lb::metrics::Distribution::p50 : &lb::metrics::Distribution::p99);
}

}  // namespace

class TestSplitLane : public QObject {
  Q_OBJECT

  fs::path root_;
  lb::sim::LaneHandle server_;
  std::string server_url_;
  lb::fleet::MergeResult merge_;
  fs::path shard_dir(int i) const { return root_ / ("shard-" + std::to_string(i)); }

 private slots:
  void initTestCase() {
    root_ = lb::test::fresh_dir("lb-split-lane");
    fs::create_directories(root_);
    lb::test::register_sim_starter();
    auto start = lb::sim::start_lane("fp8?time_scale=0.01");
    QVERIFY2(start.error.empty(), start.error.c_str());
    server_ = std::move(start.handle);
    server_url_ = start.base_url;
    const lb::plan::Plan plan = parsed_split_plan(split_plan(server_url_));
    const int count = 1 + kClients;
    QCOMPARE(lb::run::shard_count(lb::plan::expand_sweep(plan).plan), int64_t(count));
    QCOMPARE(run_shard(plan, shard_dir(0), 0, count).exit_code, 0);
    std::vector<std::thread> clients;
    std::vector<int> exits(kClients, -1);
    for (int k = 0; k < kClients; ++k)
      clients.emplace_back(
          [&, k] { exits[size_t(k)] = run_shard(plan, shard_dir(1 + k), 1 + k, count).exit_code; });
    for (auto& t : clients) t.join();
    for (int e : exits) QCOMPARE(e, 0);
    std::vector<std::string> dirs;
    for (int i = 0; i < count; ++i) dirs.push_back(shard_dir(i).string());
    merge_ = lb::fleet::merge_shards({dirs, (root_ / "merged").string()});
  }
  void cleanupTestCase() { fs::remove_all(root_); }

  void eachClientSendsItsShareOfEveryPhase() {
    std::map<std::string, std::set<int64_t>> seen;  // phase -> request indexes over the clients
    for (int k = 0; k < kClients; ++k) {
      const json shard = lb::test::read_json(shard_dir(1 + k) / "shard.json");
      QCOMPARE(shard["shard"]["split"]["client"], k);
      QCOMPARE(shard["shard"]["split"]["clients"], kClients);
      const auto lines = lb::test::read_jsonl(shard_dir(1 + k) / "requests.jsonl");
      for (const std::string phase : {"c3", "c6"}) {
        const auto mine = measured(lines, "throughput", "fp8", phase);
        QCOMPARE(mine.size(), size_t(12 / kClients));
        for (const json& l : mine) {
          QCOMPARE(l["index"].get<int64_t>() % kClients, int64_t(k));
          QVERIFY(seen[phase].insert(l["index"].get<int64_t>()).second);
        }
      }
      for (const json& l : measured(lines, "trace", "fp8", "trace")) {
        QCOMPARE(l["index"].get<int64_t>() % kClients, int64_t(k));
        QVERIFY(seen["trace"].insert(l["index"].get<int64_t>()).second);
      }
      // The lane's other experiments run on its first client only.
      const bool gates = std::any_of(lines.begin(), lines.end(),
                                     [](const json& l) { return l["experiment"] == "gates"; });
      QCOMPARE(gates, k == 0);
    }
    QCOMPARE(seen["c3"].size(), size_t(12));
    QCOMPARE(seen["c6"].size(), size_t(12));
    QCOMPARE(seen["trace"].size(), size_t(30));
  }

  void theClientsStartEachPhaseTogether() {
    // Each client's trace sends are scheduled at the trace's offsets from its start: the starts
    // are the clients' first stamps less those offsets, and the meeting makes them one.
    const lb::plan::Plan plan = parsed_split_plan(split_plan(server_url_));
    const auto& trace = std::get<lb::plan::TraceExperiment>(plan.experiments[1].params);
    const auto offsets = lb::run::trace_schedule_ns(*trace.rows, trace.speedup);
    const auto lines = lb::test::read_jsonl(root_ / "merged" / "requests.jsonl");
    std::vector<int64_t> starts(kClients, 0);
    for (const json& l : measured(lines, "trace", "fp8", "trace")) {
      const int64_t i = l["index"].get<int64_t>();
      starts[size_t(i % kClients)] = l["t_sched_ns"].get<int64_t>() - offsets[size_t(i)];
    }
    const auto [lo, hi] = std::minmax_element(starts.begin(), starts.end());
    QVERIFY2(*hi - *lo < 20'000'000, std::to_string(*hi - *lo).c_str());
  }

  void theMergeSummarisesTheLaneFromEveryClientsRequests() {
    const fs::path out = root_ / "merged";
    QVERIFY2(merge_.errors.empty(), merge_.errors.empty() ? "" : merge_.errors[0].c_str());
    QCOMPARE(merge_.exit_code, 0);
    const json summary = lb::test::read_json(out / "summary.json");
    const auto lines = lb::test::read_jsonl(out / "requests.jsonl");
    const json& throughput = summary["experiments"][0];
    for (const std::string phase : {"c3", "c6"}) {
      const json& p = throughput["lanes"]["fp8"]["phases"][phase];
      QCOMPARE(p["completed"], 12);
      QCOMPARE(p["warmups_excluded"], 3);
      QCOMPARE(p["split"]["clients"], kClients);
      QVERIFY(p["max_concurrent_requests"].get<int64_t>() <= std::stoll(phase.substr(1)));
      QVERIFY(p["steady_state"].is_object());
      // Every figure from the merged requests themselves, none averaged from the clients'.
      std::vector<double> ttft, tpot;
      int64_t output_tokens = 0;
      for (const json& l : measured(lines, "throughput", "fp8", phase)) {
        ttft.push_back(l["ttft_ms"]);
        tpot.push_back(l["tpot_ms"]);
        output_tokens += l["output_tokens"].get<int64_t>();
      }
      QCOMPARE(p["p50_ttft_ms"].get<double>(), percentile_of(ttft, 50));
      QCOMPARE(p["p99_tpot_ms"].get<double>(), percentile_of(tpot, 99));
      QCOMPARE(p["total_output_tokens"].get<int64_t>(), output_tokens);
      QVERIFY(p["intervals"].contains("median_ttft_ms"));
    }
    const json& sweep = throughput["lanes"]["fp8"]["concurrency_sweep"]["levels"];
    QCOMPARE(sweep.size(), size_t(2));
    QCOMPARE(sweep[0]["completed"], 12);
    // The lanes are compared as in one process, over the merged requests.
    QVERIFY(throughput["comparisons"].is_array() && !throughput["comparisons"].empty());

    const json& trace = summary["experiments"][1]["lanes"]["fp8"];
    QCOMPARE(trace["phases"]["trace"]["completed"], 30);
    QCOMPARE(trace["schedule"]["scheduled"], 30);
    QCOMPARE(trace["schedule"]["sent"], 30);
    QCOMPARE(trace["schedule"]["clients"], kClients);
    QVERIFY(trace["schedule"]["lateness_p99_ms"].is_number());
    // The gates ran once, on the first client.
    QCOMPARE(summary["experiments"][2]["lanes"]["fp8"],
             lb::test::read_json(shard_dir(1) / "summary.json")["experiments"][2]["lanes"]["fp8"]);
    QCOMPARE(summary["experiments"][0]["trials"]["turns"].size(), size_t(2));
  }

  void aRequestLineReadsBackAsItsRecord() {
    // Every line of the run, the simulator's reasoning and token counts included, gives back
    // the figures it was written with.
    int checked = 0;
    for (const json& l : lb::test::read_jsonl(root_ / "merged" / "requests.jsonl")) {
      const auto record = lb::fleet::record_from_line(l);
      QVERIFY(record.has_value());
      const json again =
          lb::metrics::to_json(*record, lb::metrics::compute_request_metrics(*record));
      for (const char* key :
           {"ok", "ttft_ms", "ttft_content_ms", "ttft_sched_ms", "e2el_ms", "tpot_ms",
            "queue_delay_ms", "output_tokens", "output_tokens_provenance", "prompt_tokens",
            "prompt_tokens_provenance", "cached_tokens", "coalesced_events", "event_offsets_ns",
            "event_tokens", "spec_decode", "error"})
        QVERIFY2(again[key] == l[key],
                 (std::string(key) + ": " + again[key].dump() + " vs " + l[key].dump()).c_str());
      ++checked;
    }
    QVERIFY(checked > 100);
  }

  void aClientThatNeverComesIsWaitedForOnlySoLong() {
    const lb::plan::Plan plan = parsed_split_plan(split_plan(server_url_, 1));
    const fs::path lonely = root_ / "lonely" / "shard-1";
    const auto result = run_shard(plan, lonely, 1, 1 + kClients);
    QCOMPARE(result.exit_code, 1);
    const json summary = lb::test::read_json(lonely / "summary.json");
    const std::string blockers = summary["run"]["blockers"].dump();
    QVERIFY2(blockers.find("clients 1, 2 of the split lane's 3 did not arrive within 1 s") !=
                 std::string::npos,
             blockers.c_str());
    // Later phases do not wait again: the clients are out of step.
    QVERIFY(blockers.find("not in step") != std::string::npos);
    QVERIFY(summary["experiments"][0]["lanes"]["fp8"]["phases"]["c3"]["interrupted"] == true);
  }

  void aClientWithNoShareOfAPhaseStillMeetsTheOthers() {
    // Two requests over three clients: the third sends none of them, yet the others start.
    json plan_json = split_plan(server_url_, 30);
    plan_json["experiments"] = {
        {{"kind", "throughput"}, {"concurrency", {3}}, {"requests", 2}, {"output_tokens", 4}}};
    const lb::plan::Plan plan = parsed_split_plan(plan_json);
    const fs::path dir = root_ / "no-share";
    std::vector<std::thread> clients;
    std::vector<int> exits(kClients, -1);
    const auto began = std::chrono::steady_clock::now();
    for (int k = 0; k < kClients; ++k)
      clients.emplace_back([&, k] {
        exits[size_t(k)] =
            run_shard(plan, dir / ("shard-" + std::to_string(1 + k)), 1 + k, 1 + kClients)
                .exit_code;
      });
    for (auto& t : clients) t.join();
    QCOMPARE(exits, std::vector<int>(kClients, 0));
    QVERIFY(std::chrono::steady_clock::now() - began < std::chrono::seconds(20));
    const auto lines = lb::test::read_jsonl(dir / "shard-3" / "requests.jsonl");
    QVERIFY(measured(lines, "throughput", "fp8", "c3").empty());
  }

  void aClientRunAgainAfterTheOthersMetIsRefused() {
    // The lane's clients met in root_ at every phase; one of them run again there would start
    // alone: it is refused at once, by name.
    const lb::plan::Plan plan = parsed_split_plan(split_plan(server_url_));
    const auto result = run_shard(plan, root_ / "again", 2, 1 + kClients);
    QCOMPARE(result.exit_code, 1);
    const std::string blockers =
        lb::test::read_json(root_ / "again" / "summary.json")["run"]["blockers"].dump();
    QVERIFY2(blockers.find("already met at this phase without this one") != std::string::npos,
             blockers.c_str());
  }

  void anEstimatedTokenCountReadsBackAsItWas() {
    // A server that says nothing of tokens: the count is estimated from the text's bytes.
    lb::metrics::RequestRecord r;
    r.lane_id = "x";
    r.phase = "c1";
    r.t_sched_ns = 1'000'000;
    r.result.t_sent_ns = 2'000'000;
    r.result.t_done_ns = 90'000'000;
    for (int i = 0; i < 40; ++i) {
      lb::net::EventArrival e;
      e.arrival_ns = 5'000'000 + i * 2'000'000;
      e.content_bytes = i == 0 ? 3 : 7;  // 276 bytes: 69 tokens
      r.result.events.push_back(e);
    }
    const auto m = lb::metrics::compute_request_metrics(r);
    QCOMPARE(m.output_tokens_provenance, lb::metrics::Provenance::Estimated);
    const auto back = lb::fleet::record_from_line(lb::metrics::to_json(r, m));
    QVERIFY(back.has_value());
    const auto again = lb::metrics::compute_request_metrics(*back);
    QCOMPARE(again.output_tokens, m.output_tokens);
    QCOMPARE(again.output_tokens_provenance, m.output_tokens_provenance);
    QCOMPARE(again.tpot_ms, m.tpot_ms);
    // A line that is not a record, or whose offsets make no sense, is refused, not guessed.
    json line = lb::metrics::to_json(r, m);
    line.erase("warmup");
    QVERIFY(lb::fleet::record_from_line(line).has_value());
    line["event_offsets_ns"] = {-1};
    QVERIFY(!lb::fleet::record_from_line(line).has_value());
    line["event_offsets_ns"] = {int64_t{1} << 62};
    QVERIFY(!lb::fleet::record_from_line(line).has_value());
  }

  void plansThatCannotSplitAreRefused() {
    json plan = split_plan(server_url_);
    plan["split"]["lane"] = "nope";
    QVERIFY(plan_errors(plan).find("split.lane: names no lane") != std::string::npos);
    plan = split_plan(server_url_);
    plan["split"]["lane"] = "bf16";
    QVERIFY(plan_errors(plan).find("in-process simulator") != std::string::npos);
    plan = split_plan(server_url_);
    plan["split"]["clients"] = 1;
    QVERIFY(plan_errors(plan).find("split.clients") != std::string::npos);
    plan = split_plan(server_url_);
    plan["experiments"][0]["concurrency"] = {2, 6};
    QVERIFY2(plan_errors(plan).find("experiments[0].concurrency[0]: must be at least the split "
                                    "lane's 3 clients") != std::string::npos,
             plan_errors(plan).c_str());
    plan = split_plan(server_url_);
    plan["experiments"][0].erase("concurrency");
    plan["experiments"][0]["concurrency_doubling"] = {{"start", 4}};
    QVERIFY(plan_errors(plan).find("doubling sweep cannot run on the split lane") !=
            std::string::npos);
    // The shard count names the clients.
    std::string why;
    lb::plan::Plan p = parsed_split_plan(split_plan(server_url_));
    QVERIFY(!lb::run::keep_shard_lanes(p, {0, 2}, &why));
    QVERIFY2(why.find("runs as 4 shards") != std::string::npos &&
                 why.find("one per client of the split lane") != std::string::npos,
             why.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestSplitLane)
#include "run_split_lane_test.moc"
