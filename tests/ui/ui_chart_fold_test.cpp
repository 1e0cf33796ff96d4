// One fold, one drawing: the same requests folded as a live run drains them (LiveRunData) and as a
// reopened run reads them back from requests.jsonl lines (StoredSeriesBuilder) give the same
// series, and the Run page's charts and a reopened run's draw them alike.
#include <QTest>
#include <cmath>
#include <string>
#include <vector>

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/record/run_summary.h"
#include "core/report/request_line.h"
#include "test_main.h"
#include "ui/history/stored_charts.h"
#include "ui/history/stored_run_series.h"
#include "ui/run/live_charts.h"
#include "ui/run/live_run_data.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

using namespace lb;

namespace {

constexpr int64_t kFoldT0 = 5'000'000'000;
constexpr int64_t kRunT0 = kFoldT0 - 1'300'000'000;  // the run's start, before kFoldT0

// Request INDEX of EXPERIMENT on LANE: EVENTS events of TOKENS tokens each (or uncounted when
// TOKENS < 0), 17 ms apart, sent 2 ms after its schedule.
metrics::RequestRecord chart_record(const std::string& lane, const std::string& experiment,
                                    const std::string& phase, int index, int events, int tokens) {
  metrics::RequestRecord r;
  r.lane_id = lane;
  r.experiment = experiment;
  r.phase = phase;
  r.index = index;
  r.t_sched_ns = kFoldT0 + index * 230'000'000LL;
  r.result.t_sent_ns = r.t_sched_ns + 2'000'000;
  for (int e = 0; e < events; ++e) {
    net::EventArrival a;
    a.arrival_ns = r.result.t_sent_ns + 40'000'000LL + (e * 17 + index % 5) * 1'000'000LL;
    a.tokens = tokens;
    a.content_bytes = 4;
    r.result.events.push_back(a);
  }
  r.result.t_done_ns = r.result.events.back().arrival_ns + 1'000'000;
  r.result.usage.completion_tokens = events * std::max(tokens, 1);
  r.result.usage.prompt_tokens = 512 << (index % 3);
  r.result.http_status = 200;
  r.result.content = std::string(static_cast<size_t>(events) * 4, 'x');
  return r;
}

std::vector<metrics::RequestRecord> mixed_records() {
  std::vector<metrics::RequestRecord> out;
  for (int i = 0; i < 40; ++i) {
    out.push_back(chart_record("bf16", "load", i % 2 ? "c4" : "c1", i, 12 + i % 7, 1));
    out.push_back(chart_record("mtp", "load", i % 2 ? "c4" : "c1", i, 5 + i % 4, 3));
    out.push_back(chart_record("bf16", "long prompts", std::to_string(512 << (i % 3)), i, 9, -1));
    const char* pass = i % 3 == 0 ? "cold" : i % 3 == 1 ? "warm" : "control";
    out.push_back(chart_record("mtp", "cache", pass, i, 6, 2));
  }
  out[3].warmup = true;
  out[8].result.http_status = 503;
  out[8].result.error = net::ErrorKind::HttpStatus;
  // Scheduled first, failed last: the run's clock starts at it.
  metrics::RequestRecord first = chart_record("bf16", "load", "c1", 999, 1, 1);
  first.t_sched_ns = kRunT0;
  first.result.t_sent_ns = kRunT0 + 1'000'000;
  first.result.http_status = 503;
  first.result.error = net::ErrorKind::HttpStatus;
  out.push_back(first);
  return out;
}

ui::ExperimentKinds kinds() {
  ui::ExperimentKinds k;
  k.add("load", "throughput");
  k.add("long prompts", "context_sweep");
  k.add("cache", "prefix_cache");
  return k;
}

// The records as a live run folds them.
void fold_live(ui::LiveRunData& data, const std::vector<metrics::RequestRecord>& records) {
  data.set_experiment_kinds(kinds());
  data.reset(kRunT0, {"bf16", "mtp"});
  data.add(records);
}

// The records as a reopened run reads them: each written as requests.jsonl writes it, read back,
// in two blocks, the run's earliest request (the last line) in the second, so the fold's clock
// starts after the run's.
ui::StoredRunSeries reopened(const std::vector<metrics::RequestRecord>& records) {
  std::vector<report::RequestPoint> points;
  for (const metrics::RequestRecord& r : records) {
    const std::string line = metrics::to_json(r, metrics::compute_request_metrics(r)).dump();
    std::string problem;
    std::optional<report::RequestPoint> p = report::parse_request_line(line, &problem);
    if (!p) qFatal("a request line did not read back: %s", problem.c_str());
    points.push_back(std::move(*p));
  }
  ui::StoredSeriesBuilder builder({"bf16", "mtp"}, {kinds(), {}});
  builder.add_block({points.begin(), points.end() - 1});
  builder.add_block({points.end() - 1, points.end()});
  return builder.finish({"bf16", "mtp"});
}

void compare_points(const std::vector<QPointF>& a, const std::vector<QPointF>& b) {
  QCOMPARE(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    QVERIFY2(std::abs(a[i].x() - b[i].x()) < 1e-9 && std::abs(a[i].y() - b[i].y()) < 1e-9,
             qPrintable(QString("point %1: (%2, %3) against (%4, %5)")
                            .arg(i)
                            .arg(a[i].x())
                            .arg(a[i].y())
                            .arg(b[i].x())
                            .arg(b[i].y())));
  }
}

}  // namespace

