// The Runs page's charts folded block by block: output rate buckets equal to a direct count,
// however wide the bins grew; the TTFT scatter thinned to its bound with the stride said; the
// reservoir uniform over a long input; blocks folding to what one pass over all gives; and the
// traffic kinds' series picked by the plan's experiment kinds.
#include <QCheckBox>
#include <QTest>

#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "test_main.h"
#include "ui/history/stored_charts.h"
#include "ui/history/stored_run_series.h"
#include "ui/run/bounded_samples.h"
#include "ui/run/lane_series.h"
#include "ui/run/traffic_series.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

using namespace lb;
using report::RequestPoint;

namespace {

constexpr int64_t kT0 = 5'000'000'123'456;  // an arbitrary steady-clock origin, ns

// Requests of one lane every `gap_ms`, each with `events` events 20 ms apart and per-event
// token counts 1..3.
std::vector<RequestPoint> requests(int count, double gap_ms, int events, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> tokens(1, 3);
  std::uniform_int_distribution<int> jitter_us(0, 999);
  std::vector<RequestPoint> out;
  for (int i = 0; i < count; ++i) {
    RequestPoint p;
    p.lane = "fp8";
    p.experiment = "throughput";
    p.index = i;
    p.ok = true;
    p.t_sched_ns = kT0 + static_cast<int64_t>(i * gap_ms * 1e6);
    p.t_sent_ns = p.t_sched_ns + jitter_us(rng) * 1000;
    p.ttft_ms = 100 + i % 50;
    for (int e = 0; e < events; ++e) {
      p.event_offsets_ns.push_back(100e6 + e * 20e6 + jitter_us(rng) * 1000.0);
      p.event_tokens.push_back(static_cast<float>(tokens(rng)));
    }
    p.output_tokens = 0;
    for (float t : p.event_tokens) p.output_tokens += static_cast<int64_t>(t);
    out.push_back(std::move(p));
  }
  return out;
}

// Tokens per 1 s bucket after t0, counted directly.
std::map<int64_t, double> direct_buckets(const std::vector<RequestPoint>& points, int64_t t0) {
  std::map<int64_t, double> out;
  for (const RequestPoint& p : points)
    for (size_t i = 0; i < p.event_offsets_ns.size(); ++i) {
      const int64_t at = p.t_sent_ns + static_cast<int64_t>(p.event_offsets_ns[i]) - t0;
      out[at / 1'000'000'000] += p.event_tokens[i];
    }
  return out;
}

void compare_rate(const std::vector<QPointF>& drawn, const std::map<int64_t, double>& direct) {
  QVERIFY(!drawn.empty());
  std::map<int64_t, double> by_bucket;
  for (const QPointF& p : drawn) by_bucket[static_cast<int64_t>(p.x() + 0.5) - 1] = p.y();
  for (const auto& [bucket, tokens] : direct) {
    QVERIFY2(by_bucket.count(bucket), qPrintable(QString("bucket %1 missing").arg(bucket)));
    QVERIFY2(std::abs(by_bucket[bucket] - tokens) < 1e-6,
             qPrintable(QString("bucket %1: %2 drawn, %3 counted")
                            .arg(bucket)
                            .arg(by_bucket[bucket])
                            .arg(tokens)));
  }
  for (const auto& [bucket, tokens] : by_bucket)
    if (!direct.count(bucket)) QCOMPARE(tokens, 0.0);  // a quiet second between busy ones
}

}  // namespace

class UiStoredSeriesTest : public QObject {
  Q_OBJECT

