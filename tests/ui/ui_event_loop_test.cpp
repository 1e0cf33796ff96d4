// The window keeps turning while the Runs page scans a workspace of 200 run folders (each
// requests.jsonl counted line by line): a 5 ms timer keeps firing through the scan. Asserted
// against the scan's own length, not a wall-clock bound: a scan on the GUI thread would leave
// one gap as long as the whole scan.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>

#include "test_main.h"
#include "ui/main_window.h"
#include "ui/pages/runs_page.h"
#include "ui/workspace/workspace.h"

using namespace lb;

namespace {

constexpr int kRuns = 200;
constexpr int kLinesPerRun = 4000;

void write_run(const QString& dir, int index) {
  QDir().mkpath(dir);
  QFile plan(dir + "/plan.json");
  QVERIFY(plan.open(QIODevice::WriteOnly));
  plan.write(QString("{\"name\": \"run-%1\", \"lanes\": [{\"id\": \"bf16\"}], "
                     "\"experiments\": [{\"kind\": \"throughput\"}]}")
                 .arg(index)
                 .toUtf8());
  QFile requests(dir + "/requests.jsonl");
  QVERIFY(requests.open(QIODevice::WriteOnly));
  QByteArray lines;
  const QByteArray line =
      R"({"lane": "bf16", "experiment": "throughput", "phase": "c8", "ok": true, "ttft_ms": 41.5, "e2el_ms": 812.0})"
      "\n";
  for (int i = 0; i < kLinesPerRun; ++i) lines += line;
  requests.write(lines);
}

}  // namespace

class UiEventLoopTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void windowKeepsTurningWhileRunsAreScanned() {
    QTemporaryDir dir;
    ui::MainWindow window;
    ui::RunsPage* runs = window.runs_page();
    QSignalSpy first(runs, &ui::RunsPage::refreshed);
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    QVERIFY(!first.isEmpty() || first.wait(10'000));  // the empty workspace's first scan
    const QString runs_dir = window.workspace().runs_dir();
    for (int i = 0; i < kRuns; ++i)
      write_run(runs_dir + QString("/run-%1").arg(i, 3, 10, QChar('0')), i);

    QElapsedTimer clock;
    qint64 last_tick_ms = 0, longest_gap_ms = 0;
    int ticks = 0;
    QTimer timer;
    timer.setInterval(5);
    connect(&timer, &QTimer::timeout, this, [&] {
      const qint64 now = clock.elapsed();
      longest_gap_ms = std::max(longest_gap_ms, now - last_tick_ms);
      last_tick_ms = now;
      ++ticks;
    });
    QSignalSpy refreshed(runs, &ui::RunsPage::refreshed);
    clock.start();
    timer.start();
    runs->refresh();
    const qint64 returned_ms = clock.elapsed();
    QVERIFY(!refreshed.isEmpty() || refreshed.wait(60'000));
    const qint64 scan_ms = clock.elapsed();
    timer.stop();
    qInfo(
        "scan of %d runs: %lld ms; refresh() returned after %lld ms; %d ticks, longest gap "
        "%lld ms",
        kRuns, scan_ms, returned_ms, ticks, longest_gap_ms);
    QCOMPARE(runs->model()->rowCount(), kRuns);
    QCOMPARE(runs->model()->run_at(0)->requests, qint64{kLinesPerRun});
    // The scan took long enough to tell: on the GUI thread it would be one gap.
    QVERIFY2(scan_ms >= 20, qPrintable(QString("scan took %1 ms").arg(scan_ms)));
    QVERIFY2(returned_ms * 2 < scan_ms, "refresh() waited for the scan");
    QVERIFY2(ticks >= 2, qPrintable(QString("%1 ticks").arg(ticks)));
    QVERIFY2(longest_gap_ms * 2 < scan_ms,
             qPrintable(QString("a %1 ms gap in a %2 ms scan").arg(longest_gap_ms).arg(scan_ms)));
  }
};

LANEBENCH_TEST_MAIN(UiEventLoopTest)
#include "ui_event_loop_test.moc"