class UiChartFoldTest : public QObject {
  Q_OBJECT
 private slots:
  void liveAndReopenedFoldTheSameSeries() {
    const std::vector<metrics::RequestRecord> records = mixed_records();
    ui::LiveRunData live;
    fold_live(live, records);
    const ui::StoredRunSeries stored = reopened(records);
    for (const QString lane : {"bf16", "mtp"}) {
      const ui::LaneSeries a = live.series(lane, 1e9);
      const ui::LaneSeries& b = stored.by_lane.at(lane);
      QVERIFY(!a.ttft_ms.empty() && !a.output_tok_s.empty() && !a.itl_sample_ms.empty());
      compare_points(a.ttft_ms, b.ttft_ms);
      compare_points(a.output_tok_s, b.output_tok_s);
      QCOMPARE(a.itl_sample_ms, b.itl_sample_ms);
      QCOMPARE(a.itl_gaps_seen, b.itl_gaps_seen);
      QCOMPARE(a.tokens_per_event_sample, b.tokens_per_event_sample);
      compare_points(a.decode_vs_context, b.decode_vs_context);
      compare_points(a.ttft_vs_context, b.ttft_vs_context);
      compare_points(a.ttft_per_pass, b.ttft_per_pass);
      QCOMPARE(a.requests, b.requests);
      QCOMPARE(a.failed, b.failed);
      QCOMPARE(a.start_s, b.start_s);
      QCOMPARE(a.phase_start_s, b.phase_start_s);
    }
    // What each lane holds: bf16's context sweep on the context charts, mtp's cache passes on the
    // pass chart; bf16's failure and mtp's warm-up (a cache request) in no chart.
    const ui::LaneSeries& bf16 = stored.by_lane.at("bf16");
    const ui::LaneSeries& mtp = stored.by_lane.at("mtp");
    QCOMPARE(bf16.decode_vs_context.size(), size_t(40));
    QVERIFY(mtp.decode_vs_context.empty());
    QCOMPARE(mtp.ttft_per_pass.size(), size_t(39));
    QCOMPARE(mtp.ttft_per_pass.front().x(), 1.0);
    QCOMPARE(mtp.ttft_per_pass.back().x(), 3.0);
    QCOMPARE(bf16.requests, int64_t(81));
    QCOMPARE(bf16.failed, int64_t(2));
    QCOMPARE(bf16.start_s, 0.0);
    QCOMPARE(mtp.start_s, 1.3);
    QCOMPARE(mtp.failed, int64_t(0));
    QCOMPARE(bf16.ttft_ms.size(), size_t(79));
    QCOMPARE(mtp.ttft_ms.size(), size_t(79));
    QCOMPARE(mtp.tokens_per_event_sample.front(), 3.0);

    // Counted apart from the fold: every token of a measured, finished request is in the output
    // rate (1 s buckets), each bucket ending where its last token's second does.
    for (const QString lane : {"bf16", "mtp"}) {
      double tokens = 0, last_s = 0;
      for (const metrics::RequestRecord& r : records) {
        if (QString::fromStdString(r.lane_id) != lane || r.warmup || r.result.http_status != 200)
          continue;
        tokens += static_cast<double>(r.result.usage.completion_tokens);
        last_s =
            std::max(last_s, static_cast<double>(r.result.events.back().arrival_ns - kRunT0) / 1e9);
      }
      double drawn = 0;
      for (const QPointF& p : stored.by_lane.at(lane).output_tok_s) drawn += p.y();
      QCOMPARE(drawn, tokens);
      QCOMPARE(stored.by_lane.at(lane).output_tok_s.back().x(), std::floor(last_s) + 1);
    }
    // Live, the bucket still filling is left out: at 2.5 s only the buckets ending by 2 s.
    const ui::LaneSeries early = live.series("bf16", 2.5);
    QVERIFY(!early.output_tok_s.empty());
    QCOMPARE(early.output_tok_s.back().x(), 2.0);
  }

