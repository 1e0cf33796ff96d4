// A regression judged against its baseline's determinism floor, seen as a reviewer sees it: on
// three simulator lanes (a bf16 baseline whose greedy answers move with batching and caching, an
// fp8 candidate and a second bf16 lane of the baseline's configuration), the Decision page's
// regression cells say "above the floor" for fp8 and "within the floor" for the copy, with the
// test and its p-value. And a throughput run's energy and cost on three lanes, one without an
// energy counter. LANEBENCH_SHOT_DIR, when set, receives a screenshot of each page.
#include <QDir>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "models/gate_table_model.h"
#include "test_main.h"
#include "ui/main_window.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/runs_page.h"
#include "ui_run_fixture.h"

using namespace lb;
using namespace lb::ui;

namespace {

const QString kRegression = "Regression vs baseline (identical or similar)";

nlohmann::json floor_plan() {
  const std::string baseline = "sim:bf16?time_scale=0.01&batch_variance=0.3&cache_variance=0.1";
  return {{"name", "fp8 against the bf16 floor"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", baseline}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}},
            {{"id", "bf16-again"}, {"base_url", baseline}}}},
          {"experiments",
           {{{"kind", "regression"},
             {"prompts", "builtin:regression-20"},
             {"max_tokens", 64},
             {"floor", {{"batch_concurrency", 8}}}}}}};
}

// The tooltip of LANE's regression cell (column kFirstLaneColumn + LANE).
QString regression_detail(DecisionPage* page, int lane) {
  const models::GateTableModel& model = *page->model();
  for (int r = 0; r < model.rowCount(); ++r)
    if (model.index(r, 0).data().toString() == kRegression)
      return model.index(r, models::GateTableModel::kFirstLaneColumn + lane)
          .data(Qt::ToolTipRole)
          .toString();
  return {};
}

nlohmann::json energy_plan() {
  return {{"name", "energy and cost"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.1"}, {"cost_per_hour", 4.0}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}, {"cost_per_hour", 4.0}},
            {{"id", "fp8-mtp3"},
             {"base_url", "sim:fp8-mtp3?time_scale=0.1&energy_counter=0"},
             {"cost_per_hour", 4.0}}}},
          {"experiments",
           {{{"kind", "throughput"},
             {"concurrency", {4}},
             {"requests", 8},
             {"warmups", 1},
             {"trials", 3},
             {"input_tokens", 256},
             {"output_tokens", 48}}}}};
}

// The texts of the Decision page's row whose label starts with LABEL, lanes in order.
QStringList row_texts(const models::GateTableModel& model, const QString& label) {
  QStringList out;
  for (int r = 0; r < model.rowCount(); ++r)
    if (model.index(r, 0).data().toString().startsWith(label))
      for (int c = models::GateTableModel::kFirstLaneColumn; c < model.columnCount(); ++c)
        out << model.index(r, c).data().toString();
  return out;
}

// Runs PLAN into DIR/run and opens it in WINDOW (workspace DIR/ws) as a reviewer would, at
// 1280 x 800, until the Decision page has it.
void open_on_decision_page(MainWindow& window, const QTemporaryDir& dir,
                           const nlohmann::json& plan) {
  QStandardPaths::setTestModeEnabled(true);
  const QString run = QDir(dir.path()).filePath("run");
  test::run_plan_json(run, plan);
  QString error;
  QVERIFY2(window.open_workspace(QDir(dir.path()).filePath("ws"), &error), qPrintable(error));
  window.resize(1280, 800);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  QSignalSpy loaded(window.runs_page(), &RunsPage::run_loaded);
  QVERIFY2(window.open_run_dir(run, &error), qPrintable(error));
  QVERIFY(loaded.wait(30'000));
  QTRY_VERIFY_WITH_TIMEOUT(window.decision_page()->has_run(), 30'000);
}

}  // namespace

class UiFloorDecisionTest : public QObject {
  Q_OBJECT
 private slots:
  void theDecisionPageSaysAboveOrWithinTheFloor() {
    QTemporaryDir dir;
    MainWindow window;
    open_on_decision_page(window, dir, floor_plan());
    if (QTest::currentTestFailed()) return;
    window.show_page(MainWindow::Decision);
    // Lane columns: bf16 (the baseline), fp8, bf16-again.
    const QString fp8 = regression_detail(window.decision_page(), 1);
    const QString again = regression_detail(window.decision_page(), 2);
    QVERIFY2(fp8.contains("above the floor") && fp8.contains("one-sided Fisher exact test, p ="),
             qPrintable(fp8));
    QVERIFY2(again.contains("within the floor: 0 of 20 answers differ"), qPrintable(again));
    // And in a row of its own, in words: the floor on the baseline, the verdict on the others.
    const models::GateTableModel& model = *window.decision_page()->model();
    int floor_row = -1;
    for (int r = 0; r < model.rowCount(); ++r)
      if (model.index(r, 0).data().toString() == "Answers against the baseline's determinism floor")
        floor_row = r;
    QVERIFY(floor_row >= 0);
    const int lane0 = models::GateTableModel::kFirstLaneColumn;
    // The baseline's own flips, counted: "floor 2 of 20", never "floor – of –".
    const QString floor_text = model.index(floor_row, lane0).data().toString();
    QVERIFY2(QRegularExpression("^floor \\d+ of 20$").match(floor_text).hasMatch(),
             qPrintable(floor_text));
    QVERIFY(
        model.index(floor_row, lane0 + 1).data().toString().startsWith("above the floor (p = "));
    QCOMPARE(model.index(floor_row, lane0 + 2).data().toString(),
             QString("within the floor (p = 1)"));
    QCOMPARE(model.index(floor_row, lane0 + 1).data(Qt::ToolTipRole).toString(),
             fp8.mid(fp8.indexOf("above")));
    if (const QByteArray shots = qgetenv("LANEBENCH_SHOT_DIR"); !shots.isEmpty()) {
      QTest::qWait(300);
      QVERIFY(window.grab().save(
          QDir(QString::fromLocal8Bit(shots)).filePath("26-decision-floor.png")));
    }
  }

  void theDecisionPageShowsEnergyAndCost() {
    QTemporaryDir dir;
    MainWindow window;
    open_on_decision_page(window, dir, energy_plan());
    if (QTest::currentTestFailed()) return;
    window.show_page(MainWindow::Decision);
    const models::GateTableModel& model = *window.decision_page()->model();
    const QStringList energy = row_texts(model, "Energy per output token (J)");
    QCOMPARE(energy.size(), 3);
    QVERIFY2(energy[0].contains(" ["), qPrintable(energy[0]));  // an interval over trials
    QVERIFY2(energy[1].contains("less energy"), qPrintable(energy[1]));
    QCOMPARE(energy[2], QString("unsupported"));  // no counter on that lane
    const QStringList cost = row_texts(model, "Cost per 1M output tokens ($)");
    QCOMPARE(cost.size(), 3);
    QVERIFY2(cost[1].contains("cheaper") && cost[2].contains("cheaper"),
             qPrintable(cost.join(" | ")));
    if (const QByteArray shots = qgetenv("LANEBENCH_SHOT_DIR"); !shots.isEmpty()) {
      QTest::qWait(300);
      QVERIFY(window.grab().save(
          QDir(QString::fromLocal8Bit(shots)).filePath("28-decision-energy.png")));
    }
  }
};

LANEBENCH_TEST_MAIN(UiFloorDecisionTest)
#include "ui_floor_decision_test.moc"
