// The reviewer's verdicts are the qualification record. On the demo qualification's
// three lanes (bf16 baseline, fp8 and fp8-mtp3 candidates), verdicts given by key on the Review
// page for bf16/fp8 pass fp8's regression gate on the Decision page at once, in decision.json and
// in the exported report, while fp8-mtp3 stays pending; Ctrl+Z and Ctrl+Shift+Z take a verdict
// back and give it again. A run folder of the earlier version (the reviewer's review.json beside
// the run's review.fp8.json) keeps its verdicts when reopened, in the GUI and in the summary the
// CLI's report writes.
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/compare/review_record.h"
#include "core/report/qualification_summary.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"
#include "json_file.h"
#include "models/gate_table_model.h"
#include "models/item_roles.h"
#include "models/review_pairs_model.h"
#include "models/run_history_model.h"
#include "test_main.h"
#include "ui/history/run_folder_job.h"
#include "ui/main_window.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/review_page.h"
#include "ui/pages/runs_page.h"
#include "ui/report/report_export_job.h"
#include "ui/workspace/demo_plan.h"
#include "ui_run_fixture.h"

using namespace lb;
using namespace lb::ui;

namespace {

using lb::test::read_json;

constexpr int kLane0 = models::GateTableModel::kFirstLaneColumn;
const QString kRegression = "Regression vs baseline (identical or similar)";

// The demo qualification plan's lanes at a faster time scale, with its regression and two of its
// functional gates (the report's gate keys are checked too).
nlohmann::json three_lane_plan() {
  nlohmann::json plan = demo_qualification_plan();
  for (auto& lane : plan["lanes"])
    lane["base_url"] = "sim:" + lane["id"].get<std::string>() + "?time_scale=0.01";
  plan["experiments"] = {
      {{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 128}},
      {{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}},
      {{"kind", "throughput"},
       {"concurrency", {1, 2}},
       {"requests", 4},
       {"input_tokens", 64},
       {"output_tokens", 16}}};
  return plan;
}

int row_of(const models::GateTableModel& model, const QString& label) {
  for (int r = 0; r < model.rowCount(); ++r)
    if (model.index(r, 0).data().toString() == label) return r;
  return -1;
}

// Status and text of a lane's regression cell on the Decision page.
QString regression_status(DecisionPage* page, int lane) {
  const models::GateTableModel& model = *page->model();
  return model.index(row_of(model, kRegression), kLane0 + lane)
      .data(models::GateStatusRole)
      .toString();
}
QString regression_text(DecisionPage* page, int lane) {
  const models::GateTableModel& model = *page->model();
  return model.index(row_of(model, kRegression), kLane0 + lane).data().toString();
}

// The Review page's listed rows, those a verdict is required for last.
std::vector<int> rows_required_last(ReviewPage* review) {
  std::vector<int> rows, required;
  for (int r = 0; r < review->proxy()->rowCount(); ++r) {
    const int source = review->proxy()->mapToSource(review->proxy()->index(r, 0)).row();
    const models::ReviewPair* p = review->model()->pair_at(source);
    (p->triage.startsWith("divergent") || p->flipped_fact ? required : rows).push_back(r);
  }
  rows.insert(rows.end(), required.begin(), required.end());
  return rows;
}

// A gate row's cell of a lane in a gate table's JSON (decision.json, the summary).
nlohmann::json json_cell(const nlohmann::json& gates, const std::string& key,
                         const std::string& lane) {
  for (const auto& row : gates["rows"])
    if (row["key"] == key)
      for (const auto& cell : row["cells"])
        if (cell["lane"] == lane) return cell;
  return nullptr;
}

QString copy_run(const QString& from, const QTemporaryDir& into) {
  const QString to = QDir(into.path()).filePath("run");
  std::filesystem::copy(from.toStdString(), to.toStdString(),
                        std::filesystem::copy_options::recursive);
  return to;
}

}  // namespace

class UiReviewDecisionTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(runs_.isValid());
    run_ = QDir(runs_.path()).filePath("demo-run");
    test::run_plan_json(run_, three_lane_plan());
    QVERIFY(QFileInfo::exists(QDir(run_).filePath("review.fp8.json")));
    QVERIFY(QFileInfo::exists(QDir(run_).filePath("review.fp8-mtp3.json")));
  }

  void verdicts_on_the_review_page_decide_fp8s_regression_gate() {
    QTemporaryDir copy;
    const QString run = copy_run(run_, copy);
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(QDir(copy.path()).filePath("ws"), &error), qPrintable(error));
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    open(window, run);
    if (QTest::currentTestFailed()) return;
    DecisionPage* decision = window.decision_page();
    QVERIFY(regression_text(decision, 1).startsWith("review pending"));
    QVERIFY(regression_text(decision, 2).startsWith("review pending"));

    ReviewPage* review = window.review_page();
    QCOMPARE(review->review_path(), QDir(run).filePath("review.fp8.json"));
    window.show_page(MainWindow::Review);
    const std::vector<int> rows = rows_required_last(review);
    QVERIFY(!rows.empty());
    for (int r : rows) {
      QVERIFY2(regression_status(decision, 1) != "pass", "pass before every verdict is given");
      review->table()->setCurrentIndex(review->proxy()->index(r, 0));
      QTest::keyClick(review->table(), Qt::Key_2);  // benign drift
    }
    // At once, without reopening the run: fp8 passes, fp8-mtp3 is still pending.
    QCOMPARE(regression_status(decision, 1), QString("pass"));
    QVERIFY2(regression_text(decision, 2).startsWith("review pending"),
             qPrintable(regression_text(decision, 2)));

    // Ctrl+Z takes the last verdict back (saved too), Ctrl+Shift+Z gives it again.
    QTest::keyClick(review->table(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY2(regression_text(decision, 1).startsWith("review pending: 1"),
             qPrintable(regression_text(decision, 1)));
    QCOMPARE(gate_status_on_disk(run, "fp8"), std::string("not run"));
    QTest::keyClick(review->table(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(regression_status(decision, 1), QString("pass"));
    QCOMPARE(gate_status_on_disk(run, "fp8"), std::string("pass"));

    // decision.json names the candidate and holds the gates it was taken on. Promoting fp8,
    // whose gates all pass, asks nothing.
    QStringList asked;
    bool promote_anyway = false;
    decision->set_override_confirmation([&](const QString& lane, const QStringList& gates) {
      asked = QStringList{lane} + gates;
      return promote_anyway;
    });
    window.show_page(MainWindow::Decision);
    decision->set_candidate("fp8");
    QCOMPARE(decision->candidate(), QString("fp8"));
    decision->set_decision(report::Decision::Promote);
    decision->set_rationale("fp8 matches bf16: every differing pair is benign drift.");
    QVERIFY2(decision->open_gates("fp8").isEmpty(),
             qPrintable(decision->open_gates("fp8").join("; ")));
    QVERIFY2(decision->save(&error), qPrintable(error));
    QVERIFY(asked.isEmpty());
    nlohmann::json saved = read_json(QDir(run).filePath("decision.json"));
    QCOMPARE(saved["candidate"], "fp8");
    QCOMPARE(saved["baseline"], "bf16");
    QVERIFY(!saved.contains("override"));
    QCOMPARE(json_cell(saved["gates"], "regression", "fp8")["status"], "pass");
    QCOMPARE(json_cell(saved["gates"], "regression", "fp8-mtp3")["status"], "not run");

    // Promoting fp8-mtp3 while its review is pending asks first; declined, nothing is saved.
    decision->set_candidate("fp8-mtp3");
    decision->set_rationale("fp8-mtp3 is faster; its review can follow.");
    error = "unchanged";
    QVERIFY(!decision->save(&error));
    QVERIFY2(error.isEmpty(), qPrintable(error));  // declined: no error to show
    QCOMPARE(asked.value(0), QString("fp8-mtp3"));
    QVERIFY2(asked.join("\n").contains(kRegression + ": review pending"),
             qPrintable(asked.join("\n")));
    QCOMPARE(read_json(QDir(run).filePath("decision.json"))["candidate"], "fp8");
    // Confirmed, the override is recorded with the gates it overrode and the rationale.
    promote_anyway = true;
    QVERIFY2(decision->save(&error), qPrintable(error));
    saved = read_json(QDir(run).filePath("decision.json"));
    QCOMPARE(saved["candidate"], "fp8-mtp3");
    QCOMPARE(saved["decision"], "promote");
    QVERIFY2(saved["override"]["gates"].dump().find("review pending") != std::string::npos,
             saved.dump().c_str());
    QVERIFY(decision->saved_text().contains("promote fp8-mtp3 over bf16"));
    QVERIFY2(decision->saved_text().contains("Override"), qPrintable(decision->saved_text()));
    // Back to fp8 for the report below.
    decision->set_candidate("fp8");
    decision->set_rationale("fp8 matches bf16: every differing pair is benign drift.");
    QVERIFY2(decision->save(&error), qPrintable(error));

    // The exported report judges the same way; its gate keys are not taken for host names.
    QTemporaryDir out;
    const ReportExportResult exported = export_report(run, out.path(), {"md", "json"});
    QVERIFY2(exported.errors.isEmpty(), qPrintable(exported.errors.join("; ")));
    const nlohmann::json summary =
        read_json(QDir(out.path()).filePath("qualification-summary.json"));
    QCOMPARE(json_cell(summary["gates"], "regression", "fp8")["status"], "pass");
    QCOMPARE(json_cell(summary["gates"], "regression", "fp8-mtp3")["status"], "not run");
    QVERIFY2(!json_cell(summary["gates"], "gates.streaming", "fp8").is_null(),
             summary["gates"].dump().c_str());
    QFile md(QDir(out.path()).filePath("report.md"));
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(md.readAll());
    QVERIFY(text.contains("verdict: benign_drift"));
    QVERIFY2(text.contains("**promote fp8 over bf16**"), qPrintable(text.left(2000)));
    QCOMPARE(summary["decision"]["candidate"], "fp8");
  }

  // review.json with lane_a bf16 / lane_b fp8 beside the run's review.fp8.json, as the earlier
  // Review page left it: its verdicts count in the GUI and in the CLI's qualification summary.
  void an_earlier_versions_review_json_keeps_its_verdicts() {
    QTemporaryDir copy;
    const QString run = copy_run(run_, copy);
    std::string why;
    auto record = compare::load_review(QDir(run).filePath("review.fp8.json").toStdString(), &why);
    QVERIFY2(record, why.c_str());
    QVERIFY(record->outcome().unreviewed_required > 0);
    for (size_t i = 0; i < record->pairs.size(); ++i)
      if (record->pairs[i].comparison.review_required())
        record->set_verdict(i, compare::Verdict::BenignDrift, "wording",
                            std::chrono::system_clock::now());
    QVERIFY2(compare::save_review(*record, QDir(run).filePath("review.json").toStdString(), &why),
             why.c_str());

    const auto folder = report::load_run_folder(run.toStdString(), &why);
    QVERIFY2(folder, why.c_str());
    QCOMPARE(folder->reviews.size(), size_t(2));  // one per lane pair
    const auto model = report::build_report_model(*folder);
    const nlohmann::json summary =
        report::qualification_summary(*folder, model, report::PrivacyScrubber::for_run(*folder));
    QCOMPARE(json_cell(summary["gates"], "regression", "fp8")["status"], "pass");
    QCOMPARE(json_cell(summary["gates"], "regression", "fp8-mtp3")["status"], "not run");

    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(QDir(copy.path()).filePath("ws"), &error), qPrintable(error));
    open(window, run);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(regression_status(window.decision_page(), 1), QString("pass"));
    QVERIFY(regression_text(window.decision_page(), 2).startsWith("review pending"));
    ReviewPage* review = window.review_page();
    for (const models::ReviewPair& p : review->model()->pairs())
      if (p.triage != "identical") QVERIFY2(!p.verdict.isEmpty(), qPrintable(p.prompt_id));
  }

  // The window keeps the size it was given on every page with the 3-lane run open, and no
  // page asks for more than the screen: nothing is pushed off at 1280x800.
  void every_page_fits_the_window_without_resizing_it_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x800") << QSize(1280, 800);
    QTest::newRow("1440x900") << QSize(1440, 900);
  }
  void every_page_fits_the_window_without_resizing_it() {
    QFETCH(QSize, size);
    QTemporaryDir copy;
    const QString run = copy_run(run_, copy);
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(QDir(copy.path()).filePath("ws"), &error), qPrintable(error));
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QSize given = window.size();
    QCOMPARE(given, size);
    open(window, run);
    if (QTest::currentTestFailed()) return;
    for (MainWindow::Page page :
         {MainWindow::Lanes, MainWindow::PromptSets, MainWindow::Run, MainWindow::Review,
          MainWindow::Decision, MainWindow::Runs, MainWindow::Verify, MainWindow::Review}) {
      window.show_page(page);
      QTest::qWait(50);  // let layouts settle
      const QSize wants = window.minimumSizeHint();
      QVERIFY2(window.size() == given, qPrintable(QString("page %1 resized the window to %2x%3")
                                                      .arg(page)
                                                      .arg(window.width())
                                                      .arg(window.height())));
      QVERIFY2(
          wants.width() <= size.width() && wants.height() <= size.height(),
          qPrintable(
              QString("page %1 needs %2x%3").arg(page).arg(wants.width()).arg(wants.height())));
      if (page == MainWindow::Decision) {
        // The lanes' columns take the width there is: no empty band right of the last one.
        const QTableView* gates = window.decision_page()->table();
        QVERIFY2(gates->horizontalHeader()->length() >= gates->viewport()->width(),
                 qPrintable(QString("the gate table's columns fill %1 px of %2")
                                .arg(gates->horizontalHeader()->length())
                                .arg(gates->viewport()->width())));
      }
      if (page == MainWindow::Review) {
        // The verdict is what a reviewer scans the pair list for: never behind a scroll bar.
        const QTableView* pairs = window.review_page()->table();
        const int verdict = models::ReviewPairsModel::Verdict;
        const int right = pairs->columnViewportPosition(verdict) + pairs->columnWidth(verdict);
        QVERIFY2(right <= pairs->viewport()->width(),
                 qPrintable(QString("the Verdict column ends at %1 px of %2")
                                .arg(right)
                                .arg(pairs->viewport()->width())));
      }
    }
  }

  // A run with a long name and five experiments, as the demo qualification is: at 1280x800 its
  // name and experiments narrow (their tooltips say them whole) before Requests, Review and
  // Decision leave the runs table's view.
  void the_runs_table_keeps_its_last_columns_in_view() {
    QTemporaryDir copy;
    const QString runs = QDir(copy.path()).filePath("ws/runs");
    QVERIFY(QDir().mkpath(runs));
    const QString run = QDir(runs).filePath("20261208-003654-demo-qualification");
    std::filesystem::copy(run_.toStdString(), run.toStdString(),
                          std::filesystem::copy_options::recursive);
    const QString long_name =
        "demo qualification of fp8 and fp8-mtp3 against the bf16 baseline on the simulator";
    for (const char* file : {"plan.json", "summary.json"}) {
      const QString path = QDir(run).filePath(file);
      nlohmann::json j = read_json(path);
      if (j.contains("run")) j["run"]["name"] = long_name.toStdString();
      if (!j.contains("run")) {
        j["name"] = long_name.toStdString();
        for (const char* kind : {"gates", "context_sweep", "prefix_cache", "speculative", "trace",
                                 "sessions", "capacity"})
          j["experiments"].push_back({{"kind", kind}, {"name", std::string(kind) + "-check"}});
      }
      QFile out(path);
      QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
      out.write(QByteArray::fromStdString(j.dump(2)));
    }
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(QDir(copy.path()).filePath("ws"), &error), qPrintable(error));
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy refreshed(window.runs_page(), &RunsPage::refreshed);
    window.show_page(MainWindow::Runs);
    window.runs_page()->refresh();
    QVERIFY(refreshed.wait(30'000));
    QTest::qWait(50);
    const QTableView* table = window.runs_page()->table();
    QCOMPARE(table->model()->rowCount(), 1);
    using M = models::RunHistoryModel;
    const int decision = table->columnViewportPosition(M::Decision);
    QVERIFY2(decision >= 0 && decision < table->viewport()->width(),
             qPrintable(QString("the Decision column starts at %1 px of %2")
                            .arg(decision)
                            .arg(table->viewport()->width())));
    const QString experiments = table->model()->index(0, M::Experiments).data().toString();
    QVERIFY2(experiments.contains("capacity"), qPrintable(experiments));
    // A column the user sized keeps its width when the window is resized.
    QTableView* runs_table = window.runs_page()->table();
    runs_table->horizontalHeader()->resizeSection(M::Lanes, 300);
    window.resize(1440, 900);
    QTest::qWait(50);
    QCOMPARE(runs_table->columnWidth(M::Lanes), 300);
    QVERIFY(table->model()
                ->index(0, M::Experiments)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith(experiments));
  }

 private:
  // Opens RUN in the window and waits for the Runs page's load and the Review page's pair.
  static void open(MainWindow& window, const QString& run) {
    QSignalSpy loaded(window.runs_page(), &RunsPage::run_loaded);
    QSignalSpy pair(window.review_page(), &ReviewPage::pair_loaded);
    QString error;
    QVERIFY2(window.open_run_dir(run, &error), qPrintable(error));
    QVERIFY(loaded.wait(30'000));
    if (pair.isEmpty()) QVERIFY(pair.wait(30'000));
    QVERIFY(window.decision_page()->has_run());
  }

  // fp8's regression status as a fresh load of the folder judges it.
  static std::string gate_status_on_disk(const QString& run, const std::string& lane) {
    const auto loaded = load_run(run);
    if (!loaded->decision.gates) return "?";
    return json_cell(report::gate_table_to_json(*loaded->decision.gates), "regression", lane)
        .value("status", std::string("?"));
  }

  QTemporaryDir runs_;
  QString run_;
};

LANEBENCH_TEST_MAIN(UiReviewDecisionTest)
#include "ui_review_decision_test.moc"
