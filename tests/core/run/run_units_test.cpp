// Pure pieces of the run layer: arrival schedules, endpoint resolution, server-kind guessing,
// atomic files, the sim-lane registry, the concurrency sweep's stop rule and knee.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include "test_main.h"

#include "core/record/atomic_file.h"
#include "core/run/drive/arrival_schedule.h"
#include "core/run/experiments/concurrency_sweep.h"
#include "core/run/lanes/lane_endpoint.h"
#include "core/run/lanes/lane_probe.h"
#include "core/run/launch/sim_lane_registry.h"
#include "test_paths.h"

using namespace lb::run;

namespace {
struct GapStats {
  double mean_s = 0;
  double cv = 0;
};
GapStats gap_stats(const std::vector<int64_t>& offsets) {
  std::vector<double> gaps;
  int64_t prev = 0;
  for (int64_t t : offsets) {
    gaps.push_back(static_cast<double>(t - prev) / 1e9);
    prev = t;
  }
  double sum = 0;
  for (double g : gaps) sum += g;
  const double mean = sum / static_cast<double>(gaps.size());
  double var = 0;
  for (double g : gaps) var += (g - mean) * (g - mean);
  var /= static_cast<double>(gaps.size());
  return {mean, std::sqrt(var) / mean};
}
LevelFigures level(int64_t c, double tok_s, int64_t errors = 0, double e2el_p99_ms = 100) {
  LevelFigures l;
  l.concurrency = c;
  l.completed = 8;
  l.errors = errors;
  l.output_tok_s = tok_s;
  l.e2el_p99_ms = e2el_p99_ms;
  return l;
}
std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

class TestRunUnits : public QObject {
  Q_OBJECT
 private slots:
  void doublingStopsWhenThroughputFlattens() {
    const lb::plan::ConcurrencyDoubling d{1, 64, 0.05};
    std::vector<LevelFigures> levels = {level(1, 40)};
    QVERIFY(!doubling_stop(levels, d, 2));
    levels.push_back(level(2, 70));
    QVERIFY(!doubling_stop(levels, d, 4));
    levels.push_back(level(4, 72));  // +2.9 %
    const auto stop = doubling_stop(levels, d, 8);
    QVERIFY(stop.has_value());
    QCOMPARE(stop->reason, std::string("gain_below_min"));
    QCOMPARE(stop->at_concurrency, int64_t(4));
    QVERIFY2(stop->detail.find("2.9 %") != std::string::npos, stop->detail.c_str());
    QCOMPARE(knee_index(levels, d.min_gain), std::optional<size_t>(1));
    const auto j = lb::record::to_json(sweep_record(levels, d.min_gain, "doubling", stop));
    QCOMPARE(j["knee"]["concurrency"], 2);
    QCOMPARE(j["knee"]["reached"], true);
    QCOMPARE(j["stopped"]["reason"], "gain_below_min");
    QVERIFY(std::abs(double(j["levels"][1]["output_tok_s_gain"]) - 0.75) < 1e-9);
    QVERIFY(j["levels"][0]["output_tok_s_gain"].is_null());
  }
  void errorsAndMaxStopTheDoubling() {
    const lb::plan::ConcurrencyDoubling d{1, 4, 0.05};
    std::vector<LevelFigures> levels = {level(1, 40), level(2, 70, 1)};
    auto stop = doubling_stop(levels, d, 4);
    QCOMPARE(stop->reason, std::string("errors"));
    QCOMPARE(knee_index(levels, d.min_gain), std::optional<size_t>(0));  // errors end the search
    levels = {level(1, 40), level(2, 70), level(4, 120)};
    stop = doubling_stop(levels, d, 8);
    QCOMPARE(stop->reason, std::string("max_concurrency"));
    const auto j = lb::record::to_json(sweep_record(levels, d.min_gain, "doubling", stop));
    QCOMPARE(j["knee"]["concurrency"], 4);
    QCOMPARE(j["knee"]["reached"], false);  // still gaining at the last level
    levels = {level(1, 0, 3)};
    levels[0].completed = 0;
    QCOMPARE(doubling_stop(levels, d, 2)->reason, std::string("errors"));
    QVERIFY(!knee_index(levels, d.min_gain).has_value());
    QVERIFY(!sweep_record(levels, d.min_gain, "doubling", std::nullopt).knee_concurrency);
    QVERIFY(lb::record::to_json(sweep_record(levels, d.min_gain, "doubling", std::nullopt))["knee"]
                .is_null());
  }
  void poissonScheduleKeepsTheMeanRate() {
    const auto offsets = arrival_offsets_ns({50.0, 1.0, 7}, 4000);
    QCOMPARE(offsets.size(), size_t(4000));
    QVERIFY(std::is_sorted(offsets.begin(), offsets.end()));
    QVERIFY(offsets.front() > 0);  // the first request waits its own gap, as vLLM does
    const auto s = gap_stats(offsets);
    QVERIFY2(std::abs(s.mean_s - 0.020) < 0.001, qPrintable(QString::number(s.mean_s)));
    QVERIFY2(std::abs(s.cv - 1.0) < 0.06, qPrintable(QString::number(s.cv)));  // exponential
  }