  // The Run page's charts and a reopened run's are drawn by the same code from the same fold:
  // every chart a lane has data in holds the same points in both.
  void liveAndReopenedChartsDrawTheSame() {
    const std::vector<metrics::RequestRecord> records = mixed_records();
    ui::LiveRunData data;
    fold_live(data, records);
    auto palette = std::make_shared<widgets::LanePalette>();
    ui::LiveCharts live(palette);
    live.set_kind("throughput");
    live.update_from(data, {"bf16", "mtp"}, 1e9);
    ui::StoredCharts stored(palette);
    stored.show_run(reopened(records));
    const std::vector<std::pair<widgets::ChartPanel*, widgets::ChartPanel*>> pairs = {
        {live.output_rate(), stored.output_rate()},
        {live.ttft(), stored.ttft()},
        {live.decode_vs_context(), stored.decode_vs_context()},
        {live.ttft_vs_context(), stored.ttft_vs_context()},
        {live.ttft_per_pass(), stored.panel(ui::RunChart::TtftPerPass)},
    };
    for (const auto& [a, b] : pairs) {
      QCOMPARE(a->lanes(), b->lanes());
      QVERIFY2(!a->lanes().isEmpty(), qPrintable(a->title()));
      for (const QString& lane : a->lanes()) compare_points(a->series(lane), b->series(lane));
    }
    // The reopened run shows the prefix-cache and context charts it has data for.
    const auto shown = stored.shown_panels();
    QVERIFY(std::find(shown.begin(), shown.end(), stored.panel(ui::RunChart::TtftPerPass)) !=
            shown.end());
    QVERIFY(std::find(shown.begin(), shown.end(), stored.decode_vs_context()) != shown.end());
  }

  // A reopened throughput run draws the levels' figures from its summary as the live run drew
  // them from its requests: decode per concurrency with the intervals, output per concurrency,
  // and the Pareto chart with its frontier, first.
  void reopenedThroughputRunShowsItsLevels() {
    record::RunSummary summary;
    record::ExperimentSection section;
    section.name = "load";
    section.kind = record::ExperimentKind::Throughput;
    section.kind_name = "throughput";
    for (const auto& [lane, scale] : {std::pair{"bf16", 1.0}, std::pair{"fp8", 1.5}}) {
      record::LaneRecord l;
      l.id = lane;
      for (int c : {1, 4, 16}) {
        record::PhaseRecord p;
        p.name = "c" + std::to_string(c);
        p.figures.completed = 100;
        p.figures.decode_tok_s.count = 100;
        p.figures.decode_tok_s.median = scale * 90.0 / std::sqrt(c);
        p.figures.output_throughput = scale * 90.0 * std::sqrt(c);
        p.intervals["median_decode_tok_s"] = {p.figures.decode_tok_s.median - 1,
                                              p.figures.decode_tok_s.median + 1, 0.95, 100};
        l.phases.push_back(p);
      }
      section.lanes.push_back(l);
    }
    summary.experiments.push_back(section);
    ui::StoredRunSeries series;
    series.lanes = {"bf16", "fp8"};
    ui::add_summary(series, summary);
    QCOMPARE(series.kinds, std::vector<record::ExperimentKind>{record::ExperimentKind::Throughput});
    ui::StoredCharts charts(std::make_shared<widgets::LanePalette>());
    charts.show_run(series);
    widgets::ChartPanel* decode = charts.panel(ui::RunChart::DecodeVsConcurrency);
    const std::vector<QPointF> fp8 = decode->series("fp8");
    QCOMPARE(fp8.size(), size_t(3));
    QCOMPARE(fp8[1], QPointF(4, 1.5 * 90.0 / 2));
    QCOMPARE(decode->intervals("fp8").size(), size_t(3));
    QCOMPARE(decode->intervals("fp8")[2].hi, 1.5 * 90.0 / 4 + 1);
    QCOMPARE(charts.panel(ui::RunChart::OutputVsConcurrency)->series("bf16").back(),
             QPointF(16, 360));
    widgets::ChartPanel* pareto = charts.panel(ui::RunChart::Pareto);
    QCOMPARE(pareto->series("bf16").size(), size_t(3));
    // fp8 is better at every level: the frontier is fp8's three levels.
    QCOMPARE(pareto->series(ui::LiveCharts::frontier_name()).size(), size_t(3));
    const auto shown = charts.shown_panels();
    QVERIFY(shown.size() >= 3);
    QCOMPARE(shown[0], charts.panel(ui::RunChart::OutputVsConcurrency));
    QCOMPARE(shown[1], decode);
    QCOMPARE(shown[2], pareto);
  }
};

LANEBENCH_TEST_MAIN(UiChartFoldTest)
#include "ui_chart_fold_test.moc"
