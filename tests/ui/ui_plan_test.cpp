// One qualification in the workbench, offscreen, on in-process simulator lanes: File > Open Plan
// runs a two-experiment plan file into one run (charts following each experiment), the Decision
// page then shows the gates of both experiments with their experiment named; Add Experiment to
// This Run adds a throughput run to the same folder and the Decision page takes it too; Save Plan
// writes what the Run page is set to as a plan file the CLI's parser accepts unchanged; and a run
// folder made outside the workspace opens with File > Open Run.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <nlohmann/json.hpp>

#include "core/plan/plan.h"
#include "json_file.h"
#include "models/gate_table_model.h"
#include "models/item_roles.h"
#include "sim_lane_starter.h"
#include "sim_test_lane.h"
#include "test_main.h"
#include "tests/ui/plan_file_wait.h"
#include "ui/history/effects_view.h"
#include "ui/history/run_folder_job.h"
#include "ui/main_window.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/review_page.h"
#include "ui/pages/run_page.h"
#include "ui/pages/runs_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/run/plan_progress_view.h"
#include "ui/workspace/demo_plan.h"
#include "ui/workspace/workspace.h"
#include "ui_run_fixture.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

using namespace lb;
using namespace lb::ui;

namespace {

using lb::test::read_json;

QStringList experiment_names(const nlohmann::json& summary) {
  QStringList names;
  for (const auto& e : summary["experiments"]) names << QString::fromStdString(e.value("name", ""));
  return names;
}

// Experiment column of every row whose label is LABEL.
QStringList experiments_of(const models::GateTableModel& model, const QString& label) {
  QStringList out;
  for (int r = 0; r < model.rowCount(); ++r)
    if (model.index(r, 0).data().toString() == label)
      out << model.index(r, models::GateTableModel::kExperimentColumn).data().toString();
  return out;
}

bool wait_for_decision_of(MainWindow& window, const QString& run_dir, int experiments) {
  return QTest::qWaitFor(
      [&] {
        DecisionPage* page = window.decision_page();
        if (QDir(page->run_dir()) != QDir(run_dir)) return false;
        QStringList seen;
        for (const auto& row : page->model()->rows())
          if (!seen.contains(row.experiment)) seen << row.experiment;
        return seen.size() >= experiments;
      },
      30'000);
}

}  // namespace

class UiPlanTest : public QObject {
  Q_OBJECT
  QTemporaryDir workspace_;
  QString plan_path_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    app::register_sim_lane_starter();
    QVERIFY(workspace_.isValid());
    plan_path_ = QDir(workspace_.path()).filePath("two-experiments.json");
    const nlohmann::json plan = {
        {"name", "gui plan"},
        {"lanes",
         {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.02"}},
          {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.02"}}}},
        {"experiments",
         {{{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}},
          {{"kind", "context_sweep"}, {"prompt_tokens", {1024, 2048}}, {"output_tokens", 8}}}}};
    QFile file(plan_path_);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(plan.dump(2)));
  }

  void plan_runs_into_one_run_and_grows() {
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(QDir(workspace_.path()).filePath("ws"), &error),
             qPrintable(error));
    QVERIFY(window.workspace().set_lanes(
        {test::sim_test_lane("fp8", "fp8", "0.02"), test::sim_test_lane("mtp", "fp8-mtp3", "0.02")},
        &error));
    RunPage* run = window.run_page();
    run->reload_lanes();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!run->add_button()->isEnabled());  // nothing to add to yet
    QVERIFY(!run->add_experiment(&error));
    QVERIFY2(error.contains("No run is open"), qPrintable(error));

