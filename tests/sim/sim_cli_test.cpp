// lanebench-sim as a program: --demo prints one "NAME URL" line per lane, the lanes answer,
// --trace writes ground truth, bad options exit 2 naming the option, SIGTERM exits 0.
#include <QtTest>

#include "test_main.h"

#include <QProcess>
#include <csignal>
#include <fstream>

#include "sim_http_client.h"
#include "test_paths.h"

using namespace lb::sim::test;

namespace {

uint16_t port_of(const QString& url) {  // http://127.0.0.1:PORT/v1
  const QString rest = url.section(':', 2);
  return static_cast<uint16_t>(rest.section('/', 0, 0).toUInt());
}

}  // namespace

class SimCliTest : public QObject {
  Q_OBJECT
 private slots:
  void demo_starts_four_lanes_and_stops_on_sigterm() {
    QProcess sim;
    const QString trace = QDir::temp().filePath("lanebench_sim_cli_trace.jsonl");
    QFile::remove(trace);
    sim.start(lb::test::sim_path(), {"--demo", "--time-scale", "0.01", "--trace", trace});
    QVERIFY(sim.waitForStarted());
    QStringList lines;
    while (lines.size() < 4 && sim.waitForReadyRead(5000)) {
      while (sim.canReadLine()) lines << QString::fromUtf8(sim.readLine()).trimmed();
    }
    QCOMPARE(lines.size(), 4);
    const QStringList names = {"bf16", "fp8", "fp8-mtp3", "fp8-nocache"};
    for (int i = 0; i < 4; ++i) {
      QCOMPARE(lines[i].section(' ', 0, 0), names[i]);
      const uint16_t port = port_of(lines[i].section(' ', 1, 1));
      QVERIFY(port > 0);
      QCOMPARE(http_request(port, "GET", "/health").status, 200);
    }
    const auto r = http_request(port_of(lines[0].section(' ', 1, 1)), "POST", "/v1/completions",
                                R"({"prompt":"hi","max_tokens":3,"stream":true})",
                                {{"x-request-id", "cli-1"}});
    QCOMPARE(r.status, 200);
    ::kill(static_cast<pid_t>(sim.processId()), SIGTERM);
    QVERIFY(sim.waitForFinished(5000));
    QCOMPARE(sim.exitStatus(), QProcess::NormalExit);
    QCOMPARE(sim.exitCode(), 0);
    std::ifstream in(trace.toStdString());
    int lines_for_request = 0;
    for (std::string line; std::getline(in, line);) {
      if (line.find("\"request_id\":\"cli-1\"") != std::string::npos) ++lines_for_request;
    }
    QVERIFY(lines_for_request >= 4);  // 3 one-token events and [DONE]
  }

  void bad_options_exit_2_naming_them() {
    QProcess sim;
    sim.start(lb::test::sim_path(), {"--profile", "fp16"});
    QVERIFY(sim.waitForFinished(5000));
    QCOMPARE(sim.exitCode(), 2);
    QVERIFY(sim.readAllStandardError().contains("unknown simulator profile \"fp16\""));
    QProcess bad_set;
    bad_set.start(lb::test::sim_path(), {"--set", "warp=9"});
    QVERIFY(bad_set.waitForFinished(5000));
    QCOMPARE(bad_set.exitCode(), 2);
    QVERIFY(bad_set.readAllStandardError().contains("unknown option \"warp\""));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimCliTest)
#include "sim_cli_test.moc"
