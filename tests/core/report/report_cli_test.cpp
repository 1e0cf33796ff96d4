// `lanebench-cli report` end to end: a sim run reported in every format with no display, a run
// killed mid-way (summary.json gone, last request line torn) still reported and marked
// incomplete, and clear exit-2 errors for a missing run folder or an unknown format. A checkpoint
// verification attached to the run (verify --attach) reaches the gates, the Artifacts table and
// qualification-summary.json.
#include <QCryptographicHash>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include "test_main.h"

#include "run_folder_reader.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using lb::test::read_text;

namespace {

struct Result {
  int exit_code = -1;
  QString out, err;
};

// No display, no platform setting and no runtime dir (as for root under cron or CI): the CLI must
// pick the offscreen platform itself and print no Qt warning about either.
Result cli(const QStringList& args) {
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.remove("QT_QPA_PLATFORM");
  env.remove("XDG_RUNTIME_DIR");
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  p.setProcessEnvironment(env);
  p.start(lb::test::cli_path(), args);
  Result r;
  if (!p.waitForFinished(120000)) return r;
  r.exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

const char* kPlan = R"({"name": "cli report",
  "lanes": [{"id": "bf16", "base_url": "sim:bf16?time_scale=0.01"},
            {"id": "fp8", "base_url": "sim:fp8?time_scale=0.01"}],
  "experiments": [
    {"kind": "throughput", "concurrency": [1, 2], "requests": 3, "input_tokens": 256,
     "output_tokens": 16},
    {"kind": "gates", "checks": ["json", "streaming"], "repeat": 1}]})";

std::string sha256_hex(const std::string& bytes) {
  return QCryptographicHash::hash(QByteArray::fromStdString(bytes), QCryptographicHash::Sha256)
      .toHex()
      .toStdString();
}

}  // namespace

class TestReportCli : public QObject {
  Q_OBJECT
  fs::path dir_;

 private slots:
  void initTestCase() {
    dir_ = lb::test::fresh_dir("lb-report-cli");
    fs::create_directories(dir_);
    std::ofstream(dir_ / "plan.json") << kPlan;
    const auto run = cli({"run", QString::fromStdString((dir_ / "plan.json").string()), "--out",
                          QString::fromStdString((dir_ / "run").string())});
    QVERIFY2(run.exit_code == 0, qPrintable(run.err));
    // The end-of-run table gives medians with their intervals, then one verdict per comparison.
    QVERIFY2(
        run.out.contains(QRegularExpression(R"(bf16\s+c1\s+3\s+0\s+[0-9.]+ \[[0-9.]+, [0-9.]+\])")),
        qPrintable(run.out));
    QVERIFY2(run.out.contains(QRegularExpression(
                 R"(\nthroughput: fp8/bf16 c1 decode p50 [0-9.]+ \[[0-9.]+, [0-9.]+\]: )")),
             qPrintable(run.out));
    QVERIFY(!run.out.contains("gates: "));  // gates are not compared for speed
  }
  void cleanupTestCase() { fs::remove_all(dir_); }

