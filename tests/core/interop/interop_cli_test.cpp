// `lanebench-cli import` and `export` end to end: exit codes, what they print, and the files
// they leave, including a file written with -o that `import` reads back.
#include <QProcess>
#include <QtTest>

#include "test_main.h"

#include "interop_test_support.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CliResult run_cli(const QStringList& args) {
  QProcess p;
  p.start(lb::test::cli_path(), args);
  if (!p.waitForFinished(60'000)) {
    p.kill();
    p.waitForFinished();
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

QString q(const fs::path& p) { return QString::fromStdString(p.string()); }
QString fixture(const char* name) {
  return QString::fromStdString(lb::test::interop_fixture(name));
}

}  // namespace

class TestInteropCli : public QObject {
  Q_OBJECT
 private slots:
  void importThenExportThenImportAgain() {
    const fs::path run = lb::test::fresh_dir("lb-cli-import");
    auto r =
        run_cli({"import", fixture("guidellm_benchmarks.json"), "--out", q(run), "--lane", "gl"});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    QVERIFY2(r.out.find("imported 6 requests from guidellm 0.4.0 as lane imported:gl") !=
                 std::string::npos,
             r.out.c_str());
    QVERIFY(r.out.find("phases: c1 c4") != std::string::npos);

    r = run_cli({"export", q(run), "--format", "vllm", "--lane", "imported:gl"});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    std::istringstream lines(r.out);
    std::string line;
    std::vector<json> objects;
    while (std::getline(lines, line)) objects.push_back(json::parse(line));
    QCOMPARE(objects.size(), size_t(2));
    QCOMPARE(objects[1]["max_concurrency"], 4);
    QVERIFY(std::abs(double(objects[1]["median_ttft_ms"]) - 220.0) < 1e-3);
    QCOMPARE(objects[1]["errors"].size(), size_t(4));

    const fs::path file = run.string() + "-export.json";
    r = run_cli({"export", q(run), "-o", q(file)});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    const fs::path again = lb::test::fresh_dir("lb-cli-import-again");
    r = run_cli({"import", q(file), "--format", "vllm", "--out", q(again)});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    QVERIFY(r.out.find("as lane imported:vllm") != std::string::npos);
    fs::remove_all(run);
    fs::remove_all(again);
    fs::remove(file);
  }

  void usageAndInputErrorsExitTwo() {
    const fs::path run = lb::test::fresh_dir("lb-cli-import-bad");
    const std::vector<std::pair<QStringList, std::string>> cases = {
        {{"import", fixture("vllm_detailed_c2.json")}, "exactly one of --out"},
        {{"import", fixture("vllm_detailed_c2.json"), "--format", "xml", "--out", q(run)},
         "--format must be vllm, guidellm or auto"},
        {{"import", fixture("vllm_detailed_c2.json"), "--out", q(run), "--into", q(run)},
         "excludes"},
        {{"import", "/nonexistent.json", "--out", q(run)}, "cannot read /nonexistent.json"},
        {{"export", "/nonexistent-run"}, "is not a run folder"},
        {{"export", q(run), "--format", "csv"}, "--format must be vllm or br0.2"},
        {{"export", q(run), "--format", "br0.2"}, "name a folder with -o DIR"},
    };
    for (const auto& [args, expected] : cases) {
      const auto r = run_cli(args);
      QCOMPARE(r.exit_code, 2);
      QVERIFY2(r.err.find(expected) != std::string::npos, (expected + " <- " + r.err).c_str());
    }
    QVERIFY(run_cli({"import", fixture("vllm_detailed_c2.json"), "--out", q(run)}).exit_code == 0);
    const auto r = run_cli({"export", q(run), "--lane", "nope"});
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.find("no lane nope (lanes: imported:vllm)") != std::string::npos, r.err.c_str());
    fs::remove_all(run);
  }

  // Benchmark Report v0.2: one file per phase in the folder -o names.
  void benchmarkReportsGoOneFilePerPhaseIntoAFolder() {
    const fs::path out = lb::test::fresh_dir("lb-cli-br");
    const QString run =
        QString::fromStdString(lb::test::fixtures_dir() + "/run_folders/throughput");
    const auto r = run_cli({"export", run, "--format", "br0.2", "-o", q(out)});
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    size_t files = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
      ++files;
      const json report = json::parse(lb::test::read_text(entry.path()));
      QCOMPARE(report["version"], "0.2");
      QVERIFY(entry.path().filename().string().ends_with(".json"));
    }
    QVERIFY(files >= 2);
    QVERIFY2(r.err.find("wrote " + std::to_string(files) + " Benchmark Report v0.2 file(s)") !=
                 std::string::npos,
             r.err.c_str());
    fs::remove_all(out);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestInteropCli)
#include "interop_cli_test.moc"
