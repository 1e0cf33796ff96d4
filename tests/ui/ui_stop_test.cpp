// Stop and window close never wait on the network: a run whose lane never answers (its probe
// would wait up to 15 s for a first byte) stops within a second, and closing the window during
// such a run returns at once and closes the window when the run has stopped.
#include <QApplication>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "replay_server.h"
#include "test_main.h"
#include "ui/main_window.h"
#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/run_controller.h"
#include "ui/workspace/workspace.h"

using namespace lb;
using namespace lb::ui;

namespace {

test::ResponseScript silent(const test::ServedRequest&) {
  test::ResponseScript s;
  s.never_answer = true;
  return s;
}

plan::Lane silent_lane(const test::ReplayServer& server) {
  plan::Lane lane;
  lane.id = "silent";
  lane.base_url = server.base_url();
  lane.model = "m";
  return lane;
}

}  // namespace

class UiStopTest : public QObject {
  Q_OBJECT

  // A window on a fresh workspace whose one lane points at `server`, with a regression run
  // started and its probe sent (the server has the request).
  bool start_silent_run(MainWindow& window, QTemporaryDir& dir, test::ReplayServer& server) {
    QString error;
    if (!window.open_workspace(dir.path(), &error)) return false;
    if (!window.workspace().set_lanes({silent_lane(server)}, &error)) return false;
    RunPage* run = window.run_page();
    run->reload_lanes();
    window.show();
    window.show_page(MainWindow::Run);
    run->experiment_form()->set_kind("regression");
    run->experiment_form()->use_quick_defaults();
    if (!run->start_run(&error)) {
      qWarning("%s", qPrintable(error));
      return false;
    }
    QElapsedTimer waited;
    waited.start();
    while (server.served().empty() && waited.elapsed() < 5000) QTest::qWait(20);
    if (server.served().empty()) qWarning("the run sent nothing within 5 s");
    if (!run->controller()->running()) qWarning("the run is not running");
    return !server.served().empty() && run->controller()->running();
  }

 private slots:
  void stopEndsARunWaitingOnASilentServerWithinASecond() {
    test::ReplayServer server(silent);
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(start_silent_run(window, dir, server));
    RunController* controller = window.run_page()->controller();
    QSignalSpy finished(controller, &RunController::finished);
    QElapsedTimer clock;
    clock.start();
    window.run_page()->stop_run();
    // stop_run() itself returns at once (a join would wait for the silent server's timeout).
    QVERIFY2(clock.elapsed() < 500, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(controller->stopping());
    QVERIFY(finished.wait(3000));
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!controller->running());
    QCOMPARE(controller->phase_text(), QString("Stopped"));
  }

  void closingDuringARunReturnsAtOnceAndClosesWhenStopped() {
    test::ReplayServer server(silent);
    QTemporaryDir dir;
    MainWindow window;
    QVERIFY(start_silent_run(window, dir, server));
    // Answer "Stop the run?" with Yes as soon as it shows.
    QTimer answer;
    answer.setInterval(20);
    connect(&answer, &QTimer::timeout, this, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        box->button(QMessageBox::Yes)->click();
    });
    answer.start();
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!window.close());  // not closed yet: the run is stopping
    answer.stop();
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(window.isVisible());
    QVERIFY(window.run_page()->controller()->stopping());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 3000);
    QVERIFY2(clock.elapsed() < 1500, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!window.run_page()->controller()->running());
  }
};

LANEBENCH_TEST_MAIN(UiStopTest)
#include "ui_stop_test.moc"
