// The engine model against the field reports' measured figures (docs/calibration.md). The
// figures, their conditions, tolerances and sources are data in
// tests/fixtures/calibration/field_reports.json; every entry is measured here on a virtual clock
// and must come within its tolerance, or carry a `known_gap` that says why it does not.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/profile.h"
#include "sim_engine_runs.h"
#include "test_paths.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

// Named, as the folder's sources are compiled together (unity build).
namespace field_reports {

// A tolerance wider than this is not a calibration: such a figure is a known gap.
constexpr double kMaxTolerance = 0.15;

using Metrics = std::map<std::string, double>;

json load_field_reports() {
  std::ifstream in(lb::test::fixture_path("calibration/field_reports.json"));
  return json::parse(in, nullptr, false);
}

const json& figures() {
  static const json data = load_field_reports();
  static const json empty = json::array();
  return data.is_object() && data.contains("figures") ? data["figures"] : empty;
}

int64_t condition_int(const json& condition, const char* key) {
  return condition.at(key).get<int64_t>();
}

Profile lane_profile(const std::string& lane) {
  auto p = builtin_profile(lane);
  return p ? *p : Profile{};
}

Metrics closed_loop_metrics(const std::string& lane, const json& c) {
  const int64_t prompt_tokens = condition_int(c, "prompt_tokens");
  ClosedLoop loop(lane_profile(lane), prompt_tokens, condition_int(c, "output_tokens"),
                  condition_int(c, "requests"));
  const double duration_s = loop.run(static_cast<int>(condition_int(c, "concurrency")));
  std::vector<double> ttft, e2e, decode;
  for (const auto& t : loop.done()) {
    ttft.push_back(t.ttft_s());
    e2e.push_back(t.e2e_s());
    decode.push_back(t.decode_tok_s());
  }
  const double median_decode = median_of(decode);
  return {{"median_ttft_s", median_of(ttft)},
          {"median_e2e_s", median_of(e2e)},
          {"median_decode_tok_s", median_decode},
          {"median_itl_ms", median_decode > 0 ? 1000.0 / median_decode : 0.0},
          {"effective_prefill_tok_s", static_cast<double>(prompt_tokens) / median_of(ttft)},
          {"aggregate_output_tok_s", loop.aggregate_tok_s(duration_s)}};
}

// The same burst sent `pass` times to one engine; the metrics of the last pass.
Metrics prefix_burst_metrics(const std::string& lane, const json& c) {
  VirtualClock clock;
  EngineModel engine(lane_profile(lane), clock);
  const int64_t prefix = condition_int(c, "shared_prefix_tokens");
  const int64_t suffix = condition_int(c, "suffix_tokens");
  BurstResult burst;
  for (int64_t pass = 0; pass < condition_int(c, "pass"); ++pass) {
    burst = run_burst(clock, engine, static_cast<int>(condition_int(c, "burst_requests")), prefix,
                      suffix, condition_int(c, "output_tokens"), 100);
  }
  std::vector<double> ttft;
  for (const auto& t : burst.requests) ttft.push_back(t.ttft_s());
  const double median_ttft = median_of(ttft);
  return {
      {"median_ttft_s", median_ttft},
      {"effective_prefill_tok_s", static_cast<double>(prefix + suffix) / median_ttft},
      {"aggregate_output_tok_s", static_cast<double>(burst.output_tokens()) / burst.duration_s}};
}

// KV capacity as the engine accounts it: the blocks one request holds when its first token is
// out (prompt + 1 token) over the cache usage the engine reports then.
Metrics capacity_metrics(const std::string& lane, const json&) {
  const Profile p = lane_profile(lane);
  VirtualClock clock;
  EngineModel engine(p, clock);
  const int64_t held_tokens = 64 * p.block_size;  // 64 whole blocks
  double usage = 0;
  engine.submit(SeqSpec{engine_prompt(held_tokens - 1, 1), 8, 1},
                [&engine, &usage](const StepOutput& s) {
                  if (s.first) usage = engine.snapshot().kv_cache_usage;
                });
  clock.run();
  const double capacity = usage > 0 ? static_cast<double>(held_tokens) / usage : 0.0;
  return {{"kv_capacity_tokens", capacity},
          {"kv_capacity_native_windows", capacity / static_cast<double>(p.max_model_len)}};
}

Metrics scenario_metrics(const std::string& scenario, const std::string& lane, const json& c) {
  if (scenario == "closed_loop") return closed_loop_metrics(lane, c);
  if (scenario == "prefix_burst") return prefix_burst_metrics(lane, c);
  if (scenario == "capacity") return capacity_metrics(lane, c);
  return {};
}

// A ratio metric compares the lane with `relative_to_lane` under the same condition.
const std::map<std::string, std::string>& ratio_metrics() {
  static const std::map<std::string, std::string> table = {{"median_ttft_ratio", "median_ttft_s"}};
  return table;
}

// The simulator's value of one figure; NaN when the lane, scenario or metric is unknown.
double simulated(const json& figure) {
  const std::string scenario = figure.at("scenario");
  const std::string lane = figure.at("lane");
  const std::string metric = figure.at("metric");
  const json& c = figure.at("condition");
  if (!builtin_profile(lane)) return std::nan("");
  const auto ratio = ratio_metrics().find(metric);
  if (ratio != ratio_metrics().end()) {
    const Metrics own = scenario_metrics(scenario, lane, c);
    const Metrics other = scenario_metrics(scenario, c.at("relative_to_lane"), c);
    if (!own.count(ratio->second) || !other.count(ratio->second)) return std::nan("");
    return own.at(ratio->second) / other.at(ratio->second);
  }
  const Metrics m = scenario_metrics(scenario, lane, c);
  return m.count(metric) ? m.at(metric) : std::nan("");
}

QString figure_value(double v) {
  return QString::number(v, 'f', v >= 1000 ? 0 : v >= 100 ? 1 : v >= 10 ? 2 : 3);
}

QString describe(const json& f, double sim, double off) {
  return QString("%1: %2 %3 reported %4, simulated %5 (%6% off, tolerance %7%)")
      .arg(QString::fromStdString(f.at("id")), QString::fromStdString(f.at("lane")),
           QString::fromStdString(f.at("metric")), figure_value(f.at("reported").get<double>()),
           figure_value(sim), QString::number(off * 100, 'f', 2),
           QString::number(f.at("tolerance_relative").get<double>() * 100, 'g', 3));
}

QString missing_field(const json& f) {
  for (const char* key : {"id", "lane", "scenario", "condition", "metric", "reported",
                          "tolerance_relative", "note", "source"}) {
    if (!f.contains(key)) return QString("entry without \"%1\": %2").arg(key, f.dump().c_str());
  }
  return {};
}

// The prefix burst's three passes as the field reports measured them (docs/calibration.md):
// five requests sharing 30,000 tokens, median TTFT cold, warm, and with caching off.
struct BurstFigure {
  const char* pass;
  const char* lane;
  int64_t pass_number;
  double reported_s;
};
constexpr BurstFigure kBurstFigures[] = {
    {"cold", "fp8", 1, 9.18}, {"warm", "fp8", 2, 0.407}, {"control", "fp8-nocache", 2, 16.39}};

const json* burst_entry(const BurstFigure& b) {
  for (const auto& f : figures()) {
    if (f.value("scenario", "") != "prefix_burst" || f.value("lane", "") != b.lane ||
        f.value("metric", "") != "median_ttft_s" || !f.contains("condition"))
      continue;
    const json& c = f["condition"];
    if (c.value("pass", int64_t(0)) == b.pass_number &&
        c.value("burst_requests", int64_t(0)) == 5 &&
        c.value("shared_prefix_tokens", int64_t(0)) == 30'000)
      return &f;
  }
  return nullptr;
}

}  // namespace field_reports

using namespace field_reports;

class SimCalibrationTest : public QObject {
  Q_OBJECT
 private slots:
  void field_reports_are_complete_and_sourced() {
    QVERIFY2(figures().size() >= 20, "calibration/field_reports.json is missing or nearly empty");
    const auto lanes = profile_names();
    std::set<std::string> ids;
    for (const auto& f : figures()) {
      const QString missing = missing_field(f);
      QVERIFY2(missing.isEmpty(), qPrintable(missing));
      const std::string id = f.at("id");
      QVERIFY2(ids.insert(id).second, qPrintable(QString("duplicate id %1").arg(id.c_str())));
      QVERIFY2(std::find(lanes.begin(), lanes.end(), f.at("lane")) != lanes.end(), id.c_str());
      QVERIFY2(f.at("reported").get<double>() > 0, id.c_str());
      const double tolerance = f.at("tolerance_relative");
      QVERIFY2(tolerance > 0 && tolerance <= kMaxTolerance, id.c_str());
      QVERIFY2(!f.at("source").get<std::string>().empty(), id.c_str());
      QVERIFY2(!f.at("note").get<std::string>().empty(), id.c_str());
    }
  }

