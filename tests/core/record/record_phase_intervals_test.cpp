// A phase's intervals as the engine records them: over requests with one trial, over the
// per-trial figures with several, each naming its method, resamples, seed and basis; a phase
// with none records an empty object; each writes and reads back unchanged.
#include <QtTest>
#include <random>

#include "core/record/phase_intervals.h"
#include "test_main.h"

using namespace lb::record;
using nlohmann::json;

namespace {

std::vector<double> spread(uint64_t seed, size_t n, double median) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(median), 0.2);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

lb::metrics::TrialValues trial(uint64_t seed) {
  lb::metrics::TrialValues v;
  for (double x : spread(seed, lb::metrics::trial_figures().size(), 40.0)) v.push_back(x);
  return v;
}

std::vector<std::string> keys_of(const json& j) {
  std::vector<std::string> out;
  for (const auto& [key, value] : j.items()) out.push_back(key);
  return out;
}

PhaseRecord read_back(const PhaseRecord& phase) {
  json summary = {{"experiments",
                   {{{"name", "e"},
                     {"kind", "throughput"},
                     {"lanes", {{"a", {{"phases", {{"c1", to_json(phase)}}}}}}}}}}};
  FileFields fields("summary.json");
  const RunSummary read = read_run_summary(summary, fields);
  return *read.experiments.at(0).lanes.at(0).phase("c1");
}

}  // namespace

class RecordPhaseIntervalsTest : public QObject {
  Q_OBJECT
 private slots:
  void overRequestsNameTheirMethod() {
    lb::metrics::RequestSamples s;
    s.ttft_ms = spread(1, 200, 120);
    s.e2el_ms = spread(2, 200, 900);
    const auto intervals = intervals_over_requests(s);
    QVERIFY(intervals.count("median_ttft_ms") && intervals.count("p99_e2el_ms"));
    QVERIFY(!intervals.count("median_tpot_ms"));  // no values, no interval
    const json j = to_json(intervals.at("median_ttft_ms"));
    QCOMPARE(keys_of(j), (std::vector<std::string>{"basis", "hi", "level", "lo", "method",
                                                   "method_name", "n", "resamples", "seed"}));
    QCOMPARE(j["basis"], "requests");
    QCOMPARE(j["method"], "bca");
    QCOMPARE(j["method_name"], "bootstrap over requests");
    QCOMPARE(j["n"], 200);
    QCOMPARE(j["seed"], lb::metrics::kDefaultBootstrapSeed);
    QCOMPARE(j["resamples"], lb::metrics::kDefaultBootstrapResamples);
    QVERIFY(j["lo"].get<double>() < j["hi"].get<double>());
  }

  void overTrialsGiveTheirEstimate() {
    const auto intervals = intervals_over_trials({trial(1), trial(2), trial(3)});
    QCOMPARE(intervals.size(), lb::metrics::trial_figures().size());
    const Interval& out = intervals.at("output_throughput");
    QCOMPARE(out.basis, std::string("trials"));
    QCOMPARE(out.method, std::string("percentile (expanded)"));
    QCOMPARE(out.n, int64_t(3));
    QVERIFY(out.lo <= out.estimate() && out.estimate() <= out.hi);
    const json j = to_json(out);
    QCOMPARE(j["method_name"], "bootstrap over trials");
    QCOMPARE(j["statistic"], "mean of the per-trial figures");
    QVERIFY(intervals_over_trials({trial(1)}).empty());
  }

  void aPhaseWritesAndReadsBackItsIntervals() {
    PhaseRecord none;
    set_intervals(none, {});
    QCOMPARE(to_json(none)["intervals"], json::object());  // measured, too few values
    QCOMPARE(to_json(read_back(none)).dump(), to_json(none).dump());

    PhaseRecord some;
    set_intervals(some, intervals_over_trials({trial(4), trial(5)}));
    some.more["interrupted"] = false;
    const PhaseRecord back = read_back(some);
    QCOMPARE(back.intervals.size(), some.intervals.size());
    QCOMPARE(back.interval("median_ttft_ms")->lo, some.interval("median_ttft_ms")->lo);
    QCOMPARE(to_json(back).dump(), to_json(some).dump());
    set_intervals(some, {});  // a later pass with too few values replaces them
    QVERIFY(some.intervals.empty());
    QCOMPARE(to_json(some)["intervals"], json::object());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RecordPhaseIntervalsTest)
#include "record_phase_intervals_test.moc"