  void burstinessShapesTheGapsNotTheRate() {
    const auto regular = gap_stats(arrival_offsets_ns({50.0, 4.0, 7}, 4000));
    const auto bursty = gap_stats(arrival_offsets_ns({50.0, 0.25, 7}, 4000));
    QVERIFY(std::abs(regular.mean_s - 0.020) < 0.001);
    QVERIFY(std::abs(bursty.mean_s - 0.020) < 0.002);
    QVERIFY2(std::abs(regular.cv - 0.5) < 0.05, qPrintable(QString::number(regular.cv)));
    QVERIFY2(std::abs(bursty.cv - 2.0) < 0.2, qPrintable(QString::number(bursty.cv)));
  }

  void scheduleIsSeeded() {
    QCOMPARE(arrival_offsets_ns({10.0, 1.0, 42}, 50), arrival_offsets_ns({10.0, 1.0, 42}, 50));
    QVERIFY(arrival_offsets_ns({10.0, 1.0, 42}, 50) != arrival_offsets_ns({10.0, 1.0, 43}, 50));
  }

  void durationBoundsAnOpenLoop() {
    const auto offsets = arrival_offsets_ns({200.0, 1.0, 3}, 0, 1'000'000'000);
    QVERIFY(offsets.size() > 150 && offsets.size() < 250);
    QVERIFY(offsets.back() < 1'000'000'000);
    const auto both = arrival_offsets_ns({100.0, 1.0, 3}, 1000, 500'000'000);  // first bound wins
    QVERIFY(both.size() > 25 && both.size() < 80);
    QVERIFY(both.back() < 500'000'000);
    const auto all_at_once = arrival_offsets_ns({0.0, 1.0, 3}, 5);
    QCOMPARE(all_at_once, std::vector<int64_t>(5, 0));
  }

  void endpointsFromBaseUrls() {
    auto a = endpoint_from_base_url("a", "http://h:8000/v1/");
    QCOMPARE(a.api_base, std::string("http://h:8000/v1"));
    QCOMPARE(a.server_root, std::string("http://h:8000"));
    QCOMPARE(a.api_url("/chat/completions"), std::string("http://h:8000/v1/chat/completions"));
    QCOMPARE(a.root_url("/metrics"), std::string("http://h:8000/metrics"));
    auto b = endpoint_from_base_url("b", "https://h/prefix");
    QCOMPARE(b.api_base, std::string("https://h/prefix/v1"));
    QCOMPARE(b.server_root, std::string("https://h/prefix"));
    set_api_key(b, "sk-secret");
    const auto req = b.make_request(b.api_url("/models"), "GET");
    QCOMPARE(req.headers.size(), size_t(1));
    QCOMPARE(req.headers[0].second, std::string("Bearer sk-secret"));
  }

  void metricsFamiliesAndServerKinds() {
    const std::string prom =
        "# HELP vllm:x help\n# TYPE vllm:x counter\nvllm:x_total 1\n"
        "process_cpu_seconds_total 3\n";
    QCOMPARE(metrics_families_in(prom), std::vector<std::string>{"vllm"});
    QVERIFY(metrics_families_in("notvllm:x 1\n").empty());
    const std::string sg = read_all(lb::test::fixture_path("wire/sglang_metrics.prom"));
    QCOMPARE(metrics_families_in(sg), std::vector<std::string>{"sglang"});
    const std::string ll = read_all(lb::test::fixture_path("wire/llamacpp_metrics.prom"));
    QCOMPARE(metrics_families_in(ll), std::vector<std::string>{"llamacpp"});

    ProbeReport r;
    r.models.push_back({"m", 8192, "vllm"});
    guess_server_kind(r);
    QCOMPARE(r.kind, ServerKind::Vllm);
    r.metrics_families = {"sglang"};
    guess_server_kind(r);
    QCOMPARE(r.kind, ServerKind::Sglang);
    r.metrics_families.clear();
    r.models[0].owned_by = "library";
    guess_server_kind(r);
    QCOMPARE(r.kind, ServerKind::Ollama);
    QVERIFY(!r.supports_ignore_eos());
    r.models[0].owned_by = "myteam";  // a model of one's own namespace: /api/version tells
    guess_server_kind(r);
    QCOMPARE(r.kind, ServerKind::Unknown);
    r.ollama_api = true;
    guess_server_kind(r);
    QCOMPARE(r.kind, ServerKind::Ollama);
    r.version_json = {{"version", "0.1.0"}, {"server", "lanebench-sim"}};
    guess_server_kind(r);
    QCOMPARE(r.kind, ServerKind::LanebenchSim);
    QVERIFY(r.supports_ignore_eos());
  }

  void atomicFileReplacesWhole() {
    const auto dir = std::filesystem::temp_directory_path() / "lb_run_atomic_test";
    std::filesystem::remove_all(dir);
    const std::string path = (dir / "sub" / "f.json").string();
    QVERIFY(lb::record::write_file_atomically(path, "first"));
    QVERIFY(lb::record::write_file_atomically(path, "second"));
    QCOMPARE(read_all(path), std::string("second"));
    QCOMPARE(std::distance(std::filesystem::directory_iterator(dir / "sub"), {}), 1L);
    std::string error;
    QVERIFY(!lb::record::write_file_atomically("/proc/lb_no_such_dir/x", "y", &error));
    QVERIFY(!error.empty());
    std::filesystem::remove_all(dir);
  }

  void simLanesWithoutASimulatorSayWhy() {
    std::string spec;
    QVERIFY(is_sim_base_url("sim:fp8?time_scale=0.05", &spec));
    QCOMPARE(spec, std::string("fp8?time_scale=0.05"));
    QVERIFY(!is_sim_base_url("http://x"));
    set_sim_lane_starter(nullptr);
    auto r = start_sim_lane("fp8");
    QVERIFY(r.base_url.empty());
    QVERIFY(r.error.find("not available in this build") != std::string::npos);
    set_sim_lane_starter([](std::string_view s) {
      return SimLaneResult{"http://127.0.0.1:1/v1", nullptr, s == "bad" ? "no profile" : ""};
    });
    QCOMPARE(start_sim_lane("fp8").base_url, std::string("http://127.0.0.1:1/v1"));
    QCOMPARE(start_sim_lane("bad").error, std::string("no profile"));
    set_sim_lane_starter(nullptr);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestRunUnits)
#include "run_units_test.moc"
