// End to end, offscreen: the Run page offers the sampled review, runs it on two in-process
// simulator lanes (one with flip_facts=1), and the finished run opens on the Review page's
// sampled tab: a row per prompt, the three similarity strips of the selected prompt, a clicked
// dot opening that sample pair side by side in the diff panes, and a verdict saved at once to
// sampled-review.json.
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/compare/sampled_verdicts.h"
#include "core/plan/plan.h"
#include "models/review_pair.h"
#include "sim_lane_starter.h"
#include "test_main.h"
#include "ui/main_window.h"
#include "ui/pages/review_page.h"
#include "ui/pages/run_page.h"
#include "ui/review/sampled_review_view.h"
#include "ui/run/experiment_form.h"
#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"
#include "widgets/diff/diff_view.h"
#include "widgets/strips/similarity_strips.h"

using namespace lb;
using namespace lb::ui;

namespace {

plan::Lane sampled_lane(const std::string& id, const std::string& base_url) {
  plan::Lane l;
  l.id = id;
  l.base_url = base_url;
  fill_sim_fields(l);
  return l;
}

}  // namespace

class UiSampledReviewTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    app::register_sim_lane_starter();
  }

  void formWritesAPlanTheParserTakes() {
    ExperimentForm form;
    QVERIFY(form.kind_available("sampled_regression"));
    form.set_kind("sampled_regression");
    QString error;
    const nlohmann::json exp = form.experiment_json(&error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(exp["kind"].get<std::string>(), std::string("sampled_regression"));
    QCOMPARE(exp["samples"].get<int>(), 16);
    QCOMPARE(exp["prompts"].get<std::string>(), std::string("builtin:regression-20"));
    const nlohmann::json plan = {
        {"name", "p"},
        {"lanes",
         {{{"id", "a"}, {"base_url", "sim:bf16"}}, {{"id", "b"}, {"base_url", "sim:fp8"}}}},
        {"experiments", {exp}}};
    const auto parsed = plan::parse_plan(plan.dump(), "form");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QVERIFY(std::holds_alternative<plan::SampledRegressionExperiment>(
        parsed.plan->experiments[0].params));
  }

  void sampledRunOpensForReview() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    QVERIFY(
        window.workspace().set_lanes({sampled_lane("fp8", "sim:fp8?time_scale=0.02"),
                                      sampled_lane("flip", "sim:fp8?time_scale=0.02&flip_facts=1")},
                                     &error));
    RunPage* run = window.run_page();
    run->reload_lanes();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.show_page(MainWindow::Run);
    run->experiment_form()->set_kind("sampled_regression");
    run->experiment_form()->use_quick_defaults();  // 8 samples per prompt
    QSignalSpy finished(run, &RunPage::run_finished);
    QVERIFY2(run->start_run(&error), qPrintable(error));
    QVERIFY(finished.wait(150'000));
    QVERIFY2(finished.at(0).at(1).toBool(), "a sampled run is offered for review");

    ReviewPage* review = window.review_page();
    SampledReviewView* sampled = review->sampled_view();
    QTRY_VERIFY(sampled->has_data());
    QVERIFY(review->tabs()->currentWidget() == sampled);
    QVERIFY(!review->tabs()->isTabEnabled(0));  // no greedy regression in this run
    QTableWidget* table = sampled->prompt_table();
    QCOMPARE(table->rowCount(), 20);
    int shifted = 0, shifted_row = -1;
    for (int r = 0; r < table->rowCount(); ++r)
      if (table->item(r, 1)->text() == "shifted") {
        ++shifted;
        if (shifted_row < 0) shifted_row = r;
      }
    QVERIFY(shifted > 0);
    // The fact-loss column: short counts, the candidate's first, the sentence as tooltip; every
    // column fits the table's width in a window of the size the screenshots use.
    window.resize(1650, 900);
    window.show_page(MainWindow::Review);
    QTRY_VERIFY(table->isVisible());
    QCOMPARE(table->horizontalHeaderItem(3)->text(), QString("Fact loss (flip vs fp8)"));
    const QRegularExpression counts("^\\d+/8 vs \\d+/8$");
    QVERIFY2(counts.match(table->item(0, 3)->text()).hasMatch(),
             qPrintable(table->item(0, 3)->text()));
    QVERIFY2(table->item(0, 3)->toolTip().startsWith("fact lost in"),
             qPrintable(table->item(0, 3)->toolTip()));
    QHeaderView* header = table->horizontalHeader();
    QTRY_VERIFY2(header->sectionPosition(4) + header->sectionSize(4) <= table->viewport()->width(),
                 qPrintable(QString("%1 + %2 > %3")
                                .arg(header->sectionPosition(4))
                                .arg(header->sectionSize(4))
                                .arg(table->viewport()->width())));
    QVERIFY2(
        header->sectionSize(3) >= table->fontMetrics().horizontalAdvance(table->item(0, 3)->text()),
        "the fact-loss cell is not cut");

    // The strips of a shifted prompt: 28 pairs within each lane (8 samples), 64 across.
    window.show_page(MainWindow::Review);
    QSignalSpy shown(sampled, &SampledReviewView::diff_shown);
    sampled->select_prompt(shifted_row);
    widgets::SimilarityStrips* strips = sampled->strips();
    QCOMPARE(strips->rows().size(), size_t{3});
    QCOMPARE(strips->rows()[0].values.size(), size_t{28});
    QCOMPARE(strips->rows()[1].values.size(), size_t{28});
    QCOMPARE(strips->rows()[2].values.size(), size_t{64});
    QVERIFY(shown.wait(10'000));

    // Clicking a dot of the candidate's own strip opens that pair of its samples.
    shown.clear();
    const QPointF dot = strips->dot_position(1, 5);
    QTest::mouseClick(strips, Qt::LeftButton, {}, dot.toPoint());
    QCOMPARE(strips->selected_row(), 1);
    QVERIFY(shown.wait(10'000));
    const auto& data = *sampled->data();
    const auto& pair = data.prompts[static_cast<size_t>(shifted_row)]
                           .pairs[1][static_cast<size_t>(strips->selected_index())];
    const auto texts =
        data.texts(static_cast<size_t>(shifted_row), SampleDistribution::WithinB, pair);
    auto* diff = sampled->diff_view();
    QCOMPARE(diff->pane(widgets::DiffView::Side::Left)->toPlainText(),
             QString::fromStdString(texts.first));
    QCOMPARE(diff->pane(widgets::DiffView::Side::Right)->toPlainText(),
             QString::fromStdString(texts.second));
    QVERIFY(sampled->pair_label()->text().contains("flip sample"));

    // A verdict by key goes to sampled-review.json at once.
    QTest::keyClick(table, Qt::Key_3);
    std::string why;
    const auto saved = compare::load_sampled_review(data.review_path.toStdString(), &why);
    QVERIFY2(saved.has_value(), why.c_str());
    QCOMPARE(saved->outcome().unreviewed, static_cast<size_t>(shifted - 1));
    QCOMPARE(table->item(shifted_row, 4)->text(),
             models::verdict_label(compare::verdict_name(compare::Verdict::MaterialDifference)));
  }
};

LANEBENCH_TEST_MAIN(UiSampledReviewTest)
#include "ui_sampled_review_test.moc"