    // File > Open Plan: both experiments into one run, each with its own charts.
    QSignalSpy finished(run, &RunPage::run_finished);
    QSignalSpy started(run->controller(), &RunController::experiment_started);
    QVERIFY2(lb::test::start_plan_file(run, plan_path_, &error), qPrintable(error));
    // While it runs, the plan stands in place of the form: its lanes, and its experiments with
    // their own settings (not the form's).
    QVERIFY(run->showing_plan());
    PlanProgressView* plan_view = run->plan_view();
    QCOMPARE(plan_view->lane_ids(), QStringList({"bf16", "fp8"}));
    QCOMPARE(plan_view->experiment_count(), 2);
    QVERIFY2(plan_view->experiment_text(1).contains("context_sweep") &&
                 plan_view->experiment_text(1).contains("prompt_tokens [1024,2048]") &&
                 plan_view->experiment_text(1).contains("output_tokens 8"),
             qPrintable(plan_view->experiment_text(1)));
    QVERIFY(finished.wait(120'000));
    const QString run_dir = finished.at(0).at(0).toString();
    // Each experiment done, with a check mark; the form is back.
    QCOMPARE(plan_view->state(0), PlanProgressView::State::Done);
    QCOMPARE(plan_view->state(1), PlanProgressView::State::Done);
    QVERIFY2(plan_view->experiment_text(0).startsWith(QString::fromUtf8("\u2713")),
             qPrintable(plan_view->experiment_text(0)));
    QVERIFY(!run->showing_plan());
    // Every experiment's charts stay a tab away.
    QCOMPARE(run->chart_tabs()->count(), 2);
    QCOMPARE(run->chart_tabs()->tabText(0), QString("gates"));
    QCOMPARE(run->chart_tabs()->tabText(1), QString("context_sweep"));
    QCOMPARE(qobject_cast<LiveCharts*>(run->chart_tabs()->widget(0))->kind(), QString("gates"));
    // An earlier experiment's tab keeps its own data: a change of its time axis redraws its
    // series, not those of the experiment that followed.
    auto* first = qobject_cast<LiveCharts*>(run->chart_tabs()->widget(0));
    first->ttft()->flush();
    const std::vector<QPointF> gates_ttft = first->ttft()->series("fp8");
    QVERIFY(!gates_ttft.empty());
    QVERIFY(gates_ttft != run->charts()->ttft()->series("fp8"));
    first->set_lane_time(!first->lane_time());
    first->set_lane_time(!first->lane_time());
    first->ttft()->flush();
    QCOMPARE(first->ttft()->series("fp8"), gates_ttft);
    // The log follows its newest line, unless scrolled up to an older one.
    QPlainTextEdit* log = run->findChild<QPlainTextEdit*>("runLog");
    QVERIFY(log);
    for (int i = 0; i < 120; ++i) emit run->controller()->message(0, QString("line %1").arg(i));
    QVERIFY(log->verticalScrollBar()->maximum() > 0);
    QCOMPARE(log->verticalScrollBar()->value(), log->verticalScrollBar()->maximum());
    log->verticalScrollBar()->setValue(3);
    emit run->controller()->message(0, "one more");
    QCOMPARE(log->verticalScrollBar()->value(), 3);
    // Overlay a Run: the stored run's curves join the charts.
    run->overlay_run(run_dir);
    QTRY_COMPARE_WITH_TIMEOUT(run->charts()->overlay_run(), QDir(run_dir).dirName(), 30'000);
    QVERIFY2(
        QDir(run_dir).absolutePath().startsWith(QDir(window.workspace().runs_dir()).absolutePath()),
        qPrintable(run_dir));
    QCOMPARE(experiment_names(read_json(QDir(run_dir).filePath("summary.json"))),
             QStringList({"gates", "context_sweep"}));
    QCOMPARE(started.count(), 2);
    QCOMPARE(started.at(1).at(2).toString(), QString("context_sweep"));
    QCOMPARE(run->charts()->kind(), QString("context_sweep"));
    QVERIFY(run->log_text().contains("Experiment 2 of 2: context_sweep"));
    // The plan's own lanes ran, not the workspace's.
    QCOMPARE(run->controller()->data().lanes(), QStringList({"bf16", "fp8"}));

    // Decision: one table with the gates of both experiments, each naming its experiment.
    QVERIFY(wait_for_decision_of(window, run_dir, 2));
    const models::GateTableModel& model = *window.decision_page()->model();
    QCOMPARE(experiments_of(model, "JSON schema output"), QStringList({"gates"}));
    QCOMPARE(experiments_of(model, "Long-context retrieval (sizes passed)"),
             QStringList({"context_sweep"}));
    QCOMPARE(model.headerData(models::GateTableModel::kExperimentColumn, Qt::Horizontal).toString(),
             QString("Experiment"));

    // Add Experiment to This Run: a throughput run on the plan's fp8 lane and the workspace's mtp.
    QCOMPARE(run->open_run(), run_dir);
    QVERIFY(run->add_button()->isEnabled());
    QVERIFY2(run->add_button()->toolTip().contains(QDir(run_dir).dirName()),
             qPrintable(run->add_button()->toolTip()));
    run->experiment_form()->set_kind("throughput");
    run->experiment_form()->set_throughput("1", 3, 8);
    QVERIFY2(run->add_experiment(&error), qPrintable(error));
    QVERIFY(finished.wait(120'000));
    QCOMPARE(finished.at(1).at(0).toString(), run_dir);
    const nlohmann::json summary = read_json(QDir(run_dir).filePath("summary.json"));
    QCOMPARE(experiment_names(summary), QStringList({"gates", "context_sweep", "throughput"}));
    QVERIFY(summary["experiments"][2]["lanes"].contains("mtp"));
    const nlohmann::json plan = read_json(QDir(run_dir).filePath("plan.json"));
    QCOMPARE(plan["lanes"].size(), size_t{3});
    QVERIFY(plan::parse_plan(plan.dump(), "plan.json").ok());
    QVERIFY(wait_for_decision_of(window, run_dir, 3));
    QVERIFY(!experiments_of(model, "TTFT median (ms)").isEmpty());
    QCOMPARE(experiments_of(model, "TTFT median (ms)"), QStringList({"throughput"}));
  }

  // Review across runs: today's run's fp8 against another run's bf16, verdicts kept apart from
  // the run's own review.json.
  void review_takes_a_baseline_from_another_run() {
    const QString last_week = QDir(workspace_.path()).filePath("last-week");
    const QString today = QDir(workspace_.path()).filePath("today");
    test::run_small_plan(last_week);
    test::run_small_plan(today);
    ReviewPage review;
    QSignalSpy loaded(&review, &ReviewPage::pair_loaded);
    QVERIFY(review.open_run(today));
    QVERIFY(loaded.wait(20'000));
    QString error;
    QVERIFY(!review.add_baseline_run(today, &error));
    QVERIFY2(error.contains("open run"), qPrintable(error));
    QVERIFY(!review.add_baseline_run(workspace_.path(), &error));
    QVERIFY2(error.contains("no regression outputs"), qPrintable(error));
    loaded.clear();
    QVERIFY2(review.add_baseline_run(last_week, &error), qPrintable(error));
    QVERIFY(loaded.wait(20'000));
    QCOMPARE(review.model()->rowCount(), 20);
    // The other run's outputs are the baseline: identical prompts, the same simulator, so the
    // bf16 of last week equals today's bf16 and the pairs read as today's fp8 against it.
    const QString path = review.review_path();
    QVERIFY2(path.endsWith("review.last-week_bf16.fp8.json"), qPrintable(path));
    const QByteArray own_review = [&] {
      QFile f(QDir(today).filePath("review.json"));
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    review.table()->setCurrentIndex(review.proxy()->index(0, 0));
    QVERIFY(review.set_verdict("benign_drift"));
    QVERIFY(QFileInfo::exists(path));
    QFile own(QDir(today).filePath("review.json"));
    QVERIFY(own.open(QIODevice::ReadOnly));
    QCOMPARE(own.readAll(), own_review);
    QVERIFY(!review.add_baseline_run(last_week, &error));  // already listed
  }

  // A regression with a load baseline on batch-variant simulator lanes: the Review page marks
  // exactly the prompts the summary lists as batch-variant, with the lanes in the tooltip.
  void review_marks_batch_variant_prompts() {
    const QString run_dir = QDir(workspace_.path()).filePath("load-baseline");
    test::run_plan_json(
        run_dir, {{"name", "load baseline"},
                  {"lanes",
                   {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01&batch_variance=1"}},
                    {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01&batch_variance=1"}}}},
                  {"experiments",
                   {{{"kind", "regression"},
                     {"prompts", "builtin:regression-20"},
                     {"max_tokens", 64},
                     {"logprobs", 0},
                     {"load_baseline", {{"concurrency", 16}}}}}}});
    const nlohmann::json summary = read_json(QDir(run_dir).filePath("summary.json"));
    std::map<int, QStringList> expected;
    for (const char* lane : {"bf16", "fp8"})
      for (const auto& v :
           summary["experiments"][0]["lanes"][lane]["load_baseline"]["batch_variant"])
        expected[v["index"].get<int>()] << lane;
    QVERIFY2(!expected.empty(), "batch_variance=1 at concurrency 16 changes some answers");
    ReviewPage review;
    QSignalSpy loaded(&review, &ReviewPage::pair_loaded);
    QVERIFY(review.open_run(run_dir));
    QVERIFY(loaded.wait(20'000));
    auto* model = review.model();
    QCOMPARE(model->rowCount(), 20);
    int marked = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
      const auto* pair = model->pair_at(row);
      const QModelIndex triage = model->index(row, models::ReviewPairsModel::Triage);
      const QString text = model->data(triage, Qt::DisplayRole).toString();
      const auto it = expected.find(pair->index);
      QCOMPARE(text.contains("batch-variant"), it != expected.end());
      if (it == expected.end()) continue;
      ++marked;
      QCOMPARE(pair->batch_variant, it->second);
      QVERIFY(model->data(triage, Qt::ToolTipRole).toString().contains(it->second.join(", ")));
    }
    QCOMPARE(marked, static_cast<int>(expected.size()));
  }

  // A stored run overlaid on the live charts: dashed, named RUN:lane, coloured as the lane, and
  // kept when the live charts are cleared for the next experiment.
  void stored_run_overlays_the_live_charts() {
    const QString stored = QDir(workspace_.path()).filePath("overlay-source");
    test::run_small_plan(stored);
    const auto run = load_run(stored);
    QVERIFY2(run->folder, qPrintable(run->error));
    auto palette = std::make_shared<widgets::LanePalette>();
    LiveCharts charts(palette);
    charts.set_kind("context_sweep");
    charts.set_overlay("overlay-source", std::shared_ptr<const StoredRunSeries>(run, &run->series));
    charts.clear();  // a new experiment starts: the overlay stays
    for (widgets::ChartPanel* panel : charts.panels()) panel->flush();
    const StoredLaneSeries& bf16 = run->series.by_lane.at("bf16");
    for (widgets::ChartPanel* panel : {charts.decode_vs_context(), charts.ttft_vs_context()}) {
      QVERIFY(panel->lanes().contains("overlay-source:bf16"));
      QVERIFY(panel->is_reference("overlay-source:fp8"));
    }
    QCOMPARE(charts.ttft_vs_context()->series("overlay-source:bf16"), bf16.ttft_vs_context);
    // On the lane-time axis the stored rate starts where its lane started.
    const auto rate = charts.output_rate()->series("overlay-source:bf16");
    QVERIFY(!rate.empty());
    QCOMPARE(rate.front().x(), bf16.output_tok_s.front().x() - bf16.start_s);
    // Removing it leaves the live run's own drawing whole: its lanes, their spans and marks.
    widgets::ChartPanel* out = charts.output_rate();
    out->set_series("bf16", {{1, 10}, {2, 12}});
    out->set_spans("bf16", {{0.5, 2.5, 11}});
    out->set_marks("SLO 10 tok/s", {{0, 10}, {3, 10}}, Qt::red, widgets::MarkShape::DashedLine);
    out->flush();
    charts.clear_overlay();
    for (widgets::ChartPanel* panel : charts.panels()) panel->flush();
    QVERIFY(charts.ttft_vs_context()->lanes().isEmpty());
    QCOMPARE(out->lanes(), QStringList({"bf16"}));
    QCOMPARE(out->series("bf16"), (std::vector<QPointF>{{1, 10}, {2, 12}}));
    QCOMPARE(out->spans("bf16").size(), size_t(1));
    QCOMPARE(out->series("SLO 10 tok/s").size(), size_t(2));
    QVERIFY(out->series("overlay-source:bf16").empty());
    QVERIFY(charts.overlay_run().isEmpty());
  }

  // The demo workspace carries a qualification plan of every kind the decision needs, on its
  // own lanes, and offers to run it while it has no run.
  void demo_workspace_offers_its_qualification() {
    const QString dir = QDir(workspace_.path()).filePath("demo");
    QString error;
    QVERIFY2(Workspace::create_demo(dir, &error), qPrintable(error));
    const QString path = QDir(dir).filePath(QString("plans/") + kDemoPlanFile);
    const auto parsed = plan::load_plan_file(path.toStdString());
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QStringList kinds;
    for (const auto& e : parsed.plan->experiments) kinds << QString::fromStdString(e.kind);
    QCOMPARE(kinds,
             QStringList({"regression", "gates", "context_sweep", "prefix_cache", "speculative"}));
    QCOMPARE(parsed.plan->lanes.size(), demo_lanes().size());
    for (size_t i = 0; i < demo_lanes().size(); ++i)
      QCOMPARE(parsed.plan->lanes[i].base_url, demo_lanes()[i].base_url);
    // ... and the MTP batch-token sweep, its servers the simulator next to this program.
    const auto sweep =
        plan::load_plan_file(QDir(dir).filePath(QString("plans/") + kDemoSweepFile).toStdString());
    QVERIFY2(sweep.ok(), sweep.error_text().c_str());
    QVERIFY(sweep.plan->launches_servers());
    QCOMPARE(sweep.plan->sweep.axes.size(), size_t{1});
    MainWindow window;
    QVERIFY(window.open_workspace(dir, &error));
    window.show();
    QVERIFY(window.run_page()->plan_offer()->isVisible());
    // A workspace with runs, or without the plan, offers nothing.
    QVERIFY(window.open_workspace(QDir(workspace_.path()).filePath("ws-plain"), &error));
    QVERIFY(!window.run_page()->plan_offer()->isVisible());
  }

  // A plan whose lanes start programs shows each command and runs only on Yes: Cancel runs
  // nothing; Yes lets the runner start it (here a command that does not exist, reported by lane).
  void launch_plan_needs_confirmation() {
    MainWindow window;
    QString error;
    QVERIFY(window.open_workspace(QDir(workspace_.path()).filePath("ws-launch"), &error));
    const QString path = QDir(workspace_.path()).filePath("launch.json");
    nlohmann::json plan = demo_sweep_plan("/nonexistent/lanebench-sim");
    plan.erase("sweep");
    plan.erase("objective");
    plan["lanes"].erase(1);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(plan.dump()));
    file.close();
    QString shown;
    // Answers the confirmation once it is up (polled: it opens inside start_plan_file).
    auto answer = [&shown](QMessageBox::StandardButton button) {
      auto* poll = new QTimer;
      QObject::connect(poll, &QTimer::timeout, [poll, &shown, button] {
        QMessageBox* box = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
          if (auto* b = qobject_cast<QMessageBox*>(w); b && b->isVisible()) box = b;
        if (!box) return;
        shown = box->informativeText();
        box->button(button)->click();
        poll->stop();
        poll->deleteLater();
      });
      poll->start(20);
    };
    RunPage* run = window.run_page();
    answer(QMessageBox::Cancel);
    QVERIFY(!lb::test::start_plan_file(run, path, &error));
    QVERIFY2(shown.contains("/nonexistent/lanebench-sim --profile fp8 --port"), qPrintable(shown));
    QVERIFY2(error.contains("not allowed"), qPrintable(error));
    QVERIFY(!run->controller()->running());

    QSignalSpy finished(run, &RunPage::run_finished);
    QSignalSpy messages(run->controller(), &RunController::message);
    answer(QMessageBox::Yes);
    QVERIFY2(lb::test::start_plan_file(run, path, &error), qPrintable(error));
    // The run cannot complete (its only server did not start): the page says so in a warning.
    QString warning;
    QTimer dismiss;
    connect(&dismiss, &QTimer::timeout, this, [&warning] {
      for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
          warning = box->text();
          box->button(QMessageBox::Ok)->click();
        }
    });
    dismiss.start(20);
    QVERIFY(finished.wait(60'000));
    QVERIFY2(warning.contains("/nonexistent/lanebench-sim"), qPrintable(warning));
    bool reported = false;
    for (const auto& m : messages)
      reported = reported || (m.at(1).toString().contains("fp8") &&
                              !m.at(1).toString().contains("--allow-launch"));
    QVERIFY(reported);
    const nlohmann::json summary =
        read_json(QDir(finished.at(0).at(0).toString()).filePath("summary.json"));
    QVERIFY2(summary["servers"]["fp8"].is_object(), summary.dump().c_str());
  }

  void bad_plan_file_is_refused_with_its_errors() {
    MainWindow window;
    QString error;
    QVERIFY(window.open_workspace(QDir(workspace_.path()).filePath("ws-bad"), &error));
    const QString bad = QDir(workspace_.path()).filePath("bad.json");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"name\": \"x\", \"lanes\": [], \"experiments\": [{\"kind\": \"throughputt\"}]}");
    file.close();
    QVERIFY(!lb::test::start_plan_file(window.run_page(), bad, &error));
    QVERIFY2(error.contains("bad.json") && error.contains("throughputt"), qPrintable(error));
    // Shown without a nested event loop: the box is up and the call above has returned.
    auto* box = window.run_page()->findChild<QMessageBox*>("planProblem");
    QVERIFY(box != nullptr && box->isVisible());
    QCOMPARE(box->text(), error);
    QVERIFY(!window.run_page()->controller()->running());
  }

  void saved_plan_runs_unchanged_in_the_cli_parser() {
    MainWindow window;
    QString error;
    QVERIFY(window.open_workspace(QDir(workspace_.path()).filePath("ws-save"), &error));
    QVERIFY(window.workspace().set_lanes(
        {test::sim_test_lane("bf16", "bf16", "0.02"), test::sim_test_lane("fp8", "fp8", "0.02")},
        &error));
    RunPage* run = window.run_page();
    run->reload_lanes();
    run->set_checked_lanes({"fp8"});
    run->experiment_form()->set_kind("context_sweep");
    run->experiment_form()->set_context_sizes("512, 1024", 16);
    const QString path = QDir(workspace_.path()).filePath("saved-plan.json");
    QVERIFY2(run->save_plan_file(path, &error), qPrintable(error));
    const auto parsed = plan::load_plan_file(path.toStdString());
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QCOMPARE(parsed.plan->lanes.size(), size_t{1});
    QCOMPARE(parsed.plan->lanes[0].id, std::string("fp8"));
    QCOMPARE(parsed.plan->experiments.size(), size_t{1});
    QCOMPARE(parsed.plan->experiments[0].kind, std::string("context_sweep"));
    const auto& sweep = std::get<plan::ContextSweepExperiment>(parsed.plan->experiments[0].params);
    QCOMPARE(sweep.prompt_tokens, (std::vector<int64_t>{512, 1024}));
    // A file that cannot be written is an error, not a silent loss.
    QVERIFY(
        !run->save_plan_file(QDir(workspace_.path()).filePath("no/such/dir/plan.json"), &error));
    QVERIFY(!error.isEmpty());
  }

  void run_folder_from_anywhere_opens() {
    const QString outside = QDir(workspace_.path()).filePath("cli-run");
    test::run_small_plan(outside);
    MainWindow window;
    QString error;
    QVERIFY(window.open_workspace(QDir(workspace_.path()).filePath("ws-open"), &error));
    QVERIFY2(window.open_run_dir(outside, &error), qPrintable(error));
    QVERIFY(wait_for_decision_of(window, outside, 4));
    QCOMPARE(window.run_page()->open_run(), outside);
    // Its effects at a glance: the context sweep's TTFT (needles marked) and decode charts, and
    // the Pareto chart of its throughput levels.
    QCOMPARE(window.runs_page()->effects()->chart_count(), 3);
    QVERIFY(!window.open_run_dir(workspace_.path(), &error));
    QVERIFY2(error.contains("is not a run folder"), qPrintable(error));
  }
};

LANEBENCH_TEST_MAIN(UiPlanTest)
#include "ui_plan_test.moc"