  void simulator_meets_field_reports_data() {
    QTest::addColumn<int>("index");
    for (size_t i = 0; i < figures().size(); ++i) {
      QTest::addRow("%s", figures()[i].value("id", std::string("?")).c_str())
          << static_cast<int>(i);
    }
  }

  // The burst's cold, warm and control figures are in the data, held to 10 % and not excused as
  // known gaps, so the cache's reuse within and across bursts stays calibrated.
  void prefix_burst_is_held_to_the_field_figures() {
    for (const BurstFigure& b : kBurstFigures) {
      const json* f = burst_entry(b);
      QVERIFY2(f, qPrintable(QString("no %1 prefix-burst TTFT in the data").arg(b.pass)));
      const double reported = f->at("reported");
      QVERIFY2(std::abs(reported / b.reported_s - 1.0) < 0.005, f->at("id").dump().c_str());
      QVERIFY2(f->at("tolerance_relative").get<double>() <= 0.10, f->at("id").dump().c_str());
      QVERIFY2(!f->contains("known_gap"), f->at("id").dump().c_str());
      const double sim = simulated(*f);
      const double off = std::abs(sim / reported - 1.0);
      qInfo("prefix burst %s: %s", b.pass, qPrintable(describe(*f, sim, off)));
      QVERIFY2(off <= 0.10, qPrintable(describe(*f, sim, off)));
    }
  }

  // Known gaps are reported, not failed; a gap the simulator has closed fails, so that the
  // data keeps saying which figures the model reproduces.
  void simulator_meets_field_reports() {
    QFETCH(int, index);
    const json& f = figures()[static_cast<size_t>(index)];
    QVERIFY2(missing_field(f).isEmpty(), qPrintable(missing_field(f)));
    const double sim = simulated(f);
    QVERIFY2(!std::isnan(sim), qPrintable(QString("%1: unknown lane, scenario or metric")
                                              .arg(f.at("id").get<std::string>().c_str())));
    const double off = std::abs(sim / f.at("reported").get<double>() - 1.0);
    const bool within = off <= f.at("tolerance_relative").get<double>();
    const QString line = describe(f, sim, off);
    if (f.contains("known_gap")) {
      QVERIFY2(!within, qPrintable(line + ": within tolerance now, drop its known_gap"));
      qInfo("known gap: %s: %s", qPrintable(line), f.at("known_gap").get<std::string>().c_str());
      return;
    }
    qInfo("%s", qPrintable(line));
    QVERIFY2(within, qPrintable(line));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimCalibrationTest)
#include "sim_calibration_test.moc"
