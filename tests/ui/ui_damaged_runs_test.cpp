// Run folders from colleagues, older versions and other tools: the Runs page lists every one,
// says what is wrong with a damaged one (naming the file and the field), and never throws.
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "models/run_history_model.h"
#include "test_main.h"
#include "ui/workspace/run_folder_scanner.h"

using namespace lb;

namespace {

void write_text(const QString& path, const QByteArray& text) {
  QDir().mkpath(QFileInfo(path).path());
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
  file.write(text);
}

// A run folder holding the given files (name -> content) under runs/<name>.
QString make_run(const QTemporaryDir& tmp, const QString& name,
                 const std::vector<std::pair<QString, QByteArray>>& files) {
  const QString dir = tmp.filePath("runs/" + name);
  for (const auto& [file, text] : files) write_text(dir + "/" + file, text);
  return dir;
}

const models::RunFolderInfo* find(const std::vector<models::RunFolderInfo>& runs,
                                  const QString& name) {
  for (const auto& run : runs) {
    if (run.name == name) return &run;
  }
  return nullptr;
}

}  // namespace

class UiDamagedRunsTest : public QObject {
  Q_OBJECT
 private slots:
  void lane_id_of_the_wrong_type_is_a_problem_not_a_crash() {
    QTemporaryDir tmp;
    make_run(tmp, "numeric-lane", {{"plan.json", R"({"name": "x", "lanes": [{"id": 5}]})"}});
    const auto runs = ui::scan_runs(tmp.filePath("runs"));
    QCOMPARE(runs.size(), size_t{1});
    QCOMPARE(runs[0].problems, QStringList{"plan.json: lanes[0].id is not a string"});
    QCOMPARE(runs[0].plan_name, QString("x"));
  }

  // Issue 36, case 11: a FIFO plan.json in the workspace kept the window from ever appearing
  // (the scan runs before it shows). It is a problem of that run, found without waiting.
  void a_fifo_plan_in_the_workspace_does_not_block_the_scan() {
    QTemporaryDir tmp;
    const QString dir = make_run(tmp, "fifo", {{"requests.jsonl", "{}\n"}});
    QCOMPARE(::mkfifo(QFile::encodeName(dir + "/plan.json").constData(), 0600), 0);
    QCOMPARE(::mkfifo(QFile::encodeName(dir + "/summary.json").constData(), 0600), 0);
    const auto runs = ui::scan_runs(tmp.filePath("runs"));
    QCOMPARE(runs.size(), size_t{1});
    QVERIFY2(runs[0].problems.join("\n").contains("FIFO"), qPrintable(runs[0].problems.join("\n")));
  }

  void every_damaged_folder_is_listed_with_its_reason() {
    QTemporaryDir tmp;
    const QByteArray good_plan = R"({"name": "ok", "lanes": [{"id": "bf16"}],
                                     "experiments": [{"kind": "regression"}]})";
    make_run(tmp, "good",
             {{"plan.json", good_plan},
              {"requests.jsonl", "{}\n{}\n"},
              {"summary.json", R"({"run": {"finished_at": "2026-01-01"}})"}});
    make_run(tmp, "not-json", {{"plan.json", "{\"lanes\": ["}});
    make_run(tmp, "array-plan", {{"plan.json", "[1, 2]"}});
    make_run(tmp, "lanes-string", {{"plan.json", R"({"lanes": "bf16", "experiments": 3})"}});
    make_run(tmp, "kind-null", {{"plan.json", R"({"experiments": [{"kind": null}, "x"]})"}});
    make_run(tmp, "name-number", {{"plan.json", R"({"name": 12})"}});
    make_run(tmp, "bad-summary", {{"plan.json", good_plan}, {"summary.json", R"({"run": 1})"}});
    make_run(tmp, "bad-interrupted",
             {{"plan.json", good_plan},
              {"summary.json", R"({"run": {"finished_at": "t", "interrupted": "no"}})"}});
    make_run(tmp, "bad-decision",
             {{"plan.json", good_plan}, {"decision.json", R"({"decision": 7})"}});
    make_run(tmp, "only-requests", {{"requests.jsonl", "not json\n"}});

    const auto runs = ui::scan_runs(tmp.filePath("runs"));
    QCOMPARE(runs.size(), size_t{10});
    const std::map<QString, QStringList> expected{
        {"good", {}},
        {"not-json", {"plan.json: not valid JSON"}},
        {"array-plan", {"plan.json: not a JSON object"}},
        {"lanes-string",
         {"plan.json: lanes is not a list", "plan.json: experiments is not a list"}},
        {"kind-null",
         {"plan.json: experiments[0].kind is not a string",
          "plan.json: experiments[1].kind is not a string"}},
        {"name-number", {"plan.json: name is not a string"}},
        {"bad-summary", {"summary.json: run is not an object"}},
        {"bad-interrupted", {"summary.json: run.interrupted is not true or false"}},
        {"bad-decision", {"decision.json: decision is not a string"}},
        {"only-requests", {}},
    };
    for (const auto& [name, problems] : expected) {
      const auto* run = find(runs, name);
      QVERIFY2(run != nullptr, qPrintable(name));
      QVERIFY2(run->problems == problems, qPrintable(name + ": " + run->problems.join(" | ")));
    }
    const auto* good = find(runs, "good");
    QVERIFY(good->complete);
    QCOMPARE(good->lanes, QStringList{"bf16"});
    QCOMPARE(good->experiments, QStringList{"regression"});
    QCOMPARE(good->requests, qint64{2});
    QVERIFY(!find(runs, "bad-summary")->complete);

    // The Runs page's model says "damaged" with the first reason, and all of them in the tooltip.
    models::RunHistoryModel model;
    model.set_runs(runs);
    bool seen = false;
    for (int row = 0; row < model.rowCount(); ++row) {
      if (model.run_at(row)->name != "lanes-string") continue;
      const QModelIndex status = model.index(row, models::RunHistoryModel::Status);
      QCOMPARE(status.data().toString(), QString("damaged: plan.json: lanes is not a list"));
      QVERIFY(status.data(Qt::ToolTipRole).toString().contains("experiments is not a list"));
      seen = true;
    }
    QVERIFY(seen);
  }
};

LANEBENCH_TEST_MAIN(UiDamagedRunsTest)
#include "ui_damaged_runs_test.moc"
