// The Run page's server states, offscreen, from a real run: a plan's managed lanes start the
// real lanebench-sim as a child process (one good, one with an unknown profile that exits with
// its complaint in its log) and a command that does not exist. The Servers tab must show the
// good server starting with its ready wait, ready on the port and pid summary.json records, and
// stopped with exit code 0; the broken ones failed, with the reason and the log's last lines in
// selectable text.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "json_file.h"
#include "test_main.h"
#include "test_paths.h"
#include "tests/ui/plan_file_wait.h"
#include "ui/main_window.h"
#include "ui/pages/run_page.h"
#include "ui/run/server_state_view.h"

using namespace lb::ui;

namespace server_state_test {

using lb::test::read_json;

nlohmann::json sim_launch(const std::string& profile) {
  return {
      {"command",
       {lb::test::sim_path(), "--profile", profile, "--port", "{port}", "--time-scale", "0.05"}},
      {"ready", {{"url", "http://127.0.0.1:{port}/health"}, {"timeout_s", 20}}},
      {"stop", {{"signal", "SIGTERM"}, {"grace_s", 3}}}};
}

nlohmann::json managed(const std::string& id, nlohmann::json launch) {
  return {{"id", id}, {"base_url", "http://127.0.0.1:{port}/v1"}, {"launch", std::move(launch)}};
}

// Clicks BUTTON on every message box that shows up (the launch confirmation, the warning at the
// end), keeping the first one's informative text.
void answer_boxes(QTimer& poll, QMessageBox::StandardButton button) {
  QObject::connect(&poll, &QTimer::timeout, [button] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
        QAbstractButton* b = box->button(button);
        (b ? b : box->buttons().value(0))->click();
      }
  });
  poll.start(20);
}

}  // namespace server_state_test
namespace sst = server_state_test;

class UiServerStateTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    QVERIFY2(QFile::exists(QString::fromStdString(lb::test::sim_path())), lb::test::sim_path());
  }

  void statesFollowTheRealServers() {
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir_.filePath("ws"), &error), qPrintable(error));
    nlohmann::json load = {{"kind", "throughput"}, {"concurrency", {2}},  {"requests", 24},
                           {"warmups", 0},         {"input_tokens", 256}, {"output_tokens", 64}};
    const nlohmann::json plan = {
        {"name", "servers"},
        {"lanes",
         {sst::managed("broken",
                       {{"command", {"/nonexistent/lanebench-server", "--port", "{port}"}},
                        {"ready", {{"url", "http://127.0.0.1:{port}/health"}}}}),
          sst::managed("early-exit", sst::sim_launch("no-such-profile")),
          sst::managed("good", sst::sim_launch("fp8"))}},
        {"experiments", {load}}};
    const QString path = dir_.filePath("servers.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(plan.dump()));
    file.close();

    RunPage* run = window.run_page();
    ServerStateView* view = run->servers_view();
    QStringList seen;  // every headline of "good" the page showed, in order
    connect(run->controller(), &RunController::servers_changed, this, [&] {
      const QString now = view->headline_of("good");
      if (!now.isEmpty() && (seen.isEmpty() || seen.last() != now)) seen << now;
    });
    QSignalSpy finished(run, &RunPage::run_finished);
    QTimer yes;
    sst::answer_boxes(yes, QMessageBox::Yes);
    QVERIFY2(lb::test::start_plan_file(run, path, &error), qPrintable(error));
    QVERIFY(finished.wait(120'000));
    yes.stop();

    const nlohmann::json summary =
        sst::read_json(QDir(finished.at(0).at(0).toString()).filePath("summary.json"));
    const nlohmann::json& good = summary["servers"]["good"];
    QVERIFY2(good.is_object(), summary.dump().c_str());
    const QString ready = QString("good: ready on port %1 (pid %2), after ")
                              .arg(good["port"].get<int>())
                              .arg(good["pid"].get<int>());
    auto index_of = [&](const QString& start) {
      for (int i = 0; i < seen.size(); ++i)
        if (seen[i].startsWith(start)) return i;
      return -1;
    };
    const QString all = seen.join("\n");
    const int starting = index_of("good: starting, waiting for it to be ready (");
    const int ready_at = index_of(ready);
    QVERIFY2(starting >= 0, qPrintable(all));
    QVERIFY2(seen[starting].endsWith(" of 20 s)"), qPrintable(all));
    QVERIFY2(ready_at > starting, qPrintable(all));
    QCOMPARE(seen.last(), QString("good: stopped (exit code 0)"));
    QCOMPARE(view->headline_of("good"), QString("good: stopped (exit code 0)"));
    QCOMPARE(view->failure_text_of("good"), QString());

    QCOMPARE(view->headline_of("broken"), QString("broken: failed"));
    const QString broken = view->failure_text_of("broken");
    QVERIFY2(broken.contains("lane broken: server could not start: cannot start "
                             "/nonexistent/lanebench-server: No such file or directory"),
             qPrintable(broken));
    QCOMPARE(view->headline_of("early-exit"), QString("early-exit: failed (exit code 2)"));
    const QString early = view->failure_text_of("early-exit");
    QVERIFY2(early.contains("--- last lines of servers/early-exit.log ---"), qPrintable(early));
    QVERIFY2(early.contains("unknown simulator profile"), qPrintable(early));
    // The failure text can be selected and copied, not edited.
    for (auto* text : view->findChildren<QPlainTextEdit*>()) {
      QVERIFY(text->isReadOnly());
      QVERIFY(text->textInteractionFlags() & Qt::TextSelectableByMouse);
    }
    // The tab came to the front when the first server started.
    auto* tabs = qobject_cast<QTabWidget*>(view->parentWidget()->parentWidget());
    QVERIFY(tabs);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(view));
  }

 private:
  QTemporaryDir dir_;
};

LANEBENCH_TEST_MAIN(UiServerStateTest)
#include "ui_server_state_test.moc"
