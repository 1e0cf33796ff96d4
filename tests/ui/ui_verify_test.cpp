// The Verify page, offscreen, on checkpoint folders written here with real safetensors bytes:
// a clean folder against its JSON inventory passes; a changed shard and a planted pickle are
// listed as blockers with the right kind; a cancelled check says so; bad input is refused with
// a message. The findings model passes QAbstractItemModelTester while it is refilled. A finished
// verification attaches to a run of the workspace (the dialog lists runs newest first, with the
// lanes of the chosen one) and lands as artifacts/<lane>.verification.json.
#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "checkpoint_fixture.h"
#include "core/artifacts/sha256.h"
#include "models/verify_findings_model.h"
#include "test_main.h"
#include "ui/pages/verify_page.h"
#include "ui/verify/attach_dialog.h"

using namespace lb;
using namespace lb::ui;
namespace fs = std::filesystem;
namespace fixture = lb::artifacts::testing;

namespace {

// Two shards and a config; writes inventory.json beside the folder and returns its path.
fs::path make_checkpoint(const fs::path& root) {
  const fs::path model = root / "model";
  const std::string s1 = fixture::safetensors_bytes({{"a", "BF16", {64, 32}, 16}});
  const std::string s2 = fixture::safetensors_bytes({{"b", "F32", {100}, 32}});
  const std::string config = R"({"architectures":["Qwen3ForCausalLM"]})";
  fixture::write_file(model / "model-00001-of-00002.safetensors", s1);
  fixture::write_file(model / "model-00002-of-00002.safetensors", s2);
  fixture::write_file(model / "config.json", config);
  const nlohmann::json inventory = {{"model-00001-of-00002.safetensors", artifacts::sha256_hex(s1)},
                                    {"model-00002-of-00002.safetensors", artifacts::sha256_hex(s2)},
                                    {"config.json", artifacts::sha256_hex(config)}};
  fixture::write_file(root / "inventory.json", inventory.dump(2));
  return root / "inventory.json";
}

const models::VerifyFinding* find(const models::VerifyFindingsModel& model, const QString& kind,
                                  const QString& path) {
  for (const models::VerifyFinding& f : model.findings())
    if (f.kind == kind && f.path == path) return &f;
  return nullptr;
}

bool run_and_wait(VerifyPage& page, bool* passed) {
  QSignalSpy verified(&page, &VerifyPage::verified);
  QString error;
  if (!page.start_verify(&error)) {
    qWarning("start_verify: %s", qPrintable(error));
    return false;
  }
  if (!verified.wait(30'000)) return false;
  *passed = verified.at(0).at(0).toBool();
  return true;
}

// A run folder as far as attaching needs one: its plan with these lanes.
void make_run(const fs::path& dir, const std::vector<std::string>& lanes) {
  nlohmann::json plan = {{"name", "attach"}, {"lanes", nlohmann::json::array()}};
  for (const auto& id : lanes) plan["lanes"].push_back({{"id", id}, {"base_url", "sim:fp8"}});
  fixture::write_file(dir / "plan.json", plan.dump());
}

}  // namespace

class UiVerifyTest : public QObject {
  Q_OBJECT
 private slots:
  void clean_checkpoint_passes() {
    QTemporaryDir tmp;
    const fs::path inventory = make_checkpoint(tmp.path().toStdString());
    VerifyPage page;
    QAbstractItemModelTester tester(page.model());
    page.set_checkpoint_dir(
        QString::fromStdString((fs::path(tmp.path().toStdString()) / "model").string()));
    page.set_inventory(QString::fromStdString(inventory.string()));
    bool passed = false;
    QVERIFY(run_and_wait(page, &passed));
    QVERIFY2(passed, qPrintable(page.verdict_text()));
    QVERIFY2(page.verdict_text().startsWith("Verified: 3 files"), qPrintable(page.verdict_text()));
    QCOMPARE(page.model()->count(models::FindingSeverity::Blocker), 0);
    QCOMPARE(page.model()->rowCount(), 0);  // verified files are hidden until asked for
    auto* show_ok = page.findChild<QCheckBox*>();
    QVERIFY(show_ok);
    show_ok->setChecked(true);
    QCOMPARE(page.model()->count(models::FindingSeverity::Ok), 3);
  }

  void planted_mismatch_and_pickle_are_blockers() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const fs::path inventory = make_checkpoint(root);
    // One shard re-written with other tensor data, and a pickle where a loader would find it.
    fixture::write_file(root / "model" / "model-00002-of-00002.safetensors",
                        fixture::safetensors_bytes({{"b", "F32", {101}, 32}}));
    fixture::write_file(root / "model" / "pytorch_model.bin",
                        std::string("\x80\x04\x95", 3) + "pickle");
    VerifyPage page;
    QAbstractItemModelTester tester(page.model());
    page.set_checkpoint_dir(QString::fromStdString((root / "model").string()));
    page.set_inventory(QString::fromStdString(inventory.string()));
    bool passed = true;
    QVERIFY(run_and_wait(page, &passed));
    QVERIFY(!passed);
    const models::VerifyFindingsModel& model = *page.model();
    const auto* mismatch = find(model, "mismatch", "model-00002-of-00002.safetensors");
    QVERIFY(mismatch);
    QCOMPARE(mismatch->severity, models::FindingSeverity::Blocker);
    QVERIFY(mismatch->detail.startsWith("expected "));
    const auto* extra = find(model, "extra", "pytorch_model.bin");
    QVERIFY(extra);
    const auto* refused = find(model, "refuse-list", "pytorch_model.bin");
    QVERIFY(refused);
    QCOMPARE(refused->severity, models::FindingSeverity::Blocker);
    QVERIFY(!find(model, "mismatch", "model-00001-of-00002.safetensors"));
    const QString verdict = page.verdict_text();
    QVERIFY2(verdict.startsWith("Failed: 1 mismatched, 1 extra"), qPrintable(verdict));
    QVERIFY2(verdict.contains("refused"), qPrintable(verdict));
    // Blockers are listed first, and the table shows them.
    QCOMPARE(model.findings().front().severity, models::FindingSeverity::Blocker);
    QCOMPARE(page.table()->model()->rowCount(), model.rowCount());
  }

  void cancel_is_reported_and_bad_input_refused() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const fs::path inventory = make_checkpoint(root);
    // A 2 GiB sparse file in the inventory (no disk used) takes seconds to hash, so the cancel
    // below lands while the hashing runs. The three small files alone were sometimes hashed
    // before it, on a busy machine, and the check then finished as verified.
    const fs::path big = root / "model" / "padding.dat";
    fixture::write_file(big, "");
    fs::resize_file(big, std::uintmax_t{2} << 30);
    auto listed = nlohmann::json::parse(fixture::read_file(inventory));
    listed["padding.dat"] = std::string(64, '0');
    fixture::write_file(inventory, listed.dump(2));
    VerifyPage page;
    page.set_checkpoint_dir(QString::fromStdString((root / "model").string()));
    page.set_inventory(QString::fromStdString(inventory.string()));
    QSignalSpy finished(page.job(), &VerifyJob::finished);
    QString error;
    QVERIFY2(page.start_verify(&error), qPrintable(error));
    QVERIFY(!page.start_verify(&error));  // one check at a time
    QVERIFY(error.contains("already running"));
    page.cancel();
    QVERIFY(finished.wait(30'000));
    QVERIFY(finished.at(0).at(0).toBool());
    QVERIFY2(page.verdict_text().startsWith("Cancelled"), qPrintable(page.verdict_text()));

    page.set_checkpoint_dir(QString::fromStdString((root / "no-such-folder").string()));
    QVERIFY(!page.start_verify(&error));
    QVERIFY2(error.contains("is not a folder"), qPrintable(error));
    page.set_checkpoint_dir(QString::fromStdString((root / "model").string()));
    page.set_inventory(QString::fromStdString((root / "missing.json").string()));
    QVERIFY(!page.start_verify(&error));
    QVERIFY2(error.contains("inventory"), qPrintable(error));
  }

  void broken_inventory_names_its_line() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    make_checkpoint(root);
    fixture::write_file(root / "bad.sha256", "not-a-digest  config.json\n");
    VerifyPage page;
    page.set_checkpoint_dir(QString::fromStdString((root / "model").string()));
    page.set_inventory(QString::fromStdString((root / "bad.sha256").string()));
    bool passed = true;
    QVERIFY(run_and_wait(page, &passed));
    QVERIFY(!passed);
    QVERIFY2(page.verdict_text().contains("cannot be used"), qPrintable(page.verdict_text()));
    QVERIFY(page.model()->rowCount() >= 1);
    QCOMPARE(page.model()->findings().front().kind, QString("inventory"));
    QVERIFY(page.model()->findings().front().path.endsWith("line 1"));
  }

  void finished_verification_attaches_to_a_run() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    const fs::path inventory = make_checkpoint(root);
    const fs::path runs = root / "runs";
    make_run(runs / "20260101-100000-regression", {"bf16", "fp8"});
    make_run(runs / "20260102-090000-throughput", {"int4"});
    // A run starts when its plan is written: the regression one a day earlier.
    fs::last_write_time(runs / "20260101-100000-regression" / "plan.json",
                        fs::file_time_type::clock::now() - std::chrono::hours(24));
    fs::create_directories(runs / "notes");  // no plan.json: not a run
    VerifyPage page;
    page.set_runs_dir(QString::fromStdString(runs.string()));
    QString error;
    QVERIFY(!page.can_attach());
    QVERIFY(!page.attach_to_run(QString::fromStdString(runs.string()), "fp8", &error));
    QVERIFY2(error.contains("Verify a checkpoint"), qPrintable(error));

    page.set_checkpoint_dir(QString::fromStdString((root / "model").string()));
    page.set_inventory(QString::fromStdString(inventory.string()));
    bool passed = false;
    QVERIFY(run_and_wait(page, &passed));
    QVERIFY(passed);
    QVERIFY(page.can_attach());

    AttachDialog dialog(QString::fromStdString(runs.string()));
    QSignalSpy listed(&dialog, &AttachDialog::runs_listed);
    QVERIFY(dialog.listing());  // the scan runs off the GUI thread
    QVERIFY(listed.wait(10'000));
    QCOMPARE(dialog.run_count(), 2);
    // The explanation wraps: on one line it made the dialog about 900 px wide.
    QVERIFY2(dialog.sizeHint().width() <= 640,
             qPrintable(QString::number(dialog.sizeHint().width())));
    QVERIFY(dialog.run_dir().endsWith("20260102-090000-throughput"));  // newest first
    QCOMPARE(dialog.lanes(), QStringList({"int4"}));
    QVERIFY(dialog.select_run("20260101-100000-regression"));
    QCOMPARE(dialog.lanes(), QStringList({"bf16", "fp8"}));
    QVERIFY(!dialog.select_run("notes"));

    const QString run = QString::fromStdString((runs / "20260101-100000-regression").string());
    QVERIFY(!page.attach_to_run(run, "int4", &error));
    QVERIFY2(error.contains("no lane 'int4'"), qPrintable(error));
    QSignalSpy status(&page, &VerifyPage::status);
    QVERIFY2(page.attach_to_run(run, "fp8", &error), qPrintable(error));
    QCOMPARE(status.size(), 1);
    const fs::path file =
        runs / "20260101-100000-regression" / "artifacts" / "fp8.verification.json";
    const auto doc = nlohmann::json::parse(fixture::read_file(file), nullptr, false);
    QVERIFY(doc.is_object());
    QCOMPARE(doc.value("passed", false), true);
    QCOMPARE(doc["files"].size(), size_t(3));
    QVERIFY(!fs::exists(file.string() + ".tmp"));
  }
};

LANEBENCH_TEST_MAIN(UiVerifyTest)
#include "ui_verify_test.moc"
