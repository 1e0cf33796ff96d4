// End to end, offscreen: the main window runs the built-in regression on two in-process simulator
// lanes, the live charts and table fill from the engine's thread through the <= 30 Hz drain, the
// finished run opens for review, highlights are painted, and a verdict lands in review.json.
#include <QElapsedTimer>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "core/compare/review_record.h"
#include "models/item_roles.h"
#include "sim/profile.h"
#include "sim_lane_starter.h"
#include "sim_test_lane.h"
#include "test_main.h"
#include "ui/main_window.h"
#include "ui/pages/review_page.h"
#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/diff/diff_view.h"

using namespace lb;
using namespace lb::ui;

namespace {

plan::Lane review_lane(const std::string& id, const std::string& profile) {
  return test::sim_test_lane(id, profile, "0.05");
}

}  // namespace

class UiRunReviewTest : public QObject {
  Q_OBJECT
 private slots:
  // The demo lanes' serving notes say what their simulator profiles serve: a report or decision
  // made on the demo must not claim a KV cache dtype the lane does not use.
  void demo_lane_notes_match_their_simulator_profiles() {
    for (const lb::plan::Lane& lane : lb::ui::demo_lanes()) {
      const auto profile = lb::sim::builtin_profile(lane.id);
      QVERIFY2(profile, lane.id.c_str());
      const std::string kv =
          profile->cache_dtype == "auto" ? profile->weights_dtype : profile->cache_dtype;
      QCOMPARE(lane.notes.weights, profile->weights_dtype);
      QCOMPARE(lane.notes.kv_cache, kv);
    }
  }

  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    lb::app::register_sim_lane_starter();
  }

  void regression_runs_live_and_opens_for_review() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    QVERIFY(window.workspace().set_lanes(
        {review_lane("bf16", "bf16"), review_lane("mtp", "fp8-mtp3")}, &error));
    RunPage* run = window.run_page();
    run->reload_lanes();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.show_page(MainWindow::Run);
    run->experiment_form()->set_kind("regression");
    run->experiment_form()->use_quick_defaults();

    // The run's own messages explain a failure better than a timeout does.
    connect(run->controller(), &RunController::message, this,
            [](int level, const QString& text) { qInfo("run [%d]: %s", level, qPrintable(text)); });
    QSignalSpy finished(run, &RunPage::run_finished);
    QSignalSpy loaded(window.review_page(), &ReviewPage::pair_loaded);
    QElapsedTimer clock;
    clock.start();
    QVERIFY2(run->start_run(&error), qPrintable(error));
    QVERIFY(!run->start_run(&error));  // one run at a time
    QVERIFY(finished.wait(150'000));
    const double elapsed_s = clock.elapsed() / 1000.0;
    QVERIFY2(finished.at(0).at(1).toBool(), "a regression run is offered for review");

    // Drained in batches at <= 30 Hz, however many callbacks the engine made.
    RunController* controller = run->controller();
    QVERIFY(controller->drain_count() >= 1);
    QVERIFY2(
        controller->drain_count() <= elapsed_s * 30 + 2,
        qPrintable(QString("%1 drains in %2 s").arg(controller->drain_count()).arg(elapsed_s)));

    // Table: 20 prompts on each lane, no errors, measured TTFT, MTP shows > 1 token per event.
    models::LaneStatsModel* stats = controller->stats_model();
    QCOMPARE(stats->rowCount(), 2);
    for (int row = 0; row < 2; ++row) {
      QCOMPARE(stats->index(row, models::LaneStatsModel::Completed).data().toString(),
               QString("20"));
      QCOMPARE(stats->index(row, models::LaneStatsModel::Failed).data().toString(), QString("0"));
      QCOMPARE(stats->index(row, models::LaneStatsModel::TtftP50)
                   .data(models::ProvenanceRole)
                   .toString(),
               QString("measured"));
    }
    const double bf16_tpe =
        models::LaneStatsModel::value(stats->rows()[0], models::LaneStatsModel::TokensPerEvent);
    const double mtp_tpe =
        models::LaneStatsModel::value(stats->rows()[1], models::LaneStatsModel::TokensPerEvent);
    QVERIFY2(mtp_tpe > bf16_tpe, qPrintable(QString("%1 vs %2").arg(mtp_tpe).arg(bf16_tpe)));

    // Charts: one TTFT point per request, histograms binned, rate series present.
    LiveCharts* charts = run->charts();
    for (widgets::ChartPanel* panel : charts->panels()) panel->flush();
    QCOMPARE(charts->ttft()->drawn_point_count("bf16"), 20);
    QCOMPARE(charts->ttft()->drawn_point_count("mtp"), 20);
    const int itl_bins = charts->itl()->drawn_point_count("mtp");  // round edges up to every p99
    QVERIFY2(itl_bins >= 3 && itl_bins <= 17, qPrintable(QString::number(itl_bins)));
    QCOMPARE(charts->tokens_per_event()->drawn_point_count("mtp"), 5);
    QVERIFY(charts->output_rate()->drawn_point_count("bf16") >= 1);
    QVERIFY(!charts->decode_vs_context()->isVisible());  // no context sweep in this run

    // Review: the window opened the run; every prompt is listed, identical ones filtered out.
    ReviewPage* review = window.review_page();
    if (loaded.isEmpty()) QVERIFY(loaded.wait(20'000));
    QCOMPARE(review->model()->rowCount(), 20);
    int non_identical = 0;
    for (const models::ReviewPair& p : review->model()->pairs())
      non_identical += p.triage != "identical";
    QVERIFY(non_identical > 0);
    QCOMPARE(review->proxy()->rowCount(), non_identical);

    // Highlights painted for the selected pair, inside the text, on both sides.
    window.show_page(MainWindow::Review);
    QSignalSpy shown(review, &ReviewPage::diff_shown);
    review->next_pair(1);
    QVERIFY(shown.wait(10'000));
    widgets::DiffView* diff = review->diff_view();
    const auto left = diff->applied_ranges(widgets::DiffView::Side::Left);
    const auto right = diff->applied_ranges(widgets::DiffView::Side::Right);
    QVERIFY(!left.isEmpty() || !right.isEmpty());
    const int right_len = diff->pane(widgets::DiffView::Side::Right)->toPlainText().size();
    for (const auto& r : right) QVERIFY(r.start >= 0 && r.start + r.length <= right_len + 1);

    // The review keys work wherever the focus is on the Review page, the sidebar included.
    QListWidget* sidebar = nullptr;
    for (QListWidget* list : window.findChildren<QListWidget*>())
      if (list->accessibleName() == "Pages") sidebar = list;
    QVERIFY(sidebar);
    window.activateWindow();
    sidebar->setFocus();
    QTRY_VERIFY(sidebar->hasFocus());
    const int row_before = review->table()->currentIndex().row();
    QTest::keyClick(sidebar, Qt::Key_J);
    QCOMPARE(review->table()->currentIndex().row(), row_before + 1);
    QTest::keyClick(sidebar, Qt::Key_K);
    QCOMPARE(review->table()->currentIndex().row(), row_before);
    QVERIFY(review->isVisible());  // the sidebar did not take "j" as a page to jump to

    // A verdict by key is saved at once to review.json.
    QTest::keyClick(review->table(), Qt::Key_4);
    std::string why;
    const auto saved = compare::load_review(review->review_path().toStdString(), &why);
    QVERIFY2(saved.has_value(), why.c_str());
    int blockers = 0;
    for (const auto& p : saved->pairs) blockers += p.verdict == compare::Verdict::Blocker;
    QCOMPARE(blockers, 1);
    QVERIFY(!saved->outcome().passed);
  }
};

LANEBENCH_TEST_MAIN(UiRunReviewTest)
#include "ui_run_review_test.moc"
