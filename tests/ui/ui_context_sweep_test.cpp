// Offscreen, end to end: the Run page runs a small context sweep on two in-process simulator
// lanes; the sweep's charts get one point per request (three per size) per lane, the per-phase
// table shows the same figures as the run's summary.json, each headline figure with the interval
// summary.json gives it ("x [lo, hi]"), and the run finishes. Also: every experiment kind's form
// writes an experiment the plan parser accepts, the live gate table follows the engine, and a
// doubling throughput sweep's knee and stop reason reach the Messages pane.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStyleOptionViewItem>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/plan/plan.h"
#include "core/report/concurrency_knee.h"
#include "json_file.h"
#include "models/item_roles.h"
#include "models/phase_stats_model.h"
#include "sim_lane_starter.h"
#include "sim_test_lane.h"
#include "test_main.h"
#include "tests/ui/plan_file_wait.h"
#include "ui/main_window.h"
#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/gate_scores.h"
#include "ui/run/live_charts.h"
#include "ui/run/plan_progress_view.h"
#include "ui/workspace/lane_json.h"
#include "widgets/chart/chart_panel.h"

using namespace lb;
using namespace lb::ui;

namespace {

using lb::test::read_json;

plan::Lane sweep_lane(const std::string& id, const std::string& profile) {
  return test::sim_test_lane(id, profile, "0.02");
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b)); }

}  // namespace

class UiContextSweepTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    lb::app::register_sim_lane_starter();
  }

  void every_kind_form_writes_a_parsable_experiment() {
    ExperimentForm form;
    form.use_quick_defaults();
    const nlohmann::json lane = {{"id", "a"}, {"base_url", "sim:fp8"}};
    for (const char* kind :
         {"regression", "throughput", "context_sweep", "prefix_cache", "speculative", "gates"}) {
      form.set_kind(kind);
      QCOMPARE(form.kind(), QString(kind));
      QString error;
      const nlohmann::json e = form.experiment_json(&error);
      QVERIFY2(!e.is_null(), qPrintable(error));
      const nlohmann::json plan = {{"name", "p"}, {"lanes", {lane}}, {"experiments", {e}}};
      const plan::PlanParseResult parsed = plan::parse_plan(plan.dump(), "form");
      QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    }
    form.set_kind("throughput");
    form.set_throughput_doubling(64, 10);
    QString error;
    const nlohmann::json doubling = form.experiment_json(&error);
    QCOMPARE(doubling["concurrency_doubling"]["max"].get<int>(), 64);
    QVERIFY(near(doubling["concurrency_doubling"]["min_gain"].get<double>(), 0.10));
    const nlohmann::json plan = {{"name", "p"}, {"lanes", {lane}}, {"experiments", {doubling}}};
    const plan::PlanParseResult parsed = plan::parse_plan(plan.dump(), "form");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto& tp = std::get<plan::ThroughputExperiment>(parsed.plan->experiments[0].params);
    QVERIFY(tp.doubling.has_value());
    QCOMPARE(tp.doubling->max, int64_t(64));
    // A soak: lanes side by side, many requests bounded by a time limit per level.
    form.set_throughput("1000", 5'000'000, 64);
    QVERIFY(!form.experiment_json(&error).contains("lane_order"));
    QVERIFY(!form.experiment_json(&error).contains("duration_s"));
    form.set_throughput_lanes(true, 3600);
    const nlohmann::json soak = form.experiment_json(&error);
    QCOMPARE(soak["requests"].get<int>(), 5'000'000);
    const nlohmann::json soak_plan = {{"name", "p"}, {"lanes", {lane}}, {"experiments", {soak}}};
    const plan::PlanParseResult soak_parsed = plan::parse_plan(soak_plan.dump(), "form");
    QVERIFY2(soak_parsed.ok(), soak_parsed.error_text().c_str());
    const plan::Experiment& soak_e = soak_parsed.plan->experiments[0];
    QCOMPARE(soak_e.lane_order, plan::LaneOrder::Parallel);
    const auto& soak_tp = std::get<plan::ThroughputExperiment>(soak_e.params);
    QCOMPARE(soak_tp.duration_s, 3600.0);
    QCOMPARE(soak_tp.requests, int64_t(5'000'000));
    form.set_throughput_lanes(false);
    QVERIFY(!form.experiment_json(&error).contains("lane_order"));
    form.set_throughput("1, x", 4, 8);
    QVERIFY(form.experiment_json(&error).is_null());
    QVERIFY(error.contains("Concurrency"));
  }

  void gate_scores_follow_the_engine_then_the_summary() {
    LiveGateScores scores;
    scores.reset({"a", "b"}, {"json", "tools"});
    record::GateResult live;
    live.lane_id = "b";
    live.check = "tools";
    live.status = record::GateStatus::Fail;
    live.score = "1/3";
    live.failures.push_back({1, "no tool call", nlohmann::json::object()});
    scores.apply(live);
    auto rows = scores.rows();
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[1].cells[1].text, QString("fail 1/3"));
    QCOMPARE(rows[1].cells[1].detail, QString("no tool call"));  // the reason, live
    QCOMPARE(rows[0].cells[0].status, QString("not run"));
    const nlohmann::json summary = {
        {"experiments",
         {{{"kind", "gates"},
           {"lanes",
            {{"a",
              {{"gates",
                {{"json", {{"status", "unsupported"}, {"score", "0/3"}, {"why", "no schema"}}},
                 {"tools", {{"status", "pass"}, {"score", "3/3"}}}}}}}}}}}}};
    record::FileFields fields("summary.json");
    scores.apply_summary(record::read_run_summary(summary, fields));
    rows = scores.rows();
    QCOMPARE(rows[0].cells[0].text, QString("unsupported"));
    QCOMPARE(rows[0].cells[0].detail, QString("no schema"));
    QCOMPARE(rows[1].cells[0].text, QString("pass 3/3"));
    QCOMPARE(rows[1].cells[1].text, QString("fail 1/3"));  // b kept its live score
    record::GateResult multimodal;
    multimodal.lane_id = "a";
    multimodal.check = "multimodal (responses)";
    multimodal.status = record::GateStatus::Pass;
    multimodal.score = "10/10";
    scores.apply(multimodal);
    rows = scores.rows();
    QCOMPARE(rows.size(), size_t(3));
    QCOMPARE(rows[2].gate, QString("multimodal (responses)"));
    QCOMPARE(rows[2].cells[0].text, QString("pass 10/10"));
  }

  // Three lanes' gates fill the live table from the engine's typed results while the run goes,
  // then from the run's own summary (with each failure's reason), without the page reading
  // summary.json back.
  void live_gate_table_fills_as_each_gate_is_scored() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    nlohmann::json lanes = nlohmann::json::array();
    for (const char* profile : {"bf16", "fp8", "fp8-mtp3"})
      lanes.push_back(
          {{"id", profile}, {"base_url", std::string("sim:") + profile + "?time_scale=0.01"}});
    const nlohmann::json plan = {
        {"name", "gates"},
        {"lanes", lanes},
        {"experiments",
         {{{"kind", "gates"}, {"checks", {"json", "streaming", "tools"}}, {"repeat", 2}}}}};
    const QString path = dir.filePath("gates.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(plan.dump()));
    file.close();

    RunPage* run = window.run_page();
    window.show_page(MainWindow::Run);
    QStandardItemModel* model = run->charts()->gate_model();
    int scored = 0;
    QStringList live_cells;  // what the table showed as results came in
    connect(run->controller(), &RunController::gates_scored, this,
            [&](const std::vector<record::GateResult>& results) {
              scored += static_cast<int>(results.size());
              for (int r = 0; r < model->rowCount(); ++r)
                for (int c = 0; c < model->columnCount(); ++c)
                  if (const QStandardItem* item = model->item(r, c)) live_cells << item->text();
            });
    QStringList at_section_done;  // the plan view's line when the experiment was announced over
    connect(run->controller(), &RunController::section_done, this,
            [&](int index, const record::ExperimentSection& section) {
              QCOMPARE(index, 0);
              QCOMPARE(section.lanes.size(), size_t(3));
              at_section_done << run->plan_view()->experiment_text(index);
            });
    QSignalSpy finished(run, &RunPage::run_finished);
    QVERIFY2(lb::test::start_plan_file(run, path, &error), qPrintable(error));
    QVERIFY(finished.wait(120'000));
    QCOMPARE(scored, 9);  // three checks on three lanes, each heard once
    // The plan view marks the experiment done with what its section records, as it is over.
    QCOMPARE(at_section_done.size(), 1);
    QVERIFY2(at_section_done[0].endsWith("3 lanes \u00b7 gates 9 of 9 pass"),
             qPrintable(at_section_done[0]));
    QVERIFY(at_section_done[0].startsWith("\u2713"));
    QCOMPARE(run->plan_view()->state(0), PlanProgressView::State::Done);
    QVERIFY2(live_cells.contains("pass 2/2"), qPrintable(live_cells.join(", ")));
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->columnCount(), 3);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) QCOMPARE(model->item(r, c)->text(), QString("pass 2/2"));
    // Nothing of the engine's log is parsed: the log still says each result for the user.
    QVERIFY(run->log_text().contains("lane fp8: gate tools pass (2/2)"));
  }

  void doubling_sweep_says_where_and_why_it_stopped() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    // Two sequences at a time: output stops gaining past two streams, so the sweep stops early.
    plan::Lane lane = sweep_lane("fp8", "fp8");
    lane.base_url = "sim:fp8?time_scale=0.1&max_num_seqs=2&api_latency_s=0";
    fill_sim_fields(lane);
    QVERIFY(window.workspace().set_lanes({lane}, &error));
    RunPage* run = window.run_page();
    run->reload_lanes();
    window.show_page(MainWindow::Run);
    run->experiment_form()->set_kind("throughput");
    run->experiment_form()->set_throughput("1", 6, 24);
    run->experiment_form()->set_throughput_doubling(64, 10);
    QSignalSpy finished(run, &RunPage::run_finished);
    QVERIFY2(run->start_run(&error), qPrintable(error));
    QVERIFY(finished.wait(120'000));
    const nlohmann::json summary =
        read_json(QDir(finished.at(0).at(0).toString()).filePath("summary.json"));
    record::FileFields fields("summary.json");
    const auto sweeps = report::sweep_summaries(record::read_run_summary(summary, fields), {});
    QCOMPARE(sweeps.size(), size_t(1));
    QVERIFY(sweeps[0].stopped_at.has_value());  // a doubling sweep always says where it stopped
    QVERIFY(sweeps[0].knee_concurrency.has_value());
    const QString line = QString("Lane fp8, concurrency sweep: %1")
                             .arg(QString::fromStdString(report::describe_sweep(sweeps[0])));
    QVERIFY2(run->log_text().contains(line), qPrintable(run->log_text()));
    QVERIFY(line.contains("stopped at"));
    // Once the experiment is over, each level's steady window is shaded on its output chart, at
    // the level's first send and its steady output.
    widgets::ChartPanel* output = run->charts()->output_rate();
    QTRY_VERIFY(!output->spans("fp8").empty());
    QVERIFY(output->title().contains("steady window"));
    const auto& levels = summary["experiments"][0]["lanes"]["fp8"]["phases"];
    size_t found = 0;
    for (const auto& [name, phase] : levels.items())
      found += phase["steady_state"]["found"] == true;
    QCOMPARE(output->spans("fp8").size(), found);
    for (const widgets::XSpan& w : output->spans("fp8")) {
      QVERIFY(w.x1 > w.x0);
      QVERIFY(w.x0 >= 0);
      QVERIFY(w.level > 0);
    }
    if (const QByteArray shots = qgetenv("LANEBENCH_SHOT_DIR"); !shots.isEmpty()) {
      QTest::qWait(300);
      QVERIFY(
          window.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath("27-steady-window.png")));
    }
  }

  void context_sweep_runs_with_its_own_charts_and_table() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    QVERIFY(window.workspace().set_lanes({sweep_lane("bf16", "bf16"), sweep_lane("fp8", "fp8")},
                                         &error));
    RunPage* run = window.run_page();
    run->reload_lanes();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.show_page(MainWindow::Run);
    run->experiment_form()->set_kind("context_sweep");
    run->experiment_form()->set_context_sizes("512, 2048, 6000", 16, 3);
    const QList<int> sizes = {512, 2048, 6000};

    LiveCharts* charts = run->charts();
    QVERIFY(!charts->decode_vs_context()->isHidden());  // shown as soon as the kind is picked
    QVERIFY(charts->itl()->isHidden());
    connect(run->controller(), &RunController::message, this,
            [](int level, const QString& text) { qInfo("run [%d]: %s", level, qPrintable(text)); });
    QSignalSpy finished(run, &RunPage::run_finished);
    QVERIFY2(run->start_run(&error), qPrintable(error));
    QVERIFY(finished.wait(120'000));
    const QString run_dir = finished.at(0).at(0).toString();
    QVERIFY2(!finished.at(0).at(1).toBool(), "a sweep is not offered for review");
    QVERIFY(!run->controller()->running());

    // One point per request on both sweep charts: three per size per lane.
    for (widgets::ChartPanel* panel : charts->shown_panels()) panel->flush();
    for (const QString lane : {"bf16", "fp8"}) {
      QCOMPARE(charts->decode_vs_context()->drawn_point_count(lane), 3 * sizes.size());
      QCOMPARE(charts->ttft_vs_context()->drawn_point_count(lane), 3 * sizes.size());
    }

    // At 1280x800 every cell of the per-phase table is shown whole; the table scrolls instead.
    window.resize(1280, 800);
    QTabWidget* tables =
        qobject_cast<QTabWidget*>(run->phase_view()->parentWidget()->parentWidget());
    QVERIFY(tables);
    tables->setCurrentWidget(run->phase_view());
    QCoreApplication::processEvents();
    QTableView* view = run->phase_view();
    QStyleOptionViewItem option;
    option.initFrom(view);
    for (int c = 0; c < view->model()->columnCount(); ++c) {
      int needed = 0;
      for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex cell = view->model()->index(row, c);
        needed = std::max(needed, view->itemDelegate()->sizeHint(option, cell).width());
      }
      QVERIFY2(view->columnWidth(c) >= needed,
               qPrintable(QString("column %1: %2 px for %3 px of contents")
                              .arg(c)
                              .arg(view->columnWidth(c))
                              .arg(needed)));
    }

    // The per-phase table holds what summary.json holds, phase by phase.
    const nlohmann::json summary = read_json(QDir(run_dir).filePath("summary.json"));
    QVERIFY(summary.is_object());
    QCOMPARE(summary["run"]["interrupted"].get<bool>(), false);
    const nlohmann::json& sweep = summary["experiments"][0];
    QCOMPARE(sweep["kind"].get<std::string>(), std::string("context_sweep"));
    models::PhaseStatsModel* phases = run->controller()->phase_model();
    QCOMPARE(phases->rowCount(), 2 * sizes.size());
    QCOMPARE(run->phase_view()->model(), phases);
    for (int row = 0; row < phases->rowCount(); ++row) {
      const models::LaneStatsRow& stats = phases->lane_rows()[static_cast<size_t>(row)];
      const std::string lane = stats.lane_id.toStdString();
      const std::string phase = phases->phase_at(row).toStdString();
      const nlohmann::json& stored = sweep["lanes"][lane]["phases"][phase];
      QVERIFY2(stored.is_object(), (lane + " " + phase).c_str());
      using L = models::LaneStatsModel;
      QCOMPARE(L::value(stats, L::Completed), stored["completed"].get<double>());
      QVERIFY(near(L::value(stats, L::TtftP50), stored["median_ttft_ms"].get<double>()));
      QVERIFY(near(L::value(stats, L::DecodeP50), stored["median_decode_tok_s"].get<double>()));
      QVERIFY(near(L::value(stats, L::E2elP50), stored["median_e2el_ms"].get<double>()));
      // The table cell shows the same figure, rounded for display.
      const double shown = phases->index(row, L::TtftP50 + 1).data(models::SortRole).toDouble();
      QVERIFY(near(shown, stored["median_ttft_ms"].get<double>()));
      // Three requests per size: each median has its interval over them, the one summary.json
      // gives, shown after the figure; p99 needs 100 requests and has none.
      for (const auto& [column, key] : {std::pair{int(L::TtftP50), "median_ttft_ms"},
                                        std::pair{int(L::DecodeP50), "median_decode_tok_s"},
                                        std::pair{int(L::E2elP50), "median_e2el_ms"}}) {
        const nlohmann::json& want = stored["intervals"][key];
        QVERIFY2(want.is_object(), key);
        const models::FigureInterval* got = stats.intervals.find(key);
        QVERIFY2(got, key);
        QVERIFY(near(got->lo, want["lo"].get<double>()));
        QVERIFY(near(got->hi, want["hi"].get<double>()));
        const QString cell = phases->index(row, column + 1).data().toString();
        QVERIFY2(cell.contains(QRegularExpression("^[0-9.]+\n\\[[0-9.]+, [0-9.]+\\]$")),
                 qPrintable(cell));
        QVERIFY(phases->index(row, column + 1)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("bootstrap over 3 requests"));
      }
      QVERIFY(!stats.intervals.find("p99_ttft_ms"));
      QVERIFY(!phases->index(row, L::TtftP99 + 1).data().toString().contains('['));
      QCOMPARE(stats.intervals.basis, models::FigureIntervals::Basis::Requests);
    }
    // And the sweep's own rows (median over repeats, one repeat here) agree with the chart.
    for (const std::string lane : {"bf16", "fp8"}) {
      const nlohmann::json& rows = sweep["lanes"][lane]["context_sweep"];
      QCOMPARE(static_cast<int>(rows.size()), sizes.size());
      for (const nlohmann::json& r : rows)
        QCOMPARE(r["status"].get<std::string>(), std::string("measured"));
    }
  }
};

LANEBENCH_TEST_MAIN(UiContextSweepTest)
#include "ui_context_sweep_test.moc"