  void reportsEveryFormatHeadless() {
    const auto r = cli({"report", QString::fromStdString((dir_ / "run").string())});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));  // nothing but LaneBench's own messages
    const fs::path out = dir_ / "run" / "report";
    for (const char* f :
         {"report.html", "report.md", "report.pdf", "requests.csv", "qualification-summary.json",
          "charts/output_vs_concurrency.svg", "charts/output_vs_concurrency.png"})
      QVERIFY2(fs::file_size(out / f) > 0, f);
    QVERIFY(read_text(out / "charts/output_vs_concurrency.png").rfind("\x89PNG\r\n", 0) == 0);
    QVERIFY(read_text(out / "report.pdf").rfind("%PDF-", 0) == 0);
    QVERIFY(r.out.contains("report.html"));
    QVERIFY(!r.out.contains("incomplete"));
    const auto only = cli({"report", QString::fromStdString((dir_ / "run").string()), "--format",
                           "json", "--out", QString::fromStdString((dir_ / "only").string())});
    QCOMPARE(only.exit_code, 0);
    QVERIFY(fs::exists(dir_ / "only" / "qualification-summary.json"));
    QVERIFY(!fs::exists(dir_ / "only" / "report.html"));
    QVERIFY(!fs::exists(dir_ / "only" / "charts"));
    const auto pngs = cli({"report", QString::fromStdString((dir_ / "run").string()), "--format",
                           "png", "--out", QString::fromStdString((dir_ / "pngs").string())});
    QVERIFY2(pngs.exit_code == 0 && pngs.err.isEmpty(), qPrintable(pngs.err));
    QVERIFY(fs::exists(dir_ / "pngs" / "charts" / "output_vs_concurrency.png"));
    QVERIFY(!fs::exists(dir_ / "pngs" / "charts" / "output_vs_concurrency.svg"));
    QVERIFY(!fs::exists(dir_ / "pngs" / "report.pdf"));
  }

  void killedRunIsReportedIncomplete() {
    const fs::path torn = dir_ / "torn";
    fs::copy(dir_ / "run", torn, fs::copy_options::recursive);
    fs::remove_all(torn / "report");
    fs::remove(torn / "summary.json");
    fs::resize_file(torn / "requests.jsonl", fs::file_size(torn / "requests.jsonl") - 25);
    const auto r = cli({"report", QString::fromStdString(torn.string())});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("incomplete"));
    QVERIFY(r.err.contains("requests.jsonl line"));
    const std::string html = read_text(torn / "report" / "report.html");
    QVERIFY(html.find("Incomplete run") != std::string::npos);
    QVERIFY(html.find("cut short") != std::string::npos);
    // Without summary.json the request lines still give the latency distribution.
    QVERIFY(html.find("Inter-token latency distribution") != std::string::npos);
    const auto summary = lb::test::read_json(torn / "report" / "qualification-summary.json");
    QCOMPARE(summary["complete"], false);
    QCOMPARE(summary["requests"]["torn_lines"], 1);
  }

  void badInputExitsTwoWithAMessage() {
    const auto missing = cli({"report", QString::fromStdString((dir_ / "nope").string())});
    QCOMPARE(missing.exit_code, 2);
    QVERIFY2(missing.err.contains("not a run folder"), qPrintable(missing.err));
    const auto format =
        cli({"report", QString::fromStdString((dir_ / "run").string()), "--format", "html,docx"});
    QCOMPARE(format.exit_code, 2);
    QVERIFY2(format.err.contains("unknown report format 'docx'"), qPrintable(format.err));
  }

  void attachedVerificationReachesTheReport() {
    // A two-file checkpoint and its pinned hashes; a copy with one file changed.
    const fs::path good = dir_ / "ckpt", bad = dir_ / "ckpt-bad";
    fs::create_directories(good);
    std::ofstream(good / "config.json") << R"({"model_type": "qwen3"})";
    std::ofstream(good / "tokenizer.model") << std::string(5000, 't');
    std::vector<std::string> lines;
    std::ofstream inventory(dir_ / "ckpt.sums");
    for (const char* name : {"config.json", "tokenizer.model"}) {
      const std::string hash = sha256_hex(read_text(good / name));
      inventory << hash << "  " << name << "\n";
      lines.push_back(std::string(name) + "  " + hash);
    }
    inventory.close();
    fs::copy(good, bad);
    std::ofstream(bad / "config.json", std::ios::app) << " ";
    const QString run = QString::fromStdString((dir_ / "run").string());
    const QString sums = QString::fromStdString((dir_ / "ckpt.sums").string());
    auto verify = [&](const fs::path& ckpt, const QString& attach) {
      return cli({"verify", QString::fromStdString(ckpt.string()), "--inventory", sums, "--attach",
                  attach});
    };
    const auto pass = verify(good, run + ":bf16");
    QVERIFY2(pass.exit_code == 0, qPrintable(pass.err));
    QVERIFY2(pass.err.contains("attached as"), qPrintable(pass.err));
    QCOMPARE(verify(bad, run + ":fp8").exit_code, 1);  // a failed check is attached too
    // Bad targets are refused before anything is hashed or written.
    const auto no_lane = verify(good, run + ":int4");
    QCOMPARE(no_lane.exit_code, 2);
    QVERIFY2(no_lane.err.contains("no lane 'int4' (its lanes: bf16, fp8)"),
             qPrintable(no_lane.err));
    QVERIFY(!fs::exists(dir_ / "run" / "artifacts" / "int4.verification.json"));
    const auto no_run = verify(good, QString::fromStdString((dir_ / "ckpt").string()) + ":bf16");
    QCOMPARE(no_run.exit_code, 2);
    QVERIFY2(no_run.err.contains("is not a run folder"), qPrintable(no_run.err));
    // A stray file in artifacts/ is named in a warning, not taken for a verification.
    std::ofstream(dir_ / "run" / "artifacts" / "ghost.verification.json") << R"({"hello": 1})";

    const auto r = cli({"report", run, "--format", "md,json", "--out",
                        QString::fromStdString((dir_ / "with-artifacts").string())});
    QVERIFY2(r.exit_code == 0, qPrintable(r.err));
    const std::string md = read_text(dir_ / "with-artifacts" / "report.md");
    QVERIFY(md.find("| Artifacts verified (identity, refuse list, headers) | verification | pass "
                    "2/2 | fail 1/2 |") != std::string::npos);
    QVERIFY(md.find("## Artifacts") != std::string::npos);
    QVERIFY2(r.err.contains("warning: artifacts/ghost.verification.json: not a verification "
                            "document (no totals, passed or files); ignored"),
             qPrintable(r.err));
    const auto summary =
        lb::test::read_json(dir_ / "with-artifacts" / "qualification-summary.json");
    const auto& a = summary["artifacts"];
    QCOMPARE(a["bf16"]["passed"], true);
    QCOMPARE(a["bf16"]["files_ok"], 2);
    QCOMPARE(a["fp8"]["passed"], false);
    QCOMPARE(a["fp8"]["files_failed"], 1);
    QVERIFY(!a.contains("ghost"));
    // The manifest digest: SHA-256 over the sorted "path  sha256" lines of the hashed files.
    std::sort(lines.begin(), lines.end());
    std::string manifest;
    for (const auto& line : lines) manifest += line + "\n";
    QCOMPARE(a["bf16"]["manifest_sha256"].get<std::string>(), sha256_hex(manifest));
    QVERIFY(a["fp8"]["manifest_sha256"] != a["bf16"]["manifest_sha256"]);
    QVERIFY(md.find(sha256_hex(manifest).substr(0, 16)) != std::string::npos);
    QVERIFY(summary.dump().find(dir_.string()) == std::string::npos);  // no paths
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportCli)
#include "report_cli_test.moc"