 private slots:
  void rateBucketsEqualADirectCount() {
    const auto points = requests(2'000, 250, 40, 1);  // 500 s: bins stay 1 ms wide
    ui::StoredSeriesBuilder builder({"fp8"});
    for (size_t at = 0; at < points.size(); at += 300)
      builder.add_block(
          {points.begin() + static_cast<std::ptrdiff_t>(at),
           points.begin() + static_cast<std::ptrdiff_t>(std::min(points.size(), at + 300))});
    const ui::StoredRunSeries series = builder.finish({"fp8"});
    compare_rate(series.by_lane.at("fp8").output_tok_s, direct_buckets(points, kT0));
  }

  // Four hours: the bins widen well past a millisecond, and still fall into whole seconds.
  void widenedBinsStillFallIntoWholeSeconds() {
    const auto points = requests(1'500, 10'000, 20, 2);
    ui::StoredSeriesBuilder builder({});
    builder.add_block(points);
    const ui::StoredRunSeries series = builder.finish();
    QCOMPARE(series.lanes, QStringList{"fp8"});
    compare_rate(series.by_lane.at("fp8").output_tok_s, direct_buckets(points, kT0));
  }

  void ttftScatterIsThinnedAndSaysSo() {
    const auto points = requests(23'000, 10, 2, 3);
    ui::StoredSeriesBuilder builder({"fp8"});
    builder.add_block(points);
    const ui::StoredLaneSeries lane = builder.finish().by_lane.at("fp8");
    QCOMPARE(lane.requests, int64_t(23'000));
    QVERIFY(lane.ttft_ms.size() <= ui::StoredRunSeries::kMaxTtftPoints);
    QVERIFY(lane.ttft_ms.size() > ui::StoredRunSeries::kMaxTtftPoints / 2);
    QCOMPARE(lane.ttft_stride, int64_t(8));  // 23,000 / 8 = 2,875 points
    for (size_t i = 1; i < lane.ttft_ms.size(); ++i)
      QVERIFY(lane.ttft_ms[i].x() >= lane.ttft_ms[i - 1].x());
    QVERIFY(lane.ttft_ms.front().x() < 1.0);         // seconds since the run's start
    QVERIFY(lane.ttft_ms.back().x() > 0.9 * 230.0);  // the last requests are still there
    QCOMPARE(lane.itl_gaps_seen, int64_t(23'000));
  }

  void blocksFoldToWhatOnePassGives() {
    report::RunFolder folder;
    folder.requests = requests(3'000, 30, 10, 4);
    folder.request_lanes = {"fp8"};
    const ui::StoredRunSeries whole = ui::stored_run_series(folder);
    ui::StoredSeriesBuilder builder({});
    for (size_t at = 0; at < folder.requests.size(); at += 7)
      builder.add_block({folder.requests.begin() + static_cast<std::ptrdiff_t>(at),
                         folder.requests.begin() + static_cast<std::ptrdiff_t>(
                                                       std::min(folder.requests.size(), at + 7))});
    const ui::StoredRunSeries blocks = builder.finish({"fp8"});
    const auto& a = whole.by_lane.at("fp8");
    const auto& b = blocks.by_lane.at("fp8");
    QCOMPARE(a.ttft_ms, b.ttft_ms);
    QCOMPARE(a.output_tok_s, b.output_tok_s);
    QCOMPARE(a.itl_sample_ms, b.itl_sample_ms);
    QCOMPARE(a.tokens_per_event_sample, b.tokens_per_event_sample);
  }

  // A lane that ran after another overlays it on "time since the lane started", as live; the
  // check box puts it back on wall time.
  void storedChartsOverlayLanesOnTheirOwnClock() {
    auto first = requests(50, 100, 5, 5);
    auto second = requests(50, 100, 5, 6);
    for (RequestPoint& p : second) {
      p.lane = "bf16";
      p.t_sched_ns += 90'000'000'000LL;  // 90 s later
      p.t_sent_ns += 90'000'000'000LL;
    }
    ui::StoredSeriesBuilder builder({"fp8", "bf16"});
    builder.add_block(first);
    builder.add_block(second);
    const ui::StoredRunSeries series = builder.finish({"fp8", "bf16"});
    QCOMPARE(series.by_lane.at("bf16").start_s, 90.0);
    ui::StoredCharts charts(std::make_shared<widgets::LanePalette>());
    charts.show_run(series);
    auto first_x = [&](widgets::ChartPanel* panel, const QString& lane) {
      const auto points = panel->series(lane);
      return points.empty() ? -1.0 : points.front().x();
    };
    QVERIFY(std::abs(first_x(charts.output_rate(), "bf16") - first_x(charts.output_rate(), "fp8")) <
            1.01);  // 1 s buckets
    QVERIFY(first_x(charts.ttft(), "bf16") < 1.0);
    charts.lane_time_box()->click();
    QVERIFY(first_x(charts.ttft(), "bf16") > 90.0);
    QVERIFY(first_x(charts.output_rate(), "bf16") > 90.0);
  }

  // Each level's steady window (summary.json, seconds from the level's first send) lands on the
  // run's clock at that level's first send, shaded at its steady output; a damaged entry draws
  // nothing.
  void steadyWindowsSitOnTheRunsClock() {
    auto points = requests(50, 200, 5, 7);  // one every 0.2 s: c1 from 0 s, c4 from 4 s
    for (size_t i = 0; i < points.size(); ++i) points[i].phase = i < 20 ? "c1" : "c4";
    ui::StoredSeriesBuilder builder({"fp8"});
    builder.add_block(points);
    ui::StoredRunSeries series = builder.finish({"fp8"});
    const auto& starts = series.by_lane.at("fp8").phase_start_s;
    const double c4_start = (points[20].t_sent_ns - points[0].t_sched_ns) / 1e9;
    QVERIFY(std::abs(starts.at("throughput\nc4") - c4_start) < 1e-9);

    record::ExperimentSection section;
    section.name = "throughput";
    section.kind = record::ExperimentKind::Throughput;
    record::LaneRecord lane;
    lane.id = "fp8";
    for (const char* name : {"c1", "c4", "c8"}) {
      record::PhaseRecord phase;
      phase.name = name;
      phase.more["steady_state"] = {
          {"found", true}, {"window_s", {0.5, 2.5}}, {"output_throughput", 40.0}, {"short", true}};
      lane.phases.push_back(phase);
    }
    lane.phases[2].more["steady_state"]["window_s"] = "damaged";  // and c8 sent nothing anyway
    section.lanes.push_back(lane);
    record::RunSummary summary;
    summary.experiments.push_back(section);
    const ui::StoredRunSeries plain = series;
    ui::add_steady_windows(series, summary);
    const auto& windows = series.by_lane.at("fp8").steady_windows;
    QCOMPARE(windows.size(), size_t(2));
    QVERIFY(std::abs(windows[1].x0 - (c4_start + 0.5)) < 1e-9);
    QVERIFY(std::abs(windows[1].x1 - (c4_start + 2.5)) < 1e-9);
    QCOMPARE(windows[1].level, 40.0);

    ui::StoredCharts charts(std::make_shared<widgets::LanePalette>());
    charts.show_run(series);
    QCOMPARE(charts.output_rate()->spans("fp8").size(), size_t(2));
    QVERIFY(charts.output_rate()->title().contains("steady window"));
    charts.show_run(plain);  // a run without windows: none, nor the note
    QVERIFY(charts.output_rate()->spans("fp8").empty());
    QVERIFY(!charts.output_rate()->title().contains("steady window"));
  }

  // The traffic kinds' series come from the experiments' kinds as plan.json names them: a
  // trace named "replay" (and "replay-2", appended later) gives lateness, a throughput's "c1" is
  // no capacity probe while a capacity experiment's is, its failures are the probe's errors and
  // its warm-ups count nowhere; turns give the median TTFT per turn.
  void trafficSeriesFollowThePlansKinds() {
    const nlohmann::json plan = {
        {"experiments",
         {{{"kind", "trace"}, {"name", "replay"}},
          {{"kind", "throughput"}, {"name", ""}},
          {{"kind", "capacity"}, {"name", ""}, {"slo", {{"ttft_p99_ms", 100}}}, {"load", "rate"}},
          {{"kind", "sessions"}, {"name", "chat"}}}}};
    std::vector<RequestPoint> points;
    auto add = [&](const char* experiment, const char* phase, double ttft_ms, bool ok = true) {
      RequestPoint p;
      p.lane = "fp8";
      p.experiment = experiment;
      p.phase = phase;
      p.ok = ok;
      p.ttft_ms = ok ? ttft_ms : -1;
      p.tpot_ms = ok ? 10 : -1;
      p.t_sched_ns = kT0 + static_cast<int64_t>(points.size()) * 1'000'000'000;
      p.t_sent_ns = p.t_sched_ns + 2'000'000;  // 2 ms late
      points.push_back(p);
      return &points.back();
    };
    add("replay", "trace", 50);
    add("replay-2", "trace", 50);
    add("throughput", "c1", 50);
    add("capacity", "r2", 20);
    add("capacity", "r2", 40);
    add("capacity", "r2", 0, false);
    add("capacity", "r2", 900)->warmup = true;
    add("capacity", "r4", 300);
    for (int turn : {0, 0, 1}) add("chat", "sessions", 100 + 10 * turn)->turn = turn;
    ui::StoredSeriesBuilder builder(
        {"fp8"}, ui::StoredTrafficPlan::from(lb::record::plan_headline_of(plan)));
    builder.add_block(points);
    const ui::StoredRunSeries series = builder.finish({"fp8"});
    const ui::StoredLaneSeries& s = series.by_lane.at("fp8");
    QCOMPARE(s.lateness_ms, (std::vector<QPointF>{{0, 2}, {1, 2}}));
    QCOMPARE(s.ttft_by_turn, (std::vector<QPointF>{{1, 100}, {2, 110}}));
    QCOMPARE(s.capacity_probes.size(), size_t(2));
    QCOMPARE(s.capacity_probes[0].load, 2.0);
    QCOMPARE(s.capacity_probes[0].completed, int64_t(2));
    QCOMPARE(s.capacity_probes[0].errors, int64_t(1));
    QCOMPARE(s.capacity_probes[0].ttft_p99_ms, 20 + 0.99 * 20);  // numpy's linear p99 of 20, 40
    QCOMPARE(s.capacity_probes[1].ttft_p99_ms, 300.0);
    QCOMPARE(series.capacity_slo.ttft_p99_ms, 100.0);
    QCOMPARE(series.capacity_slo.tpot_p99_ms, -1.0);
    QVERIFY(series.capacity_slo.by_rate);

    // Drawn: both probes missed (errors; TTFT over the SLO), on a req/s axis.
    ui::StoredCharts charts(std::make_shared<widgets::LanePalette>());
    charts.show_run(series);
    QVERIFY(!charts.capacity_ttft()->isHidden() && !charts.trace_lateness()->isHidden());
    QCOMPARE(charts.capacity_probes()->series(ui::TrafficCharts::slo_missed_name()).size(),
             size_t(2));
    QVERIFY(charts.capacity_probes()->series(ui::TrafficCharts::slo_met_name()).empty());
    QCOMPARE(charts.capacity_ttft()->x_axis().unit, QString("req/s"));
    QCOMPARE(charts.capacity_ttft()->series("SLO 100 ms"),
             (std::vector<QPointF>{{0, 100}, {4, 100}}));
    QVERIFY(charts.capacity_tpot()->series("SLO 100 ms").empty());  // no TPOT SLO: no line
  }

  // A run folder is untrusted: a line's turn of 10^15 is left out of the chart (it once sized a
  // vector), as is any turn past what a plan allows; a turn's median comes from a bounded sample
  // once the turn has many requests.
  void turnsStayBounded() {
    ui::TrafficSeries s;
    ui::TrafficRequest r;
    r.kind = lb::record::ExperimentKind::Sessions;
    r.ok = true;
    r.ttft_ms = 5;
    for (int64_t turn : {int64_t{1'000'000'000'000'000}, ui::TrafficSeries::kMaxTurns}) {
      r.turn = turn;
      s.add(r);
    }
    QVERIFY(s.ttft_by_turn().empty());
    r.turn = 0;
    for (int i = 0; i < 100'000; ++i) {
      r.ttft_ms = i % 1000;
      s.add(r);
    }
    const std::vector<QPointF> turns = s.ttft_by_turn();
    QCOMPARE(turns.size(), size_t(1));
    QCOMPARE(turns[0].x(), 1.0);
    QVERIFY2(std::abs(turns[0].y() - 499.5) < 50, qPrintable(QString::number(turns[0].y())));
  }

  // Stamps a damaged run folder may hold: an event a year after its send, or at 1e300 ns, or a
  // send stamp near the end of int64, is left out of the output rate; before, the rate's bins
  // grew to span it (a second each) and the program ran out of memory.
  void hostileStampsStayBounded() {
    ui::RateBins bins(1'000'000'000);
    bins.add(1'000'000'000, 10);
    bins.add(2'000'000'000, 20);
    bins.add(int64_t{1'000'000'000} * 1'000'000'000, 30);  // 31 years on
    QCOMPARE(bins.points(1'000'000'000), (std::vector<QPointF>{{1, 10}, {2, 20}}));

    ui::LaneSeriesFold fold(1'000'000'000, 100);
    const std::vector<double> offsets = {1e6, 2e6, 1e300, -5e6, 3e6};
    for (int64_t sent : {int64_t{1'000'000'000}, std::numeric_limits<int64_t>::max() - 10}) {
      ui::ChartRequest r;
      r.traffic.ok = true;
      r.traffic.t_sent_ns = sent;
      r.output_tokens = 5;
      r.event_offsets_ns = offsets;
      fold.add(r);
    }
    const ui::LaneSeries s = fold.series(1'000'000'000);
    QCOMPARE(s.output_tok_s, (std::vector<QPointF>{{1, 3}}));  // the first request's 3 events
    QCOMPARE(s.itl_sample_ms, (std::vector<double>{1, 1}));    // twice 1 -> 2 ms
  }

  // Li's Algorithm L over a million values in order: every tenth of the input holds about a
  // tenth of the sample (fixed seed, so this is one fixed draw, checked at about 4 sigma).
  void reservoirIsUniformOverALongInput() {
    ui::ReservoirSample sample(2'000);
    for (int i = 0; i < 1'000'000; ++i) sample.add(i);
    QCOMPARE(sample.seen(), int64_t(1'000'000));
    QCOMPARE(sample.values().size(), size_t(2'000));
    int deciles[10] = {};
    for (double v : sample.values()) ++deciles[static_cast<int>(v) / 100'000];
    for (int d = 0; d < 10; ++d)
      QVERIFY2(deciles[d] > 140 && deciles[d] < 260,
               qPrintable(QString("decile %1 holds %2 of 2000").arg(d).arg(deciles[d])));
    ui::ReservoirSample few(10);
    for (int i = 0; i < 7; ++i) few.add(i);
    QCOMPARE(few.values(), (std::vector<double>{0, 1, 2, 3, 4, 5, 6}));
    ui::ReservoirSample none(0);
    none.add(1);
    QVERIFY(none.values().empty());
  }
};

LANEBENCH_TEST_MAIN(UiStoredSeriesTest)
#include "ui_stored_series_test.moc"
