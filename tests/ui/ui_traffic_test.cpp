// Offscreen, end to end: the Run page's forms of the traffic kinds (trace replay, multi-turn
// sessions, SLO capacity) write experiments the plan parser accepts and show its messages while
// they are edited; a bad trace is refused with its file and line before any lane starts; and a
// run of each kind on in-process simulator lanes feeds its live charts: send lateness per trace
// request, TTFT per turn, the capacity probes judged against the SLOs as summary.json judges
// them, and the Pareto chart. Each run, reopened from its folder on the Runs page (loaded off the
// GUI thread), draws the same charts: the same titles, axes, series, lines and marks as live,
// and only the charts of the kinds it ran.
#include <QDir>
#include <QFile>
#include <QFormLayout>
#include <QGridLayout>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/plan/plan.h"
#include "json_file.h"
#include "sim_lane_starter.h"
#include "sim_test_lane.h"
#include "test_main.h"
#include "test_paths.h"
#include "ui/history/stored_charts.h"
#include "ui/main_window.h"
#include "ui/pages/run_page.h"
#include "ui/pages/runs_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/run/traffic_forms.h"
#include "widgets/chart/chart_panel.h"

using namespace lb;
using namespace lb::ui;

namespace {

using lb::test::read_json;

QString fixture(const char* relative) {
  return QString::fromStdString(test::fixture_path(relative));
}

plan::PlanParseResult parse_experiment(const nlohmann::json& e) {
  const nlohmann::json lane = {{"id", "a"}, {"base_url", "sim:fp8"}};
  const nlohmann::json plan = {{"name", "p"}, {"lanes", {lane}}, {"experiments", {e}}};
  return plan::parse_plan(plan.dump(), "form");
}

// A window with a workspace of two simulator lanes, on the Run page with KIND picked.
struct RunWindow {
  QTemporaryDir dir;
  MainWindow window;
  RunPage* run = nullptr;
  // LANE_OPTIONS: more simulator options for both lanes, e.g. "&max_num_seqs=2".
  explicit RunWindow(const QString& kind, const char* time_scale = "0.02",
                     const std::string& lane_options = {}) {
    QString error;
    if (!window.open_workspace(dir.path(), &error)) qFatal("%s", qPrintable(error));
    std::vector<plan::Lane> lanes = {test::sim_test_lane("bf16", "bf16", time_scale),
                                     test::sim_test_lane("fp8", "fp8", time_scale)};
    for (plan::Lane& lane : lanes) {
      lane.base_url += lane_options;
      fill_sim_fields(lane);
    }
    if (!window.workspace().set_lanes(lanes, &error)) qFatal("%s", qPrintable(error));
    run = window.run_page();
    run->reload_lanes();
    window.show_page(MainWindow::Run);
    run->experiment_form()->use_quick_defaults();
    run->experiment_form()->set_kind(kind);
  }
  // Starts the run and waits for it; returns the run's summary.json.
  nlohmann::json run_to_end() {
    QSignalSpy finished(run, &RunPage::run_finished);
    QString error;
    if (!run->start_run(&error)) {
      qWarning("start: %s", qPrintable(error));
      return nullptr;
    }
    if (!finished.wait(150'000)) return nullptr;
    for (widgets::ChartPanel* panel : run->charts()->panels()) panel->flush();
    run_dir = finished.at(0).at(0).toString();
    return read_json(QDir(run_dir).filePath("summary.json"));
  }
  // The finished run reopened on the Runs page, its charts drawn; null when it did not load.
  StoredCharts* reopen() {
    RunsPage* runs = window.runs_page();
    QSignalSpy loaded(runs, &RunsPage::run_loaded);
    runs->open_run(run_dir);
    if (!loaded.wait(30'000) || !runs->current_run() || !runs->current_run()->folder)
      return nullptr;
    for (widgets::ChartPanel* panel : runs->charts()->panels()) panel->flush();
    return runs->charts();
  }
  QString run_dir;
};

// The stored chart is the live one: title, axes, and every series (the lanes' and the named
// lines' and marks') with the same points.
void compare_charts(widgets::ChartPanel* live, widgets::ChartPanel* stored,
                    const QStringList& marks) {
  QVERIFY(!stored->isHidden());
  QCOMPARE(stored->title(), live->title());
  QCOMPARE(stored->x_axis().label(), live->x_axis().label());
  QCOMPARE(stored->y_axis().label(), live->y_axis().label());
  QCOMPARE(stored->lanes(), live->lanes());
  for (const QString& name : live->lanes() + marks) {
    const std::vector<QPointF> a = live->series(name), b = stored->series(name);
    QVERIFY2(!a.empty(), qPrintable(name));
    QCOMPARE(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i)
      QVERIFY2(std::abs(b[i].x() - a[i].x()) < 1e-6 && std::abs(b[i].y() - a[i].y()) < 1e-6,
               qPrintable(QString("%1 point %2: stored (%3, %4), live (%5, %6)")
                              .arg(name)
                              .arg(i)
                              .arg(b[i].x())
                              .arg(b[i].y())
                              .arg(a[i].x())
                              .arg(a[i].y())));
  }
}

// Only these of the traffic kinds' charts are shown.
void expect_traffic_charts(StoredCharts* charts,
                           std::initializer_list<widgets::ChartPanel*> shown) {
  for (widgets::ChartPanel* panel :
       {charts->trace_lateness(), charts->ttft_by_turn(), charts->capacity_probes(),
        charts->capacity_ttft(), charts->capacity_tpot()}) {
    const bool expected = std::find(shown.begin(), shown.end(), panel) != shown.end();
    QVERIFY2(panel->isHidden() != expected, qPrintable(panel->title()));
  }
}

}  // namespace

class UiTrafficTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    lb::app::register_sim_lane_starter();
  }

  void traffic_forms_write_what_the_parser_reads() {
    ExperimentForm form;
    form.use_quick_defaults();
    for (const char* kind : {"trace", "sessions", "capacity"})
      QVERIFY2(form.kind_available(kind), kind);

    form.set_kind("trace");
    QVERIFY(form.problems().contains("trace file"));  // nothing picked yet
    form.trace_form()->set_trace(fixture("traces/azure.csv"), 4.0, 12);
    QVERIFY2(form.problems().isEmpty(), qPrintable(form.problems()));
    QString error;
    nlohmann::json e = form.experiment_json(&error);
    plan::PlanParseResult parsed = parse_experiment(e);
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto& trace = std::get<plan::TraceExperiment>(parsed.plan->experiments[0].params);
    QCOMPARE(trace.speedup, 4.0);
    QCOMPARE(trace.max_requests, int64_t(12));
    QCOMPARE(trace.max_gap_s, 0.0);  // "no check" leaves the key out
    QVERIFY(!e.contains("max_gap_s"));

    form.set_kind("sessions");
    form.sessions_form()->set_synthetic(3, 5, 256, 16);
    e = form.experiment_json(&error);
    parsed = parse_experiment(e);
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto& sessions = std::get<plan::SessionsExperiment>(parsed.plan->experiments[0].params);
    QCOMPARE(sessions.turns, int64_t(5));
    QCOMPARE(sessions.system_prompt_tokens, int64_t(256));
    form.sessions_form()->set_sharegpt(QString(), 2, 0);
    QVERIFY(form.problems().contains("ShareGPT"));
    form.sessions_form()->set_sharegpt(fixture("sessions/sharegpt-small.json"), 2, 3);
    e = form.experiment_json(&error);
    QVERIFY(!e.contains("turns"));  // synthetic-only keys are a plan error with a file
    parsed = parse_experiment(e);
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());

    form.set_kind("capacity");
    CapacityForm* capacity = form.capacity_form();
    capacity->set_slo(0, 0);
    QVERIFY2(form.problems().contains("slo: must set ttft_p99_ms, tpot_p99_ms or both"),
             qPrintable(form.problems()));
    capacity->set_slo(1500, 0);
    capacity->set_load("rate", 8, 4, 0);  // max below start
    QVERIFY2(form.problems().contains("max_load: must be >= start"), qPrintable(form.problems()));
    capacity->set_load("rate", 0.5, 16, 0.5);
    QVERIFY2(form.problems().isEmpty(), qPrintable(form.problems()));
    parsed = parse_experiment(form.experiment_json(&error));
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const auto& c = std::get<plan::CapacityExperiment>(parsed.plan->experiments[0].params);
    QVERIFY(c.by_rate());
    QCOMPARE(c.ttft_p99_ms, 1500.0);
    QCOMPARE(c.tpot_p99_ms, -1.0);  // not set
    QCOMPARE(c.start, 0.5);
  }

