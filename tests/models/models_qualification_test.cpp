// The Decision and Verify pages' models pass QAbstractItemModelTester while they are filled,
// refilled and cleared, and show what they were given: gate cells with their status (coloured,
// with the reason as a tooltip), figures right-aligned, findings with their severity; the run
// history shows an interrupted run as incomplete.
#include <QAbstractItemModelTester>
#include <QBrush>
#include <QFont>
#include <QTest>

#include "models/gate_table_model.h"
#include "models/item_roles.h"
#include "models/run_history_model.h"
#include "models/verify_findings_model.h"
#include "test_main.h"

using namespace lb::models;

class QualificationModelsTest : public QObject {
  Q_OBJECT
 private slots:
  void gate_table_model() {
    GateTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), 0);
    std::vector<GateRowView> rows;
    rows.push_back({"JSON schema output",
                    false,
                    {{"pass", "pass 3/3", ""}, {"fail", "fail 1/3", "missing key \"name\""}},
                    "gates"});
    rows.push_back({"Responses API", false, {{"unsupported", "unsupported", "404"}}, "gates"});
    rows.push_back(
        {"TTFT median (ms) at c1", true, {{"", "41.2", ""}, {"", "38.0", ""}}, "throughput"});
    model.set_table({"bf16", "fp8"}, rows);
    // Gate, Experiment, then a column per lane.
    constexpr int bf16 = GateTableModel::kFirstLaneColumn, fp8 = bf16 + 1;
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 4);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QString("Gate"));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("Experiment"));
    QCOMPARE(model.headerData(fp8, Qt::Horizontal).toString(), QString("fp8"));
    QCOMPARE(model.index(2, GateTableModel::kExperimentColumn).data().toString(),
             QString("throughput"));
    QVERIFY(model.index(0, GateTableModel::kExperimentColumn).data(GateStatusRole).isNull());
    QCOMPARE(model.index(0, fp8).data().toString(), QString("fail 1/3"));
    QCOMPARE(model.index(0, fp8).data(GateStatusRole).toString(), QString("fail"));
    QCOMPARE(model.index(0, fp8).data(Qt::ToolTipRole).toString(), QString("missing key \"name\""));
    QCOMPARE(model.index(0, fp8).data(LaneIdRole).toString(), QString("fp8"));
    QCOMPARE(model.index(0, bf16).data(LaneIdRole).toString(), QString("bf16"));
    const QColor pass = model.index(0, bf16).data(Qt::BackgroundRole).value<QBrush>().color();
    const QColor fail = model.index(0, fp8).data(Qt::BackgroundRole).value<QBrush>().color();
    QVERIFY(pass.green() > pass.red());
    QVERIFY(fail.red() > fail.green());
    // A row given fewer cells than lanes is padded with empty cells, never read past its end.
    QCOMPARE(model.index(1, fp8).data().toString(), QString());
    QVERIFY(!model.index(2, bf16).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model.index(2, bf16).data(Qt::TextAlignmentRole).toInt(),
             int(Qt::AlignRight | Qt::AlignVCenter));
    QCOMPARE(model.count("pass"), 1);
    QCOMPARE(model.count("fail"), 1);
    QCOMPARE(model.count("unsupported"), 1);
    QCOMPARE(model.count(""), 1);  // the padded cell only: performance rows never count
    model.set_table({"a"}, {rows[0]});
    QCOMPARE(model.columnCount(), 3);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void verify_findings_model() {
    VerifyFindingsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.set_findings(
        {{FindingSeverity::Blocker, "mismatch", "model.safetensors", "expected aa, found bb"},
         {FindingSeverity::Warning, "refuse-list", "weights.npy", "NumPy array"},
         {FindingSeverity::Ok, "ok", "config.json", "cc"}});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 4);
    QCOMPARE(model.index(0, VerifyFindingsModel::Severity).data().toString(), QString("blocker"));
    QCOMPARE(model.index(1, VerifyFindingsModel::Severity).data().toString(), QString("warning"));
    QCOMPARE(model.index(0, VerifyFindingsModel::Path).data().toString(),
             QString("model.safetensors"));
    QCOMPARE(model.index(0, VerifyFindingsModel::Severity).data(SortRole).toInt(), 0);
    QCOMPARE(model.index(2, VerifyFindingsModel::Severity).data(SortRole).toInt(), 2);
    QCOMPARE(model.count(FindingSeverity::Blocker), 1);
    QCOMPARE(model.headerData(VerifyFindingsModel::Detail, Qt::Horizontal).toString(),
             QString("Detail"));
    model.set_findings({});
    QCOMPARE(model.rowCount(), 0);
  }

  void run_history_shows_incomplete_runs() {
    RunHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RunFolderInfo done{"/w/runs/a",    "a", "demo", QDateTime::fromSecsSinceEpoch(1000), {"bf16"},
                       {"regression"}, 20,  true};
    done.decision = "promote";
    RunFolderInfo killed{"/w/runs/b",    "b", "",   QDateTime::fromSecsSinceEpoch(2000), {"bf16"},
                         {"throughput"}, 7,   false};
    killed.complete = false;
    model.set_runs({done, killed});
    QCOMPARE(model.index(0, RunHistoryModel::Status).data().toString(), QString("incomplete"));
    QVERIFY(model.index(0, RunHistoryModel::Status).data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(model.index(1, RunHistoryModel::Status).data().toString(), QString("complete"));
    QCOMPARE(model.index(1, RunHistoryModel::Decision).data().toString(), QString("promote"));
    QCOMPARE(model.index(0, RunHistoryModel::Decision).data().toString(), QString("–"));
    QCOMPARE(model.headerData(RunHistoryModel::Status, Qt::Horizontal).toString(),
             QString("Status"));
  }
};

LANEBENCH_TEST_MAIN(QualificationModelsTest)
#include "models_qualification_test.moc"
