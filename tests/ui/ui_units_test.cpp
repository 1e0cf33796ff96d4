// The GUI's non-visual parts: the workspace folder, the staging sink across threads, the live
// data that feeds the charts, highlight ranges from core/compare, and stale diff jobs dropped.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <thread>

#include "core/metrics/bootstrap.h"
#include "core/metrics/request_metrics.h"
#include "core/metrics/trial_intervals.h"
#include "core/record/phase_intervals.h"
#include "core/record/run_summary.h"
#include "models/lane_stats_model.h"
#include "test_main.h"
#include "ui/decision/gate_rows.h"
#include "ui/pages/lane_prober.h"
#include "ui/review/diff_job_runner.h"
#include "ui/review/pair_highlighter.h"
#include "ui/run/live_charts.h"
#include "ui/run/live_run_data.h"
#include "ui/run/staging_sink.h"
#include "ui/workspace/key_allowances.h"
#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

using namespace lb;
using namespace lb::ui;

namespace {

metrics::RequestRecord request_record(const std::string& lane, int64_t t0_ns, int index, int events,
                                      int tokens_per_event) {
  metrics::RequestRecord r;
  r.lane_id = lane;
  r.experiment = "throughput";
  r.index = index;
  r.t_sched_ns = t0_ns + index * 100'000'000LL;
  r.result.t_sent_ns = r.t_sched_ns + 1'000'000;
  for (int e = 0; e < events; ++e) {
    net::EventArrival a;
    a.arrival_ns = r.result.t_sent_ns + 50'000'000LL + e * 10'000'000LL;
    a.tokens = tokens_per_event;
    a.content_bytes = 4;
    r.result.events.push_back(a);
  }
  r.result.t_done_ns = r.result.events.back().arrival_ns + 1'000'000;
  r.result.usage.completion_tokens = events * tokens_per_event;
  r.result.usage.prompt_tokens = 100;
  r.result.http_status = 200;
  r.result.content = std::string(static_cast<size_t>(events) * 4, 'x');
  return r;
}

}  // namespace

class UiUnitsTest : public QObject {
  Q_OBJECT
 public:
  // A lane's key is in the environment while its workspace is saved, and must not be written.
  static void initMain() {
    lb::test::set_environment_before_threads("BF16_KEY", "sk-secret-value");
  }

 private slots:
  // The Decision page sets energy per token and cost per million tokens side by side where a lane
  // measured them, with their intervals over trials, and words the candidate's verdict for what
  // the figure is ("less energy", not "faster").
  void decision_rows_show_energy_and_cost_with_their_verdicts() {
    auto phase = [](double joules, double lo, double hi) {
      nlohmann::json p = {
          {"completed", 18},
          {"total_output_tokens", 432},
          {"output_throughput", 4000.0},
          {"energy", {{"joules", joules}, {"source", "the lane's /metrics"}}},
          {"cost", {{"usd_per_hour", 2.0}}},
          {"intervals",
           {{"joules_per_output_token", {{"lo", lo}, {"hi", hi}, {"level", 0.95}, {"n", 3}}}}}};
      if (joules < 0) p.erase("energy"), p.erase("intervals");
      return p;
    };
    const nlohmann::json summary = {
        {"experiments",
         {{{"kind", "throughput"},
           {"name", "energy"},
           {"lanes",
            {{"bf16", {{"phases", {{"c2", phase(66.2, 0.150, 0.157)}}}, {"phase_order", {"c2"}}}},
             {"fp8", {{"phases", {{"c2", phase(28.9, 0.0651, 0.0688)}}}, {"phase_order", {"c2"}}}},
             {"dark", {{"phases", {{"c2", phase(-1, 0, 0)}}}, {"phase_order", {"c2"}}}}}},
           {"comparisons",
            {{{"baseline", "bf16"},
              {"candidate", "fp8"},
              {"phase", "c2"},
              {"figure", "joules_per_output_token"},
              {"label", "J/output token"},
              {"ratio", 0.437},
              {"lo", 0.42},
              {"hi", 0.45},
              {"verdict", "faster"},
              {"statement", "fp8/bf16 c2 J/output token 0.437 [0.420, 0.450]: less energy"}}}}}}}};
    record::FileFields fields("summary.json");
    const record::RunSummary run = record::read_run_summary(summary, fields);
    QVERIFY2(!fields.damaged(), fields.damage().empty() ? "" : fields.damage()[0].c_str());
    const auto rows = performance_rows(run, {"bf16", "fp8", "dark"});
    const models::GateRowView* energy = nullptr;
    const models::GateRowView* cost = nullptr;
    for (const auto& row : rows) {
      if (row.label.startsWith("Energy per output token (J)")) energy = &row;
      if (row.label.startsWith("Cost per 1M output tokens ($)")) cost = &row;
    }
    QVERIFY(energy && cost);
    QCOMPARE(energy->cells.size(), size_t(3));
    QVERIFY2(energy->cells[0].text.startsWith("0.153 [0.15, 0.157]"),
             qPrintable(energy->cells[0].text));
    QVERIFY2(energy->cells[1].text.contains("less energy"), qPrintable(energy->cells[1].text));
    QCOMPARE(energy->cells[1].verdict, QString("faster"));  // tinted as an improvement
    QCOMPARE(energy->cells[2].text, QString("–"));
    // $2 an hour at 4,000 output tok/s: 2 / 3600 / 4000 x 1e6 = $0.139 per million.
    QVERIFY2(cost->cells[0].text.startsWith("0.139"), qPrintable(cost->cells[0].text));
  }