  // Every field of the traffic forms has a label with a keyboard mnemonic that reaches it.
  void traffic_form_labels_reach_their_fields() {
    ExperimentForm form;
    for (QWidget* page : std::initializer_list<QWidget*>{form.trace_form(), form.sessions_form(),
                                                         form.capacity_form()}) {
      auto* layout = qobject_cast<QFormLayout*>(page->layout());
      QVERIFY(layout);
      int mnemonics = 0;
      for (int row = 0; row < layout->rowCount(); ++row) {
        auto* label =
            qobject_cast<QLabel*>(layout->itemAt(row, QFormLayout::LabelRole)
                                      ? layout->itemAt(row, QFormLayout::LabelRole)->widget()
                                      : nullptr);
        if (!label || !label->text().contains('&')) continue;
        ++mnemonics;
        QVERIFY2(label->buddy() != nullptr, qPrintable(label->text()));
      }
      QVERIFY(mnemonics >= layout->rowCount() - 1);
    }
  }

  void bad_trace_is_refused_with_its_line_before_any_lane_starts() {
    RunWindow w("trace");
    w.run->experiment_form()->trace_form()->set_trace(fixture("traces/mooncake_backwards.jsonl"),
                                                      1.0, 0);
    QString error;
    QSignalSpy answered(w.run, &RunPage::start_answered);
    QVERIFY2(w.run->start_run(&error), qPrintable(error));  // the trace is read off the GUI thread
    QVERIFY(!w.run->controller()->running());
    QVERIFY(answered.wait(30'000));
    QVERIFY(!answered.first().at(0).toBool());
    error = answered.first().at(1).toString();
    QVERIFY2(error.contains("mooncake_backwards.jsonl:") && error.contains("goes backwards"),
             qPrintable(error));
    QVERIFY(!w.run->controller()->running());
    QVERIFY(QDir(w.window.workspace().runs_dir()).isEmpty());  // no run folder for a refused run
  }

  void trace_run_plots_each_request_against_its_schedule() {
    RunWindow w("trace");
    w.run->experiment_form()->trace_form()->set_trace(fixture("traces/mooncake.jsonl"), 2.0, 0);
    LiveCharts* charts = w.run->charts();
    QVERIFY(!charts->trace_lateness()->isHidden());
    QVERIFY(!charts->pareto()->isHidden());
    const nlohmann::json summary = w.run_to_end();
    QVERIFY(summary.is_object());
    const nlohmann::json& e = summary["experiments"][0];
    for (const char* lane : {"bf16", "fp8"}) {
      const int sent = e["lanes"][lane]["schedule"]["sent"].get<int>();
      QCOMPARE(sent, 30);
      QCOMPARE(charts->trace_lateness()->drawn_point_count(lane), sent);
      for (const QPointF& p : charts->trace_lateness()->series(lane)) {
        QVERIFY(p.x() >= -0.001 && p.x() < 0.84 / 2 + 0.5);  // on the lane's own clock
        QVERIFY(p.y() >= 0);
      }
      QCOMPARE(charts->pareto()->drawn_point_count(lane), 1);  // one phase: one level
    }
    QCOMPARE(charts->trace_lateness()->series("late > 10 ms").size(), size_t(2));

    StoredCharts* stored = w.reopen();
    QVERIFY(stored);
    compare_charts(charts->trace_lateness(), stored->trace_lateness(), {"late > 10 ms"});
    expect_traffic_charts(stored, {stored->trace_lateness()});
    // As on the Run page, the chart's export menu writes the chart.
    QString error;
    const QString png = QDir(w.dir.path()).filePath("lateness.png");
    QVERIFY2(stored->trace_lateness()->export_to_file(png, &error), qPrintable(error));
    QVERIFY(QImage(png).width() > 100);
  }

  void sessions_run_plots_ttft_by_turn() {
    RunWindow w("sessions");
    w.run->experiment_form()->sessions_form()->set_synthetic(2, 3, 512, 12);
    LiveCharts* charts = w.run->charts();
    QVERIFY(!charts->ttft_by_turn()->isHidden());
    const nlohmann::json summary = w.run_to_end();
    QVERIFY(summary.is_object());
    for (const char* lane : {"bf16", "fp8"}) {
      const std::vector<QPointF> turns = charts->ttft_by_turn()->series(lane);
      QCOMPARE(turns.size(), size_t(3));
      const nlohmann::json& per_turn =
          summary["experiments"][0]["lanes"][lane]["sessions"]["per_turn"];
      QCOMPARE(per_turn.size(), size_t(3));
      for (size_t t = 0; t < turns.size(); ++t) {
        QCOMPARE(turns[t].x(), static_cast<double>(t + 1));
        QVERIFY(turns[t].y() > 0);
        // Two sessions per turn: the median is between the turn's p50 and p99 in summary.json.
        QVERIFY(turns[t].y() >= per_turn[t]["ttft_p50_ms"].get<double>() - 1e-6);
        QVERIFY(turns[t].y() <= per_turn[t]["ttft_p99_ms"].get<double>() + 1e-6);
      }
    }

    StoredCharts* stored = w.reopen();
    QVERIFY(stored);
    compare_charts(charts->ttft_by_turn(), stored->ttft_by_turn(), {});
    expect_traffic_charts(stored, {stored->ttft_by_turn()});
  }

  void capacity_run_plots_the_search_against_the_slos() {
    // Two sequences at a time: past two streams requests queue, and TTFT leaves its SLO.
    RunWindow w("capacity", "0.1", "&max_num_seqs=2");
    CapacityForm* form = w.run->experiment_form()->capacity_form();
    form->set_slo(150, 30);
    form->set_load("concurrency", 1, 16, 1);
    form->set_probe(12, 1, 128, 24);
    form->set_bounds(5, 120);
    LiveCharts* charts = w.run->charts();
    const nlohmann::json summary = w.run_to_end();
    QVERIFY(summary.is_object());
    int passed = 0, probes = 0;
    double max_load = 0;
    for (const char* lane : {"bf16", "fp8"}) {
      const nlohmann::json& c = summary["experiments"][0]["lanes"][lane]["capacity"];
      const std::vector<QPointF> loads = charts->capacity_probes()->series(lane);
      QCOMPARE(loads.size(), c["probes"].size());
      for (size_t i = 0; i < loads.size(); ++i) {
        QCOMPARE(loads[i].y(), c["probes"][i]["load"].get<double>());
        passed += c["probes"][i]["pass"].get<bool>() ? 1 : 0;
        max_load = std::max(max_load, loads[i].y());
      }
      probes += static_cast<int>(loads.size());
      QCOMPARE(charts->capacity_tpot()->drawn_point_count(lane), static_cast<int>(loads.size()));
    }
    QVERIFY2(passed > 0 && passed < probes, "the search saw both sides of the SLOs");
    // The marks judge each probe as the search did.
    QCOMPARE(static_cast<int>(charts->capacity_probes()->series(LiveCharts::slo_met_name()).size()),
             passed);
    QCOMPARE(
        static_cast<int>(charts->capacity_probes()->series(LiveCharts::slo_missed_name()).size()),
        probes - passed);
    const std::vector<QPointF> slo = charts->capacity_tpot()->series("SLO 30 ms");
    QCOMPARE(slo.size(), size_t(2));
    QCOMPARE(slo[1], QPointF(max_load, 30));
    QCOMPARE(charts->capacity_ttft()->series("SLO 150 ms").size(), size_t(2));
    QCOMPARE(charts->capacity_tpot()->x_axis().unit, QString("streams"));
    QVERIFY(!charts->pareto()->series("fp8").empty());

    // Reopened: the same three charts, lines and marks, and each probe's figures are
    // summary.json's.
    StoredCharts* stored = w.reopen();
    QVERIFY(stored);
    const QStringList marks = {LiveCharts::slo_met_name(), LiveCharts::slo_missed_name()};
    compare_charts(charts->capacity_probes(), stored->capacity_probes(), marks);
    compare_charts(charts->capacity_ttft(), stored->capacity_ttft(),
                   marks + QStringList{"SLO 150 ms"});
    compare_charts(charts->capacity_tpot(), stored->capacity_tpot(),
                   marks + QStringList{"SLO 30 ms"});
    expect_traffic_charts(
        stored, {stored->capacity_probes(), stored->capacity_ttft(), stored->capacity_tpot()});
    // Seven charts or more: two columns, each chart tall enough for its axis titles and legend
    // (three columns of short charts cut them short at 1440 px), scrolled.
    const auto shown = stored->shown_panels();
    QVERIFY(shown.size() > 6);
    for (lb::widgets::ChartPanel* panel : shown) {
      auto* grid = qobject_cast<QGridLayout*>(panel->parentWidget()->layout());
      QVERIFY(grid);
      int row = 0, column = 0, row_span = 0, column_span = 0;
      grid->getItemPosition(grid->indexOf(panel), &row, &column, &row_span, &column_span);
      QVERIFY2(column < 2, qPrintable(panel->title() + " is in column " + QString::number(column)));
      QVERIFY2(panel->minimumHeight() >= 250, qPrintable(panel->title()));
    }
    QCOMPARE(stored->capacity_tpot()->x_axis().unit, QString("streams"));
    QCOMPARE(stored->capacity_ttft()->series("SLO 150 ms").size(), size_t(2));
    QCOMPARE(static_cast<int>(stored->capacity_probes()->series(LiveCharts::slo_met_name()).size()),
             passed);
    for (const char* lane : {"bf16", "fp8"}) {
      const nlohmann::json& c = summary["experiments"][0]["lanes"][lane]["capacity"];
      const std::vector<QPointF> ttft = stored->capacity_ttft()->series(lane);
      QCOMPARE(ttft.size(), c["probes"].size());
      for (const nlohmann::json& probe : c["probes"]) {
        const QPointF at(probe["load"].get<double>(), probe["ttft_p99_ms"].get<double>());
        QVERIFY2(
            std::any_of(ttft.begin(), ttft.end(),
                        [&](const QPointF& p) {
                          return p.x() == at.x() && std::abs(p.y() - at.y()) < 1e-9;
                        }),
            qPrintable(
                QString("%1: no TTFT p99 %2 ms at load %3").arg(lane).arg(at.y()).arg(at.x())));
      }
    }
  }
};

LANEBENCH_TEST_MAIN(UiTrafficTest)
#include "ui_traffic_test.moc"
