// A workspace full of damaged run folders: every JSON file of a real run, in turn, with its
// numbers turned into strings, its strings into numbers, its lists into objects, or cut short.
// The workbench lists every run, opens each one, shows every page and exports its report, and
// never throws into Qt (which would end the program).
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_main.h"
#include "ui/history/run_folder_job.h"
#include "ui/main_window.h"
#include "ui/pages/runs_page.h"
#include "ui/report/report_export_job.h"
#include "ui/workspace/workspace.h"
#include "ui_run_fixture.h"

using namespace lb;
using nlohmann::json;

namespace {

enum class Damage { numbers_as_strings, strings_as_numbers, lists_as_objects, cut_short };

json damaged(const json& value, Damage damage) {
  if (value.is_object()) {
    json out = json::object();
    for (const auto& [key, item] : value.items()) out[key] = damaged(item, damage);
    return out;
  }
  if (value.is_array()) {
    if (damage == Damage::lists_as_objects) {
      json out = json::object();
      for (size_t i = 0; i < value.size(); ++i) out[std::to_string(i)] = value[i];
      return out;
    }
    json out = json::array();
    for (const auto& item : value) out.push_back(damaged(item, damage));
    return out;
  }
  if (damage == Damage::numbers_as_strings && value.is_number()) return value.dump();
  if (damage == Damage::strings_as_numbers && value.is_string()) return 5;
  return value;
}

QByteArray damaged_file(const QByteArray& text, bool json_lines, Damage damage) {
  if (damage == Damage::cut_short) return text.left(text.size() / 2);
  QByteArray out;
  const QList<QByteArray> docs = json_lines ? text.split('\n') : QList<QByteArray>{text};
  for (const QByteArray& doc : docs) {
    const json parsed = json::parse(doc.toStdString(), nullptr, false);
    if (parsed.is_discarded()) continue;
    out += QByteArray::fromStdString(damaged(parsed, damage).dump());
    if (json_lines) out += '\n';
  }
  return out;
}

void copy_folder(const QString& from, const QString& to) {
  std::filesystem::copy(from.toStdString(), to.toStdString(),
                        std::filesystem::copy_options::recursive);
}

}  // namespace

class UiDamagedWorkspaceTest : public QObject {
  Q_OBJECT
  QTemporaryDir workspace_;
  QStringList damaged_runs_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QString error;
    QVERIFY2(ui::Workspace::create_demo(workspace_.path(), &error), qPrintable(error));
    const QString runs = QDir(workspace_.path()).filePath("runs");
    const QString good = runs + "/20260101-000000-good";
    test::run_small_plan(good);
    // One damaged copy per JSON file of the run and kind of damage.
    QDirIterator files(good, {"*.json", "*.jsonl"}, QDir::Files, QDirIterator::Subdirectories);
    QStringList names;
    while (files.hasNext()) names << QDir(good).relativeFilePath(files.next());
    QVERIFY(names.contains("plan.json") && names.contains("summary.json") &&
            names.contains("requests.jsonl"));
    const std::vector<std::pair<Damage, QString>> damages{
        {Damage::numbers_as_strings, "numbers-as-strings"},
        {Damage::strings_as_numbers, "strings-as-numbers"},
        {Damage::lists_as_objects, "lists-as-objects"},
        {Damage::cut_short, "cut-short"}};
    for (const QString& name : names) {
      for (const auto& [damage, label] : damages) {
        const QString copy =
            QString("%1/20250101-%2-%3").arg(runs, QString(name).replace('/', '_'), label);
        copy_folder(good, copy);
        QFile file(QDir(copy).filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        file.close();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(damaged_file(text, name.endsWith(".jsonl"), damage));
        damaged_runs_ << copy;
      }
    }
  }

  void every_run_opens_on_every_page_and_exports() {
    ui::MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(workspace_.path(), &error), qPrintable(error));
    window.show();
    window.show_page(ui::MainWindow::Runs);
    window.runs_page()->refresh();
    // status() comes once a run is loaded, or could not be: "Opened …" or "Cannot open …".
    QSignalSpy loaded(window.runs_page(), &ui::RunsPage::status);
    for (const QString& dir : damaged_runs_) {
      window.runs_page()->open_run(dir);
      QVERIFY2(loaded.wait(10'000) || !loaded.isEmpty(), qPrintable(dir));
      loaded.clear();
      for (auto page : {ui::MainWindow::Run, ui::MainWindow::Review, ui::MainWindow::Decision,
                        ui::MainWindow::Runs, ui::MainWindow::Verify, ui::MainWindow::Lanes}) {
        window.show_page(page);
        QTest::qWait(1);
      }
      const auto result = ui::export_report(dir, dir + "/report", {"html", "md", "pdf", "csv"});
      QVERIFY2(!result.written.isEmpty() || !result.errors.isEmpty(), qPrintable(dir));
    }
  }
};

LANEBENCH_TEST_MAIN(UiDamagedWorkspaceTest)
#include "ui_damaged_workspace_test.moc"