  // The live context and prefix-cache charts fold an experiment's requests by its kind, so a
  // sweep the plan named keeps its charts.
  void live_context_chart_follows_the_kind_not_the_name() {
    LiveRunData data;
    ExperimentKinds kinds;
    kinds.add("long prompts", "context_sweep");
    data.set_experiment_kinds(kinds);
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16"});
    std::vector<metrics::RequestRecord> batch;
    for (int i = 0; i < 3; ++i) {
      batch.push_back(request_record("bf16", t0, i, 8, 1));
      batch.back().experiment = "long prompts";
      batch.back().phase = std::to_string(512 << i);
      batch.back().result.usage.prompt_tokens = 512 << i;
    }
    data.add(batch);
    QCOMPARE(data.ttft_vs_context("bf16").size(), size_t(3));
    QCOMPARE(data.ttft_vs_context("bf16").back().x(), 2048.0);
    QCOMPARE(kinds.kind_of("long prompts-2"), std::optional(record::ExperimentKind::ContextSweep));
    QCOMPARE(kinds.kind_of("capacity"), std::optional(record::ExperimentKind::Capacity));
    QVERIFY(!kinds.kind_of("nonsense"));
  }

  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void workspace_round_trip_keeps_lanes_and_no_secrets() {
    QTemporaryDir dir;
    QString error;
    QVERIFY2(Workspace::create_demo(dir.path(), &error), qPrintable(error));
    Workspace ws;
    QVERIFY2(ws.open(dir.path(), &error), qPrintable(error));
    QCOMPARE(ws.lanes().size(), size_t(3));
    QCOMPARE(ws.lanes()[2].sim_profile, std::string("fp8-mtp3"));
    QCOMPARE(ws.lanes()[2].sim_options.at("time_scale"), std::string("0.4"));
    QVERIFY(QDir(ws.runs_dir()).exists());
    std::vector<plan::Lane> lanes = ws.lanes();
    lanes[0].api_key_env = "BF16_KEY";
    lanes[0].notes.prefix_caching = false;
    QVERIFY(ws.set_lanes(lanes, &error));
    Workspace again;
    QVERIFY(again.open(dir.path(), &error));
    QCOMPARE(again.lanes()[0].api_key_env, std::string("BF16_KEY"));
    QCOMPARE(again.lanes()[0].notes.prefix_caching, std::optional<bool>(false));
    QFile file(QDir(dir.path()).filePath("lanes.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("sk-secret-value"));
    QVERIFY(ws.new_run_dir("Regression 20").contains("-regression-20"));
  }

  // Security: a plan's api_key_env is sent only where the user allowed it. The workbench asks
  // once per workspace, host and variable, remembers the answer in the user's settings (not in
  // the workspace folder), and a No refuses the lane without sending anything.
  void key_variables_are_sent_only_where_the_user_allowed() {
    QTemporaryDir dir;
    lb::plan::Plan plan;
    lb::plan::Lane lane;
    lane.id = "fp8";
    lane.base_url = "https://gpu-a.example.com/v1";
    lane.api_key_env = "HF_TOKEN";
    plan.lanes = {lane};
    int asked = 0;
    QMessageBox::StandardButton answer = QMessageBox::No;
    QTimer answerer;
    QObject::connect(&answerer, &QTimer::timeout, [&] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        ++asked;
        QVERIFY(box->text().contains("HF_TOKEN"));
        QVERIFY(box->text().contains("gpu-a.example.com"));
        box->button(answer)->click();
      }
    });
    answerer.start(10);
    lb::ui::KeyAllowances allowances(dir.path());
    QString error;
    QVERIFY(!allowances.confirm(nullptr, plan, &error));
    QVERIFY2(error.contains("HF_TOKEN"), qPrintable(error));
    QCOMPARE(asked, 1);
    QVERIFY(!allowances.environment().allows_key("HF_TOKEN", "gpu-a.example.com"));
    answer = QMessageBox::Yes;
    QVERIFY(allowances.confirm(nullptr, plan, &error));
    QCOMPARE(asked, 2);
    // Remembered: not asked again, for this workspace and host only.
    QVERIFY(lb::ui::KeyAllowances(dir.path()).confirm(nullptr, plan, &error));
    QCOMPARE(asked, 2);
    const lb::plan::Environment env = lb::ui::KeyAllowances(dir.path()).environment();
    QVERIFY(env.allows_key("HF_TOKEN", "gpu-a.example.com"));
    QVERIFY(!env.allows_key("HF_TOKEN", "gpu-b.example.com"));
    QVERIFY(!env.allows_key("ANTHROPIC_API_KEY", "gpu-a.example.com"));
    QTemporaryDir other;
    QVERIFY(!lb::ui::KeyAllowances(other.path())
                 .environment()
                 .allows_key("HF_TOKEN", "gpu-a.example.com"));
    for (const QString& name : QDir(dir.path()).entryList(QDir::Files))
      QVERIFY2(!name.contains("allow", Qt::CaseInsensitive), qPrintable(name));
  }

