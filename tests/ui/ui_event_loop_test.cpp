// The window keeps turning while the Runs page scans a workspace of 200 run folders (each
// requests.jsonl counted line by line), and while the Run page checks a plan whose trace file
// is 100 MB: a 5 ms timer keeps firing through each. Asserted against the work's own length,
// not a wall-clock bound: work on the GUI thread would leave one gap as long as all of it.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <algorithm>

#include "test_main.h"
#include "ui/main_window.h"
#include "ui/pages/run_page.h"
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

// A Mooncake trace of about BYTES whose last row goes back in time: checking it reads every row
// and ends in an error naming that row's line. Returns the last line's number.
qint64 write_trace_with_a_bad_last_row(const QString& path, qint64 bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  QByteArray block;
  qint64 line = 0, written = 0;
  while (written < bytes) {
    block.clear();
    for (int i = 0; i < 10'000; ++i, ++line)
      block += QString(
                   "{\"timestamp\": %1, \"input_length\": 812, \"output_length\": 11, "
                   "\"hash_ids\": [%2, %3]}\n")
                   .arg(line * 10)
                   .arg(line % 97)
                   .arg(line % 89 + 100)
                   .toUtf8();
    written += file.write(block);
  }
  file.write(
      "{\"timestamp\": 0, \"input_length\": 812, \"output_length\": 11, \"hash_ids\": [1]}\n");
  return line + 1;
}

// Counts a 5 ms timer's ticks and the longest gap between them.
struct TickCounter {
  QElapsedTimer clock;
  qint64 last_tick_ms = 0, longest_gap_ms = 0;
  int ticks = 0;
  QTimer timer;
  TickCounter() {
    timer.setInterval(5);
    QObject::connect(&timer, &QTimer::timeout, [this] {
      const qint64 now = clock.elapsed();
      longest_gap_ms = std::max(longest_gap_ms, now - last_tick_ms);
      last_tick_ms = now;
      ++ticks;
    });
    clock.start();
    timer.start();
  }
};

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

    QSignalSpy refreshed(runs, &ui::RunsPage::refreshed);
    TickCounter ticks;
    runs->refresh();
    const qint64 returned_ms = ticks.clock.elapsed();
    QVERIFY(!refreshed.isEmpty() || refreshed.wait(60'000));
    const qint64 scan_ms = ticks.clock.elapsed();
    ticks.timer.stop();
    qInfo(
        "scan of %d runs: %lld ms; refresh() returned after %lld ms; %d ticks, longest gap "
        "%lld ms",
        kRuns, scan_ms, returned_ms, ticks.ticks, ticks.longest_gap_ms);
    QCOMPARE(runs->model()->rowCount(), kRuns);
    QCOMPARE(runs->model()->run_at(0)->requests, qint64{kLinesPerRun});
    // The scan took long enough to tell: on the GUI thread it would be one gap.
    QVERIFY2(scan_ms >= 20, qPrintable(QString("scan took %1 ms").arg(scan_ms)));
    QVERIFY2(returned_ms * 2 < scan_ms, "refresh() waited for the scan");
    QVERIFY2(ticks.ticks >= 2, qPrintable(QString("%1 ticks").arg(ticks.ticks)));
    QVERIFY2(
        ticks.longest_gap_ms * 2 < scan_ms,
        qPrintable(QString("a %1 ms gap in a %2 ms scan").arg(ticks.longest_gap_ms).arg(scan_ms)));
  }

  void windowKeepsTurningWhileAPlanFileIsChecked() {
    QTemporaryDir dir;
    const QString trace = dir.filePath("big.jsonl");
    const qint64 last_line = write_trace_with_a_bad_last_row(trace, 100'000'000);
    QVERIFY(QFileInfo(trace).size() >= 100'000'000);
    const QString plan = dir.filePath("plan.json");
    QFile file(plan);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"name": "big trace", "lanes": [{"id": "fp8", "base_url": "sim:fp8"}], )"
               R"("experiments": [{"kind": "trace", "path": "big.jsonl"}]})");
    file.close();

    ui::MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.filePath("ws"), &error), qPrintable(error));
    ui::RunPage* run = window.run_page();
    QSignalSpy done(run, &ui::RunPage::start_answered);
    TickCounter ticks;
    auto* start = run->findChild<QPushButton*>("startRun");
    QVERIFY(start != nullptr && start->isEnabled());
    run->open_plan_file(plan);
    const qint64 returned_ms = ticks.clock.elapsed();
    // While the plan is checked the Start button says another start cannot be taken now.
    const bool disabled_while_checking = !start->isEnabled() || !done.isEmpty();
    QVERIFY(!done.isEmpty() || done.wait(300'000));
    QVERIFY(disabled_while_checking);
    QVERIFY(start->isEnabled());
    const qint64 check_ms = ticks.clock.elapsed();
    ticks.timer.stop();
    error = done.first().at(1).toString();
    qInfo(
        "check of a %lld-byte trace: %lld ms; open_plan_file() returned after %lld ms; %d "
        "ticks, longest gap %lld ms",
        QFileInfo(trace).size(), check_ms, returned_ms, ticks.ticks, ticks.longest_gap_ms);
    // Every row was read: the error names the last line.
    QVERIFY(!done.first().at(0).toBool());
    QVERIFY2(error.contains(QString("big.jsonl:%1: timestamp goes backwards").arg(last_line)),
             qPrintable(error));
    QVERIFY(!run->controller()->running());
    QVERIFY2(check_ms >= 20, qPrintable(QString("the check took %1 ms").arg(check_ms)));
    QVERIFY2(returned_ms * 2 < check_ms, "open_plan_file() waited for the check");
    QVERIFY2(ticks.ticks >= 2, qPrintable(QString("%1 ticks").arg(ticks.ticks)));
    QVERIFY2(ticks.longest_gap_ms * 2 < check_ms,
             qPrintable(
                 QString("a %1 ms gap in a %2 ms check").arg(ticks.longest_gap_ms).arg(check_ms)));
  }
};

LANEBENCH_TEST_MAIN(UiEventLoopTest)
#include "ui_event_loop_test.moc"
