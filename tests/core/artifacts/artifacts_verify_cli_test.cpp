// `lanebench-cli verify` as a user runs it: the built binary on a fixture folder, checking the
// table, the JSON report and the exit codes (0 pass, 1 check failed, 2 input error).
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "checkpoint_fixture.h"
#include "core/artifacts/sha256.h"
#include "test_paths.h"

using namespace lb::artifacts;
namespace fs = std::filesystem;

namespace {

struct CliResult {
  int exit_code = -1;
  QString out;
  QString err;
};

CliResult run_cli(const QStringList& args) {
  QProcess p;
  p.start(QString(lb::test::cli_path()), QStringList{"verify"} + args);
  if (!p.waitForFinished(30000)) return {};
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class VerifyCliTest : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  fs::path dir() const { return tmp_.path().toStdString(); }
  QString q(const fs::path& p) const { return QString::fromStdString(p.string()); }

  void make_checkpoint() {
    fs::remove_all(dir() / "model");
    const std::string shard = testing::safetensors_bytes({{"w", "BF16", {8, 8}, 16}});
    const std::string config = R"({"model_type":"qwen3"})";
    testing::write_file(dir() / "model" / "model.safetensors", shard);
    testing::write_file(dir() / "model" / "config.json", config);
    testing::write_file(dir() / "inv.sums", sha256_hex(shard) + "  model.safetensors\n" +
                                                sha256_hex(config) + "  config.json\n");
  }

 private slots:
  void passing_folder_exits_zero() {
    make_checkpoint();
    const auto r = run_cli({q(dir() / "model"), "--inventory", q(dir() / "inv.sums")});
    QVERIFY2(r.exit_code == 0, qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(
        QRegularExpression("^ok\\s+model.safetensors", QRegularExpression::MultilineOption)));
    QVERIFY(r.out.contains("result: PASS"));
  }

  void mismatch_and_refusal_exit_one() {
    make_checkpoint();
    testing::write_file(dir() / "model" / "config.json", R"({"auto_map":{"AutoModel":"x.M"}})");
    const auto r = run_cli({q(dir() / "model"), "--inventory", q(dir() / "inv.sums")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.out.contains(
                 QRegularExpression("^mismatch\\s+config.json\\s+expected [0-9a-f]{64}, actual",
                                    QRegularExpression::MultilineOption)),
             qPrintable(r.out));
    QVERIFY(r.out.contains(QRegularExpression("^refuse\\s+config.json\\s+auto_map",
                                              QRegularExpression::MultilineOption)));
    QVERIFY(r.out.contains("result: FAIL"));
  }

  void json_report() {
    make_checkpoint();
    const auto r = run_cli({q(dir() / "model"), "--inventory", q(dir() / "inv.sums"), "--json"});
    QCOMPARE(r.exit_code, 0);
    const auto j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["passed"].get<bool>(), true);
    QCOMPARE(j["totals"]["ok"].get<int>(), 2);
    QCOMPARE(j["inventory"]["format"].get<std::string>(), std::string("sha256sum"));
  }

  void input_errors_exit_two() {
    make_checkpoint();
    testing::write_file(dir() / "bad.sums", "this is not a checksum line\n");
    const auto bad = run_cli({q(dir() / "model"), "--inventory", q(dir() / "bad.sums")});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("bad.sums:1:"), qPrintable(bad.err));
    QCOMPARE(run_cli({q(dir() / "no-such-folder")}).exit_code, 2);
    QCOMPARE(run_cli({}).exit_code, 2);  // DIR is required
  }
};

LANEBENCH_TEST_GUILESS_MAIN(VerifyCliTest)
#include "artifacts_verify_cli_test.moc"