  void broken_lanes_file_is_a_clear_error() {
    QTemporaryDir dir;
    QFile file(QDir(dir.path()).filePath("lanes.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"lanes": [{"base_url": "sim:fp8"}]})");
    file.close();
    Workspace ws;
    QString error;
    QVERIFY(!ws.open(dir.path(), &error));
    QVERIFY2(error.contains("missing \"id\""), qPrintable(error));
  }

  void staging_sink_hands_over_every_record_across_threads() {
    StagingSink sink;
    constexpr int kThreads = 4, kPerThread = 2000;
    std::vector<std::thread> producers;
    for (int t = 0; t < kThreads; ++t)
      producers.emplace_back([&sink, t] {
        for (int i = 0; i < kPerThread; ++i)
          sink.on_request_done(request_record("lane" + std::to_string(t), 0, i, 3, 1));
      });
    size_t taken = 0;
    int batches = 0;
    while (taken < size_t(kThreads * kPerThread)) {
      if (sink.pending()) {
        StagedBatch batch = sink.take();
        taken += batch.records.size();
        ++batches;
        for (const auto& r : batch.records) QVERIFY(r.result.content.empty());  // texts stay out
      }
      std::this_thread::yield();
    }
    for (auto& p : producers) p.join();
    QCOMPARE(taken, size_t(kThreads * kPerThread));
    QVERIFY(batches < kThreads * kPerThread);  // batched, not one hand-over per record
    QVERIFY(!sink.pending());
  }

  // Lanes run one after another overlay on "time since the lane started"; clearing the box puts
  // them back on wall time, redrawn from the data at once.
  void live_charts_overlay_lanes_on_their_own_clock() {
    LiveRunData data;
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16", "fp8"});
    std::vector<metrics::RequestRecord> batch;
    for (int i = 0; i < 30; ++i) {
      batch.push_back(request_record("bf16", t0, i, 20, 1));
      batch.push_back(request_record("fp8", t0 + 60'000'000'000LL, i, 20, 1));  // starts 60 s later
    }
    data.add(batch);
    QCOMPARE(data.lane_start_s("bf16"), 0.0);
    QCOMPARE(data.lane_start_s("fp8"), 60.0);
    LiveCharts charts(std::make_shared<widgets::LanePalette>());
    charts.set_kind("throughput");
    QVERIFY(charts.lane_time());  // the default
    charts.update_from(data, {"bf16", "fp8"}, 100);
    auto first_x = [&](widgets::ChartPanel* panel, const QString& lane) {
      const auto points = panel->series(lane);
      return points.empty() ? -1.0 : points.front().x();
    };
    QVERIFY(std::abs(first_x(charts.ttft(), "fp8") - first_x(charts.ttft(), "bf16")) < 1e-9);
    QVERIFY(std::abs(first_x(charts.output_rate(), "fp8") - first_x(charts.output_rate(), "bf16")) <
            1e-9);
    QVERIFY(charts.output_rate()->x_axis().title.contains("lane"));
    charts.lane_time_box()->click();  // by the check box, as a user does
    QVERIFY(!charts.lane_time());
    QVERIFY(std::abs(first_x(charts.ttft(), "fp8") - first_x(charts.ttft(), "bf16") - 60) < 1e-9);
    QVERIFY(!charts.output_rate()->x_axis().title.contains("lane"));
  }

  // Throughput's Pareto chart: each lane's levels as (total output, per-user decode) and the
  // frontier of all lanes' levels, dashed, as levels finish.
  void pareto_chart_follows_the_levels() {
    LiveRunData data;
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16", "mtp"});
    std::vector<metrics::RequestRecord> batch;
    for (int i = 0; i < 8; ++i)
      for (const char* phase : {"c1", "c4"}) {
        // Longer answers at c4: more total output at the same per-user rate.
        const int events = phase[1] == '1' ? 20 : 40;
        auto a = request_record("bf16", t0, i, events, 1);
        auto b = request_record("mtp", t0, i, events, 3);
        a.phase = b.phase = phase;
        batch.push_back(a);
        batch.push_back(b);
      }
    data.add(batch);
    QCOMPARE(data.phase_points("bf16").size(), size_t(2));
    LiveCharts charts(std::make_shared<widgets::LanePalette>());
    charts.set_kind("throughput");
    const auto shown = charts.shown_panels();
    QVERIFY(std::find(shown.begin(), shown.end(), charts.pareto()) != shown.end());
    charts.update_from(data, {"bf16", "mtp"}, 10);
    const auto mtp = charts.pareto()->series("mtp");
    QCOMPARE(mtp.size(), size_t(2));
    // Three tokens per event at the same event rate: about three times the per-user rate.
    const auto bf16 = charts.pareto()->series("bf16");
    QVERIFY2(mtp.front().y() > 2.5 * bf16.front().y(),
             qPrintable(QString("%1 vs %2").arg(mtp.front().y()).arg(bf16.front().y())));
    // mtp beats bf16 on both axes: the frontier is mtp's levels and no bf16 one.
    const QString frontier = LiveCharts::frontier_name();
    QVERIFY(charts.pareto()->is_reference(frontier));
    QCOMPARE(charts.pareto()->series(frontier), mtp);
    QVERIFY(charts.pareto()->x_axis().unit.contains("tok/s"));
  }

  // Repeated trials: once two trials of a phase are over (a later one began, or the run ended),
  // its figures' intervals are over trials, as summary.json computes them, and the lane table
  // shows the mean of the per-trial figures with its interval, aggregate output included.
  void live_trials_give_intervals_over_trials() {
    LiveRunData data;
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16"});
    std::map<int64_t, std::vector<metrics::RequestRecord>> by_trial;
    auto add_trial = [&](int64_t trial) {
      std::vector<metrics::RequestRecord> batch;
      for (int i = 0; i < 8; ++i) {
        // Each trial decodes at its own rate (1, 2 or 3 tokens per event) and starts later.
        metrics::RequestRecord r = request_record("bf16", t0 + trial * 10'000'000'000LL, i, 10 + i,
                                                  1 + static_cast<int>(trial));
        r.phase = "c1";
        r.trial = trial;
        batch.push_back(r);
        by_trial[trial].push_back(std::move(r));
      }
      data.add(batch);
    };
    auto expected = [&](int64_t trials) {
      std::vector<metrics::TrialValues> values;
      for (int64_t t = 0; t < trials; ++t)
        values.push_back(metrics::trial_values(metrics::summarize(by_trial[t])));
      return record::intervals_over_trials(values);
    };
    using Basis = models::FigureIntervals::Basis;
    add_trial(0);
    add_trial(1);  // trial 1 may still be running: only trial 0 is over
    QCOMPARE(data.phases("bf16").front().intervals.basis, Basis::Requests);
    QCOMPARE(data.phases("bf16").front().intervals.n, int64_t(16));
    QVERIFY(!data.phases("bf16").front().intervals.find("output_throughput"));
    add_trial(2);
    models::FigureIntervals got = data.phases("bf16").front().intervals;
    QCOMPARE(got.basis, Basis::Trials);
    QCOMPARE(got.n, int64_t(2));
    auto want = expected(2);
    QCOMPARE(got.find("median_decode_tok_s")->lo, want.at("median_decode_tok_s").lo);
    QVERIFY(data.settle().count("bf16"));  // the run ended: trial 2 counts too
    got = data.phases("bf16").front().intervals;
    want = expected(3);
    QCOMPARE(got.n, int64_t(3));
    for (const char* key : {"median_decode_tok_s", "output_throughput", "median_e2el_ms"}) {
      QVERIFY2(got.find(key), key);
      QCOMPARE(got.find(key)->lo, want.at(key).lo);
      QCOMPARE(got.find(key)->hi, want.at(key).hi);
      QCOMPARE(got.find(key)->estimate, want.at(key).estimate());
    }
    QVERIFY(got.find("median_decode_tok_s")->lo < got.find("median_decode_tok_s")->hi);
    // The chart band of the level is the same interval.
    const auto band = data.phase_points("bf16");
    QCOMPARE(band.size(), size_t(1));
    QCOMPARE(band[0].decode_hi, want.at("median_decode_tok_s").hi);

    models::LaneStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.set_rows({{"bf16", data.summary("bf16"), 0, data.intervals("bf16")}});
    using L = models::LaneStatsModel;
    const double decode = want.at("median_decode_tok_s").estimate();
    QCOMPARE(L::value(model.rows()[0], L::DecodeP50), decode);  // the mean, not the pooled median
    const QString cell = model.index(0, L::DecodeP50).data().toString();
    QCOMPARE(
        cell,
        QString("%1\n[%2, %3]")
            .arg(QString::number(decode, 'f', decode >= 100 ? 0 : 1))
            .arg(QString::number(want.at("median_decode_tok_s").lo, 'f', decode >= 100 ? 0 : 1))
            .arg(QString::number(want.at("median_decode_tok_s").hi, 'f', decode >= 100 ? 0 : 1)));
    QVERIFY(model.index(0, L::OutputTokS).data().toString().contains('['));
    QVERIFY(model.index(0, L::DecodeP50)
                .data(Qt::ToolTipRole)
                .toString()
                .contains("bootstrap over 3 trials"));
    QVERIFY(!model.index(0, L::ItlP99).data().toString().contains('['));
    QVERIFY(!model.index(0, L::Completed).data().toString().contains('['));
  }

  // Each concurrency level's median decode rate carries its 95 % bootstrap interval (the one
  // summary.json gives), and the decode-vs-concurrency chart draws it as the lane's band.
  void live_levels_carry_their_intervals() {
    LiveRunData data;
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16"});
    std::vector<metrics::RequestRecord> batch;
    std::map<QString, std::vector<double>> decode;
    for (int i = 0; i < 60; ++i) {
      // Requests of 10-29 events at 1-3 tokens each: decode rates that differ.
      metrics::RequestRecord r = request_record("bf16", t0, i, 10 + i % 20, 1 + i % 3);
      r.phase = i < 30 ? "c1" : "c4";
      decode[QString::fromStdString(r.phase)].push_back(
          metrics::compute_request_metrics(r).decode_tok_s);
      batch.push_back(std::move(r));
    }
    data.add(batch);
    const auto points = data.phase_points("bf16");
    QCOMPARE(points.size(), size_t(2));
    for (size_t k = 0; k < 2; ++k) {
      const QString phase = k == 0 ? "c1" : "c4";
      QCOMPARE(points[k].x, k == 0 ? 1.0 : 4.0);
      const auto expected =
          metrics::bootstrap_interval(decode[phase], metrics::BootstrapStatistic::median());
      QCOMPARE(points[k].decode_lo, expected.lo);
      QCOMPARE(points[k].decode_hi, expected.hi);
      QVERIFY(points[k].decode_lo < points[k].decode_hi);
      QVERIFY(points[k].decode_lo <= points[k].decode_p50_tok_s &&
              points[k].decode_p50_tok_s <= points[k].decode_hi);
    }
    LiveCharts charts(std::make_shared<widgets::LanePalette>());
    charts.set_kind("throughput");
    charts.update_from(data, {"bf16"}, 100);
    const auto drawn = charts.decode_vs_concurrency()->intervals("bf16");
    QCOMPARE(drawn.size(), size_t(2));
    QCOMPARE(drawn[1].hi, points[1].decode_hi);
    charts.decode_vs_concurrency()->flush();  // the band reaches the backend without trouble
    charts.clear();
    QVERIFY(charts.decode_vs_concurrency()->intervals("bf16").empty());
  }

  void live_data_counts_tokens_not_events() {
    LiveRunData data;
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16", "mtp"});
    std::vector<metrics::RequestRecord> batch;
    for (int i = 0; i < 10; ++i) {
      batch.push_back(request_record("bf16", t0, i, 20, 1));
      batch.push_back(request_record("mtp", t0, i, 20, 3));
    }
    const auto changed = data.add(batch);
    QCOMPARE(changed.size(), size_t(2));
    QCOMPARE(data.ttft_over_time("bf16").size(), size_t(10));
    QCOMPARE(data.ttft_over_time("bf16").front().y(),
             50.0);  // 51 ms after t_sched, 50 after t_sent
    QCOMPARE(data.itl_sample_ms("mtp").size(), size_t(10 * 19));
    QCOMPARE(data.itl_sample_ms("mtp").front(), 10.0);
    QCOMPARE(data.tokens_per_event_sample("mtp").front(), 3.0);
    double bf16_tokens = 0, mtp_tokens = 0;
    for (const QPointF& p : data.output_rate_over_time("bf16", 100)) bf16_tokens += p.y();
    for (const QPointF& p : data.output_rate_over_time("mtp", 100)) mtp_tokens += p.y();
    QCOMPARE(bf16_tokens, 200.0);
    QCOMPARE(mtp_tokens, 600.0);  // three tokens per event, never counted as one
    // A bucket still filling is left out so the line does not dip at its live end.
    QVERIFY(data.output_rate_over_time("bf16", 0.5).empty());
    QCOMPARE(data.summary("mtp").completed, int64_t(10));
    QVERIFY(!data.has_context_points());
  }

  void live_data_stays_bounded_and_exact_on_a_long_run() {
    LiveRunData data;
    const int64_t t0 = 1'000'000'000;
    data.reset(t0, {"bf16"});
    std::vector<metrics::RequestRecord> all;
    for (int batch = 0; batch < 100; ++batch) {
      std::vector<metrics::RequestRecord> records;
      for (int i = 0; i < 200; ++i) {
        metrics::RequestRecord r = request_record("bf16", t0, batch * 200 + i, 2 + i % 5, 1);
        // Spread the TTFTs and the gaps so the percentiles have something to rank.
        for (size_t e = 0; e < r.result.events.size(); ++e)
          r.result.events[e].arrival_ns +=
              (i * 7919 % 200) * 100'000LL + static_cast<int64_t>(e) * (batch % 7) * 1'000'000LL;
        r.result.t_done_ns = r.result.events.back().arrival_ns + 1'000'000;
        records.push_back(r);
      }
      all.insert(all.end(), records.begin(), records.end());
      data.add(records);
    }
    // 20,000 requests and 80,000 gaps: the chart data stays bounded, the table stays exact.
    QVERIFY(data.ttft_over_time("bf16").size() <= 300);
    QVERIFY(data.ttft_over_time("bf16").size() >= 150);
    QCOMPARE(data.ttft_stride("bf16"), int64_t(128));
    QCOMPARE(data.itl_sample_ms("bf16").size(), size_t(10'000));
    QCOMPARE(data.requests("bf16"), int64_t(20'000));
    const metrics::LaneSummary live = data.summary("bf16");
    const metrics::LaneSummary batch = metrics::summarize(all);
    QCOMPARE(live.completed, batch.completed);
    QCOMPARE(live.ttft_ms.p99, batch.ttft_ms.p99);
    QCOMPARE(live.itl_ms.p50, batch.itl_ms.p50);
    QCOMPARE(live.itl_ms.count, size_t(batch.itl_ms.count));
    QCOMPARE(live.output_throughput, batch.output_throughput);
    // The ITL sample is uniform: its mean is within 2 % of the mean of every gap.
    double sum = 0;
    for (double v : data.itl_sample_ms("bf16")) sum += v;
    QVERIFY(std::abs(sum / 10'000 - batch.itl_ms.mean) < 0.02 * batch.itl_ms.mean);
  }

  void highlight_ranges_are_utf16_and_refined() {
    const std::string a = "We recommend the colour blue. Café au lait.";
    const std::string b = "We recommended the colour blue. Café au lait 😀 ok.";
    auto [left, right] = highlight_pair(a, b);
    QVERIFY(!left.ranges.empty());
    QVERIFY(!right.ranges.empty());
    bool refined = false;
    for (const widgets::DiffRange& r : right.ranges) {
      QVERIFY(r.start >= 0 && r.start + r.length <= right.text.size());
      refined = refined || r.refined;
    }
    QVERIFY(refined);  // recommend -> recommended is refined to the added "ed"
    const widgets::DiffRange first = right.ranges.front();
    QCOMPARE(right.text.mid(first.start, first.length), QString("recommended"));
    QVERIFY(!first.refined);
    const widgets::DiffRange second = right.ranges[1];
    QVERIFY(second.refined);
    QCOMPARE(right.text.mid(second.start, second.length), QString("ed"));
    // The emoji (two UTF-16 units) is inside a highlighted range of the right side.
    const int emoji = right.text.indexOf(QString::fromUtf8("😀"));
    bool covered = false;
    for (const widgets::DiffRange& r : right.ranges)
      covered = covered || (r.start <= emoji && emoji + 2 <= r.start + r.length);
    QVERIFY(covered);
    auto [same_a, same_b] = highlight_pair(a, a);
    QVERIFY(same_a.ranges.empty() && same_b.ranges.empty());
  }

  void stale_diff_jobs_are_dropped() {
    DiffJobRunner runner;
    QSignalSpy ready(&runner, &DiffJobRunner::ready);
    std::string big_a, big_b;
    for (int i = 0; i < 3000; ++i) {
      big_a += "word" + std::to_string(i % 97) + " ";
      big_b += "word" + std::to_string((i * 7) % 97) + " ";
    }
    runner.request(big_a, big_b);
    runner.request(big_b, big_a);
    const uint64_t last = runner.request("one two", "one three");
    QVERIFY(ready.wait(10000));
    QTRY_COMPARE_WITH_TIMEOUT(runner.pending_jobs(), 0, 10000);
    QCOMPARE(ready.count(), 1);
    QCOMPARE(ready.at(0).at(0).value<uint64_t>(), last);
    QCOMPARE(runner.dropped_results(), 2);
  }

  // Probes run on their own pool: with every thread of Qt's global pool busy (a slow run load, a
  // long report export), a probe still answers.
  void probesDoNotWaitForTheGlobalPool() {
    QThreadPool* global = QThreadPool::globalInstance();
    QSemaphore release;
    for (int i = 0; i < global->maxThreadCount(); ++i)
      QVERIFY(global->tryStart([&release] { release.acquire(); }));
    plan::Lane lane;
    lane.id = "down";
    lane.base_url = "http://127.0.0.1:9/v1";  // nothing listens: the probe fails at once
    QFuture<ProbeOutcome> probe =
        QtConcurrent::run(&probe_pool(), [lane] { return probe_lane_blocking(lane); });
    QElapsedTimer waited;
    waited.start();
    while (!probe.isFinished() && waited.elapsed() < 10'000) QTest::qWait(10);
    const bool finished = probe.isFinished();
    release.release(global->maxThreadCount());
    global->waitForDone();
    QVERIFY2(finished, "the probe waited for the global pool");
    QVERIFY(!probe.result().ok);
    QVERIFY2(probe.result().text.contains("lane down"), qPrintable(probe.result().text));
  }
};

LANEBENCH_TEST_MAIN(UiUnitsTest)
#include "ui_units_test.moc"
