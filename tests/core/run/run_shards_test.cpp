// A plan run as shards (run --shard) and merged (lanebench-cli merge) against in-process simulator
// lanes: the merged run holds what one process would have run, lane by lane, with the comparisons
// of lanes and the performance gates recomputed from the merged requests; shards that do not
// belong together are refused by name and nothing is merged.
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "core/fleet/merged_requests.h"
#include "core/fleet/run_merge.h"
#include "core/fleet/shard_folder.h"
#include "core/record/run_summary.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"
#include "core/run/shard_selection.h"
#include "core/text/http_date.h"
#include "sim_plan_run.h"
#include "test_main.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json three_lane_plan() {
  return {{"name", "sharded"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}},
            {{"id", "fp8-mtp"}, {"base_url", "sim:fp8-mtp3?time_scale=0.01"}}}},
          {"experiments",
           {{{"kind", "throughput"},
             {"concurrency", {1, 2}},
             {"requests", 6},
             {"output_tokens", 16},
             {"performance_gates",
              {{{"candidate", "fp8"},
                {"baseline", "bf16"},
                {"figure", "median_ttft_ms"},
                {"max_ratio", 10}}}}},
            {{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}}}}};
}

lb::plan::Plan parsed(const json& plan_json) {
  auto parsed = lb::plan::parse_plan(plan_json.dump(), "test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  return *parsed.plan;
}

lb::run::RunResult run_into(const lb::plan::Plan& plan, const fs::path& dir,
                            std::optional<lb::run::ShardSpec> shard) {
  lb::test::register_sim_starter();
  lb::test::CollectingSink sink;
  std::atomic<bool> stop{false};
  lb::run::RunOptions options{dir.string(), "test", false};
  options.shard = shard;
  lb::run::PlanRunner runner(plan, options, sink);
  return runner.run(stop);
}

// Measured, completed requests by (lane, phase) of one experiment.
std::map<std::pair<std::string, std::string>, int> counts(const std::vector<json>& lines,
                                                          const std::string& experiment) {
  std::map<std::pair<std::string, std::string>, int> out;
  for (const json& l : lines)
    if (l["experiment"] == experiment && !l["warmup"].get<bool>())
      ++out[{l["lane"].get<std::string>(), l["phase"].get<std::string>()}];
  return out;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool mentions(const std::vector<std::string>& texts, const std::string& part) {
  return std::any_of(texts.begin(), texts.end(),
                     [&](const std::string& t) { return t.find(part) != std::string::npos; });
}

void edit_json(const fs::path& file, const std::function<void(json&)>& edit) {
  json j = lb::test::read_json(file);
  edit(j);
  std::ofstream(file) << j.dump(2);
}

}  // namespace

class TestShards : public QObject {
  Q_OBJECT

  fs::path root_;
  fs::path shard_dir(int i) const { return root_ / ("shard-" + std::to_string(i)); }
  std::vector<std::string> shard_dirs(std::initializer_list<int> indexes) const {
    std::vector<std::string> out;
    for (int i : indexes) out.push_back(shard_dir(i).string());
    return out;
  }

 private slots:
  void initTestCase() {
    root_ = lb::test::fresh_dir("lb-shards");
    fs::create_directories(root_);
    const lb::plan::Plan plan = parsed(three_lane_plan());
    QCOMPARE(run_into(plan, root_ / "one-process", std::nullopt).exit_code, 0);
    for (int i = 0; i < 3; ++i)
      QCOMPARE(run_into(plan, shard_dir(i), lb::run::ShardSpec{i, 3}).exit_code, 0);
  }
  void cleanupTestCase() { fs::remove_all(root_); }

  void eachShardRunsOneLaneAndRecordsItsClock() {
    for (int i = 0; i < 3; ++i) {
      std::string why;
      const auto shard = lb::fleet::read_shard_folder(shard_dir(i).string(), &why);
      QVERIFY2(shard, why.c_str());
      QCOMPARE(shard->index, i);
      QCOMPARE(shard->count, 3);
      QCOMPARE(shard->lanes.size(), size_t(1));
      QVERIFY(shard->finished);
      // The simulator sends a Date header; on one machine the offset is the reading's error.
      QVERIFY(shard->clock_offset_ms.has_value());
      QVERIFY2(std::abs(*shard->clock_offset_ms) <= shard->clock_uncertainty_ms + 1.0,
               std::to_string(*shard->clock_offset_ms).c_str());
      QVERIFY(shard->clock_uncertainty_ms < 100);
      for (const json& l : lb::test::read_jsonl(shard_dir(i) / "requests.jsonl"))
        QCOMPARE(l["lane"].get<std::string>(), shard->lanes[0]);
      // No comparison or performance gate within a shard: the merge judges them.
      const json section = lb::test::read_json(shard_dir(i) / "summary.json")["experiments"][0];
      QVERIFY(!section.contains("comparisons"));
      QVERIFY(!section.contains("performance_gates"));
    }
  }

  void shardsMergeIntoTheRunOfOneProcess() {
    const fs::path out = root_ / "merged";
    const auto result = lb::fleet::merge_shards({shard_dirs({2, 0, 1}), out.string()});
    QVERIFY2(result.errors.empty(), result.errors.empty() ? "" : result.errors[0].c_str());
    QCOMPARE(result.exit_code, 0);
    QCOMPARE(result.shards, int64_t(3));
    const auto merged_lines = lb::test::read_jsonl(out / "requests.jsonl");
    const auto one_lines = lb::test::read_jsonl(root_ / "one-process" / "requests.jsonl");
    QCOMPARE(merged_lines.size(), one_lines.size());
    QCOMPARE(result.requests, int64_t(merged_lines.size()));
    QCOMPARE(counts(merged_lines, "throughput"), counts(one_lines, "throughput"));
    QCOMPARE(counts(merged_lines, "gates"), counts(one_lines, "gates"));

    const json merged = lb::test::read_json(out / "summary.json");
    const json one = lb::test::read_json(root_ / "one-process" / "summary.json");
    // It reads as any run folder does, with nothing damaged.
    lb::record::FileFields fields("summary.json");
    const auto typed = lb::record::read_run_summary(merged, fields);
    QVERIFY2(fields.damage().empty(), fields.damage().empty() ? "" : fields.damage()[0].c_str());
    QCOMPARE(typed.experiments.size(), size_t(2));
    // Each lane whole from the shard that ran it.
    for (int i = 0; i < 3; ++i) {
      const json shard = lb::test::read_json(shard_dir(i) / "summary.json");
      for (size_t e = 0; e < 2; ++e)
        for (const auto& [lane, section] : shard["experiments"][e]["lanes"].items())
          QCOMPARE(merged["experiments"][e]["lanes"][lane], section);
    }
    // The same comparisons and gates as one process makes, recomputed from the merged requests.
    auto keys = [](const json& section) {
      std::set<std::string> out;
      for (const json& c : section["comparisons"])
        out.insert(c["candidate"].get<std::string>() + "/" + c["phase"].get<std::string>() + "/" +
                   c["figure"].get<std::string>());
      return out;
    };
    const json& throughput = merged["experiments"][0];
    QVERIFY(!keys(throughput).empty());
    QCOMPARE(keys(throughput), keys(one["experiments"][0]));
    QCOMPARE(throughput["performance_gates"].size(),
             one["experiments"][0]["performance_gates"].size());
    for (const json& c : throughput["comparisons"]) {
      if (c["figure"] != "median_ttft_ms") continue;
      std::vector<double> base, cand;
      for (const json& l : merged_lines) {
        if (l["experiment"] != "throughput" || l["phase"] != c["phase"] || l["warmup"] == true ||
            l["ok"] != true)
          continue;
        if (l["lane"] == c["baseline"]) base.push_back(l["ttft_ms"]);
        if (l["lane"] == c["candidate"]) cand.push_back(l["ttft_ms"]);
      }
      QVERIFY(!base.empty() && !cand.empty());
      QVERIFY(std::abs(c["ratio"].get<double>() - median_of(cand) / median_of(base)) < 1e-9);
    }
    QCOMPARE(merged["shards"].size(), size_t(3));
    QCOMPARE(merged["shards"][0]["index"], 0);  // in index order, whatever the order given
    // The report sees a merged run and says so.
    std::string error;
    const auto folder = lb::report::load_run_folder_for_report(out.string(), &error);
    QVERIFY2(folder, error.c_str());
    QVERIFY(mentions(lb::report::report_caveats(*folder), "Merged from 3 shards"));
    QVERIFY(!mentions(lb::report::report_caveats(*folder), "Partial run"));
  }

  void stampsMoveOntoTheFirstShardsTimeLine() {
    std::string why;
    const auto s0 = lb::fleet::read_shard_folder(shard_dir(0).string(), &why);
    auto s1 = lb::fleet::read_shard_folder(shard_dir(1).string(), &why);
    QVERIFY(s0 && s1);
    s1->wall_minus_steady_ns = s0->wall_minus_steady_ns + 5'000'000'000;
    s1->clock_offset_ms = s0->clock_offset_ms.value_or(0) + 1000.0;
    // Its wall clock is 5 s ahead of s0's, 1 s of which is its clock's own error.
    QCOMPARE(lb::fleet::stamp_shift_ns(*s1, *s0), int64_t(4'000'000'000));
    QCOMPARE(lb::fleet::stamp_shift_ns(*s0, *s0), int64_t(0));
  }

  // A scheduler runs a task again in the same folder: a finished shard is kept and nothing runs,
  // an unfinished one of the same plan starts over, anything else is refused.
  void aShardRunAgainKeepsOrRedoesItsFolder() {
    const lb::plan::Plan plan = parsed(three_lane_plan());
    const auto lines = [](const fs::path& dir) {
      return lb::test::read_jsonl(dir / "requests.jsonl").size();
    };
    const size_t before = lines(shard_dir(0));
    QCOMPARE(run_into(plan, shard_dir(0), lb::run::ShardSpec{0, 3}).exit_code, 0);
    QCOMPARE(lines(shard_dir(0)), before);
    const fs::path cut = root_ / "rerun-1";
    fs::remove_all(cut);
    fs::copy(shard_dir(1), cut, fs::copy_options::recursive);
    fs::remove(cut / "summary.json");
    std::ofstream(cut / "requests.jsonl", std::ios::app) << "{\"cut short";
    QCOMPARE(run_into(plan, cut, lb::run::ShardSpec{1, 3}).exit_code, 0);
    QVERIFY(lb::fleet::read_shard_folder(cut.string(), nullptr)->finished);
    QCOMPARE(lines(cut), lines(shard_dir(1)));  // started over: no line of the first try
    QCOMPARE(run_into(plan, cut, lb::run::ShardSpec{2, 3}).exit_code, 2);  // another shard's
  }

  void aMissingShardIsNamedAndNothingMerged() {
    const fs::path out = root_ / "missing";
    const auto result = lb::fleet::merge_shards({shard_dirs({0, 2}), out.string()});
    QCOMPARE(result.exit_code, 2);
    QVERIFY(mentions(result.errors, "shard 1 of 3 is missing"));
    QVERIFY(mentions(result.errors, "--partial"));
    QVERIFY(!fs::exists(out));
  }

  void aPartialMergeSaysWhatItLeftOut() {
    const fs::path out = root_ / "partial";
    lb::fleet::MergeOptions options{shard_dirs({0, 2}), out.string()};
    options.partial = true;
    const auto result = lb::fleet::merge_shards(options);
    QVERIFY2(result.errors.empty(), result.errors.empty() ? "" : result.errors[0].c_str());
    QCOMPARE(result.missing, std::vector<int64_t>{1});
    const json merged = lb::test::read_json(out / "summary.json");
    QCOMPARE(merged["run"]["partial"]["missing_shards"], json({1}));
    QVERIFY(!merged["experiments"][0]["lanes"].contains("fp8"));
    // fp8's gate has no phase on both lanes: a blocker, so the merge exits 1 as run would.
    QCOMPARE(result.exit_code, 1);
    std::string error;
    const auto folder = lb::report::load_run_folder_for_report(out.string(), &error);
    QVERIFY2(folder, error.c_str());
    QVERIFY(mentions(lb::report::report_caveats(*folder), "Partial run: shard(s) 1 of 3"));
  }

  void shardsThatDoNotBelongTogetherAreRefused() {
    auto copy_of = [&](int i, const std::string& name) {
      const fs::path to = root_ / name;
      fs::remove_all(to);
      fs::copy(shard_dir(i), to, fs::copy_options::recursive);
      return to;
    };
    auto refused = [&](const std::vector<std::string>& dirs, const std::string& why) {
      const fs::path out = root_ / "refused";
      const auto result = lb::fleet::merge_shards({dirs, out.string()});
      if (result.exit_code != 2 || !mentions(result.errors, why)) {
        for (const auto& e : result.errors) qWarning("%s", e.c_str());
        return false;
      }
      return !fs::exists(out);
    };
    const fs::path other = copy_of(1, "other-plan");
    edit_json(other / "shard.json", [](json& j) { j["plan_sha256"] = std::string(64, 'a'); });
    QVERIFY(refused({shard_dir(0).string(), other.string(), shard_dir(2).string()},
                    "is a shard of another plan"));
    const fs::path corrupt = copy_of(1, "corrupt");
    std::ofstream(corrupt / "summary.json") << "{\"run\": ";
    QVERIFY(
        refused({shard_dir(0).string(), corrupt.string(), shard_dir(2).string()}, "summary.json"));
    const fs::path skewed = copy_of(1, "skewed");
    edit_json(skewed / "shard.json",
              [](json& j) { j["server_clocks"]["fp8"]["offset_ms"] = 1500.0; });
    QVERIFY(refused({shard_dir(0).string(), skewed.string(), shard_dir(2).string()},
                    "its clock is 1500 ms (\u00b1 "));
    const fs::path plain = copy_of(1, "not-a-shard");
    fs::remove(plain / "shard.json");
    QVERIFY(
        refused({shard_dir(0).string(), plain.string(), shard_dir(2).string()}, "no shard.json"));
    QVERIFY(refused({shard_dir(0).string(), shard_dir(0).string(), shard_dir(2).string()},
                    "shard 0 is given twice"));
    const fs::path other_version = copy_of(1, "other-version");
    edit_json(other_version / "shard.json", [](json& j) { j["client_version"] = "0.0.9"; });
    QVERIFY(refused({shard_dir(0).string(), other_version.string(), shard_dir(2).string()},
                    "was run by LaneBench 0.0.9"));
  }

  void shardSpecsAndPlansThatCannotBeSharded() {
    std::string why;
    const lb::plan::Environment none;
    const auto spec = lb::run::parse_shard_spec("1/3", none, &why);
    QVERIFY(spec && spec->index == 1 && spec->count == 3);
    QVERIFY(!lb::run::parse_shard_spec("3/3", none, &why));
    QVERIFY(why.find("not in 0..2") != std::string::npos);
    QVERIFY(!lb::run::parse_shard_spec("1/x", none, &why));
    QVERIFY(!lb::run::parse_shard_spec("auto/4", none, &why));
    QVERIFY(why.find("SLURM_ARRAY_TASK_ID") != std::string::npos);
    const auto slurm = lb::run::parse_shard_spec(
        "auto/4", none.with("SLURM_ARRAY_TASK_ID", "2").with("JOB_COMPLETION_INDEX", "1"), &why);
    QVERIFY(slurm && slurm->index == 2);
    const auto k8s =
        lb::run::parse_shard_spec("auto/4", none.with("JOB_COMPLETION_INDEX", "3"), &why);
    QVERIFY(k8s && k8s->index == 3);

    lb::plan::Plan plan = parsed(three_lane_plan());
    QVERIFY(!lb::run::keep_shard_lanes(plan, {0, 2}, &why));
    QVERIFY2(why.find("runs as 3 shards") != std::string::npos, why.c_str());
    json sampled = three_lane_plan();
    sampled["experiments"] = {{{"kind", "sampled_regression"}, {"samples", 2}}};
    lb::plan::Plan answers = parsed(sampled);
    QVERIFY(!lb::run::keep_shard_lanes(answers, {0, 3}, &why));
    QVERIFY2(why.find("compares the lanes' answers") != std::string::npos, why.c_str());
    // A shard refused by the runner leaves no folder.
    const fs::path dir = root_ / "refused-shard";
    const auto result = run_into(parsed(sampled), dir, lb::run::ShardSpec{0, 3});
    QCOMPARE(result.exit_code, 2);
    QVERIFY(!fs::exists(dir));
  }

  // A regression's shards each answer the prompts on their lane; the merge judges the pairs from
  // those answers as one process does, and the baseline's shard measures the floor.
  void aShardedRegressionIsJudgedAsInOneProcess() {
    json plan_json = three_lane_plan();
    plan_json["lanes"][0]["base_url"] = "sim:bf16?time_scale=0.01&batch_variance=0.3";
    plan_json["experiments"] = {{{"kind", "regression"},
                                 {"prompts", "builtin:regression-20"},
                                 {"max_tokens", 32},
                                 {"floor", {{"repeats", 2}}}}};
    const lb::plan::Plan plan = parsed(plan_json);
    const fs::path one = root_ / "regression-one";
    QCOMPARE(run_into(plan, one, std::nullopt).exit_code, 0);
    std::vector<std::string> dirs;
    for (int i = 0; i < 3; ++i) {
      dirs.push_back((root_ / ("regression-" + std::to_string(i))).string());
      QCOMPARE(run_into(plan, dirs.back(), lb::run::ShardSpec{i, 3}).exit_code, 0);
      QVERIFY(!fs::exists(fs::path(dirs.back()) / "review.fp8.json"));
    }
    // Only the baseline's shard measured the floor.
    QVERIFY(lb::test::read_json(fs::path(dirs[0]) / "summary.json")["experiments"][0].contains(
        "floor"));
    QVERIFY(!lb::test::read_json(fs::path(dirs[1]) / "summary.json")["experiments"][0].contains(
        "floor"));
    const fs::path out = root_ / "regression-merged";
    const auto result = lb::fleet::merge_shards({dirs, out.string()});
    QVERIFY2(result.errors.empty(), result.errors.empty() ? "" : result.errors[0].c_str());
    QVERIFY2(result.notes.empty(), result.notes.empty() ? "" : result.notes[0].c_str());
    const json merged = lb::test::read_json(out / "summary.json")["experiments"][0];
    const json alone = lb::test::read_json(one / "summary.json")["experiments"][0];
    QCOMPARE(merged["comparisons"].size(), size_t(2));
    // The same answers, the same review, the same verdict against the floor.
    for (const char* candidate : {"fp8", "fp8-mtp"}) {
      const std::string review = std::string("review.") + candidate + ".json";
      QCOMPARE(lb::test::read_json(out / review), lb::test::read_json(one / review));
      const std::string texts = std::string("texts/") + candidate + ".texts.json";
      QCOMPARE(lb::test::read_json(out / texts), lb::test::read_json(one / texts));
    }
    // The floor is measured anew by the baseline's shard. With batch variance a flip depends on
    // how many requests shared the server's batch when it arrived, which the machine's load
    // decides: each run's verdicts are judged on its own floor, and the rest is the same.
    for (size_t i = 0; i < 2; ++i) {
      json a = merged["comparisons"][i], b = alone["comparisons"][i];
      QVERIFY(a.contains("floor_verdict") && b.contains("floor_verdict"));
      QCOMPARE(a["floor_verdict"]["floor_flips"], merged["floor"]["floor"]["flips"]);
      QCOMPARE(b["floor_verdict"]["floor_flips"], alone["floor"]["floor"]["flips"]);
      for (json* c : {&a, &b})
        for (const char* key : {"floor_flips", "p_value", "text", "verdict"})
          (*c)["floor_verdict"].erase(key);
      QCOMPARE(a, b);
    }
    // Token evidence from the logprobs files: the same causes; margins within the file's 4 digits.
    const json t1 = lb::test::read_json(out / "tokens.fp8.json");
    const json t0 = lb::test::read_json(one / "tokens.fp8.json");
    QCOMPARE(t1["pairs"].size(), t0["pairs"].size());
    for (size_t i = 0; i < t0["pairs"].size(); ++i) {
      json a = t1["pairs"][i], b = t0["pairs"][i];
      if (b.contains("baseline_margin_nats") && b["baseline_margin_nats"].is_number()) {
        QVERIFY(std::abs(a["baseline_margin_nats"].get<double>() -
                         b["baseline_margin_nats"].get<double>()) <= 2e-4);
        a.erase("baseline_margin_nats");
        b.erase("baseline_margin_nats");
      }
      QCOMPARE(a, b);
    }
  }

  // A value of the wrong kind deep in a shard's summary (here the regression's floor) refuses
  // the merge like a damaged file does, and leaves no half folder.
  void aShardWithAWrongValueIsRefusedWholly() {
    const fs::path broken = root_ / "regression-broken-0";
    fs::remove_all(broken);
    fs::copy(root_ / "regression-0", broken, fs::copy_options::recursive);
    edit_json(broken / "summary.json", [](json& j) { j["experiments"][0]["floor"] = "broken"; });
    const fs::path out = root_ / "regression-broken-merged";
    const auto result = lb::fleet::merge_shards(
        {{broken.string(), (root_ / "regression-1").string(), (root_ / "regression-2").string()},
         out.string()});
    QCOMPARE(result.exit_code, 2);
    QVERIFY(mentions(result.errors, "nothing was merged"));
    QVERIFY(!fs::exists(out));
    // A figure of the wrong type: the record names where, and nothing is merged.
    edit_json(broken / "summary.json", [](json& j) {
      j["experiments"][0].erase("floor");
      for (auto& [id, lane] : j["experiments"][0]["lanes"].items())
        for (auto& [name, phase] : lane["phases"].items()) phase["completed"] = "many";
    });
    const auto typed = lb::fleet::merge_shards(
        {{broken.string(), (root_ / "regression-1").string(), (root_ / "regression-2").string()},
         out.string()});
    QCOMPARE(typed.exit_code, 2);
    QVERIFY(mentions(typed.errors, "summary.json"));
    QVERIFY(mentions(typed.errors, ".completed"));
    QVERIFY(!fs::exists(out));
  }

  void httpDatesReadAndWriteWithoutALocale() {
    QCOMPARE(lb::text::http_date(784111777), std::string("Sun, 06 Nov 1994 08:49:37 GMT"));
    QCOMPARE(lb::text::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), int64_t(784111777));
    QCOMPARE(lb::text::http_date(951782400), std::string("Tue, 29 Feb 2000 00:00:00 GMT"));
    for (int64_t s : {int64_t(0), int64_t(1796580982), int64_t(4102444799)})
      QCOMPARE(lb::text::parse_http_date(lb::text::http_date(s)), s);
    QVERIFY(!lb::text::parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"));
    QVERIFY(!lb::text::parse_http_date("Sun, 06 Nov 1994 08:49:37 UTC"));
    QVERIFY(!lb::text::parse_http_date("Sun, 06 Foo 1994 08:49:37 GMT"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestShards)
#include "run_shards_test.moc"
