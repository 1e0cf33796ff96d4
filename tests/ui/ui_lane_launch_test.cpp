// The lane dialog's launch editor, offscreen: a lane's launch block comes in and goes out
// unchanged (argument list, env, ready URL and timeout, stop signal and grace, log), through the
// dialog and through the workspace's lanes.json; edits made in the editor reach the lane; bad
// blocks are refused with the plan parser's own messages; a secret-named variable is always
// marked secret, and a value typed into it never reaches lanes.json.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"
#include "ui/dialogs/lane_dialog.h"
#include "ui/dialogs/launch_editor.h"
#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"

using lb::plan::Lane;
using lb::plan::LaunchSpec;
using lb::ui::LaneDialog;

namespace lane_launch_test {

Lane managed_lane() {
  Lane lane;
  lane.id = "fp8-mtp3";
  lane.base_url = "http://127.0.0.1:{port}/v1";
  LaunchSpec spec;
  spec.command = {"vllm",
                  "serve",
                  "Qwen/Qwen3.8-27B-FP8",
                  "--port",
                  "{port}",
                  "--speculative-config",
                  "{\"method\": \"mtp\", \"num_speculative_tokens\": 3}"};
  spec.env = {{"VLLM_LOGGING_LEVEL", "INFO"}, {"HF_TOKEN", "keyring:fp8-mtp3/env/HF_TOKEN"}};
  spec.ready_url = "http://127.0.0.1:{port}/health";
  spec.ready_timeout_s = 900;
  spec.stop_signal = "SIGINT";
  spec.stop_grace_s = 30;
  spec.log = false;
  lane.launch = spec;
  return lane;
}

bool same_launch(const LaunchSpec& a, const LaunchSpec& b) {
  return a.command == b.command && a.env == b.env && a.ready_url == b.ready_url &&
         a.ready_timeout_s == b.ready_timeout_s && a.stop_signal == b.stop_signal &&
         a.stop_grace_s == b.stop_grace_s && a.log == b.log;
}

// The message the dialog shows after OK with the launch editor as it is.
QString refusal(LaneDialog& dialog) {
  dialog.accept();
  return dialog.result() == QDialog::Accepted ? QString() : dialog.error_text();
}

QLineEdit* env_cell(lb::ui::LaunchEditor* editor, int row, int column) {
  return qobject_cast<QLineEdit*>(editor->env_table()->cellWidget(row, column));
}

}  // namespace lane_launch_test
namespace llt = lane_launch_test;

class UiLaneLaunchTest : public QObject {
  Q_OBJECT
 private slots:
  void launchBlockRoundTripsThroughTheDialog() {
    const Lane lane = llt::managed_lane();
    LaneDialog dialog(lane, {});
    auto* editor = dialog.launch_editor();
    QVERIFY(editor->isChecked());
    QCOMPARE(editor->arguments()->count(), 7);
    QCOMPARE(editor->arguments()->item(6)->text(),
             QString("{\"method\": \"mtp\", \"num_speculative_tokens\": 3}"));
    QCOMPARE(editor->ready_timeout()->value(), 900.0);
    QCOMPARE(editor->stop_signal()->currentText(), QString("SIGINT"));
    QCOMPARE(editor->stop_grace()->value(), 30.0);
    QVERIFY(!editor->keep_log()->isChecked());
    // HF_TOKEN is kept in the keyring: the editor shows no value, the secret mark is fixed.
    QCOMPARE(editor->env_table()->rowCount(), 2);
    QLineEdit* token = llt::env_cell(editor, 0, 0)->text() == "HF_TOKEN"
                           ? llt::env_cell(editor, 0, 1)
                           : llt::env_cell(editor, 1, 1);
    QVERIFY(token->text().isEmpty());
    QCOMPARE(token->echoMode(), QLineEdit::Password);
    const Lane out = dialog.lane();
    QVERIFY(out.launch.has_value());
    QVERIFY(llt::same_launch(*out.launch, *lane.launch));
    QCOMPARE(llt::refusal(dialog), QString());

    // And through lanes.json, as the workspace keeps it.
    QTemporaryDir dir;
    lb::ui::Workspace workspace;
    QString why;
    QVERIFY2(workspace.open(dir.path(), &why), qPrintable(why));
    QVERIFY2(workspace.set_lanes({out}, &why), qPrintable(why));
    lb::ui::Workspace reopened;
    QVERIFY2(reopened.open(dir.path(), &why), qPrintable(why));
    QCOMPARE(reopened.lanes().size(), size_t{1});
    QVERIFY(reopened.lanes()[0].launch.has_value());
    QVERIFY(llt::same_launch(*reopened.lanes()[0].launch, *lane.launch));
  }

  void editsReachTheLane() {
    Lane lane;
    lane.id = "sim-server";
    lane.base_url = "http://127.0.0.1:{port}/v1";
    LaneDialog dialog(lane, {});
    auto* editor = dialog.launch_editor();
    QVERIFY(!editor->isChecked());
    QVERIFY(!dialog.lane().launch.has_value());
    editor->setChecked(true);
    editor->set_arguments({"lanebench-sim", "--profile", "fp8", "", "--port", "{port}"});
    editor->add_env_row("SIM_LOG", "debug", false);
    editor->ready_url()->setText("http://127.0.0.1:{port}/health");
    editor->ready_timeout()->setValue(45);
    editor->stop_signal()->setCurrentText("SIGQUIT");
    editor->stop_grace()->setValue(2.5);
    QCOMPARE(llt::refusal(dialog), QString());
    const Lane out = dialog.lane();
    QVERIFY(out.launch.has_value());
    // The empty row is left out; every other row is one argument, spaces and all.
    QCOMPARE(out.launch->command,
             (std::vector<std::string>{"lanebench-sim", "--profile", "fp8", "--port", "{port}"}));
    QCOMPARE(out.launch->env.at("SIM_LOG"), std::string("debug"));
    QCOMPARE(out.launch->ready_timeout_s, 45.0);
    QCOMPARE(out.launch->stop_signal, std::string("SIGQUIT"));
    QCOMPARE(out.launch->stop_grace_s, 2.5);
    QVERIFY(out.launch->log);
    // The lane's JSON is the plan file's: the CLI parser reads it back unchanged.
    const nlohmann::json plan = {{"name", "p"},
                                 {"lanes", {lb::ui::lane_to_json(out)}},
                                 {"experiments", {{{"kind", "regression"}}}}};
    const auto parsed = lb::plan::parse_plan(plan.dump(), "p.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QVERIFY(llt::same_launch(*parsed.plan->lanes[0].launch, *out.launch));
  }

  void badBlocksAreRefusedWithTheParsersMessages() {
    Lane lane = llt::managed_lane();
    lane.launch->env.erase("HF_TOKEN");
    {
      LaneDialog dialog(lane, {});
      dialog.launch_editor()->ready_url()->setText("ftp://127.0.0.1/health");
      const QString said = llt::refusal(dialog);
      QVERIFY2(said.contains("launch.ready.url: 'ftp://127.0.0.1/health' must be an http:// or "
                             "https:// URL"),
               qPrintable(said));
      QCOMPARE(dialog.tabs()->currentIndex(), 1);  // the Launch tab is shown
    }
    {
      LaneDialog dialog(lane, {});
      dialog.launch_editor()->set_arguments({});
      const QString said = llt::refusal(dialog);
      QVERIFY2(said.contains("launch.command: must be a non-empty list"), qPrintable(said));
    }
    {
      LaneDialog dialog(lane, {});
      dialog.launch_editor()->add_env_row("1BAD", "x", false);
      const QString said = llt::refusal(dialog);
      QVERIFY2(said.contains("'1BAD' is not an environment variable name"), qPrintable(said));
    }
    {
      Lane sim = lane;
      sim.base_url = "sim:fp8";
      LaneDialog dialog(sim, {});
      const QString said = llt::refusal(dialog);
      QVERIFY2(said.contains("a sim: lane runs in process and takes no launch block"),
               qPrintable(said));
    }
    {
      Lane plain = lane;
      plain.launch.reset();
      LaneDialog dialog(plain, {});
      const QString said = llt::refusal(dialog);
      QVERIFY2(said.contains("uses {port}, which only a lane with a launch block can"),
               qPrintable(said));
    }
    {
      LaneDialog dialog(lane, {});
      dialog.launch_editor()->add_env_row("HF_TOKEN", "", false);
      const QString said = llt::refusal(dialog);
      QVERIFY2(said.contains("launch.env.HF_TOKEN: type the value to keep in the OS keyring"),
               qPrintable(said));
    }
  }

  // lanes.json keeps every field of a lane, not only those the lane dialog edits: a lane's CA
  // bundle, TLS and HTTP settings and media bound were dropped when the workspace was saved.
  void everyLaneFieldSurvivesTheWorkspace() {
    QTemporaryDir dir;
    lb::ui::Workspace workspace;
    QString error;
    QVERIFY2(workspace.open(dir.path(), &error), qPrintable(error));
    Lane lane;
    lane.id = "tls";
    lane.base_url = "https://gpu-7.example:8443";
    lane.model = "Qwen/Qwen3-8B";
    lane.ca_bundle = "/etc/ssl/private-ca.pem";
    lane.insecure = true;
    lane.http_version = lb::net::HttpVersion::Http2;
    lane.max_media_bytes = 1'234'567;
    lane.notes.kv_cache = "fp8";
    QVERIFY2(workspace.set_lanes({lane}, &error), qPrintable(error));
    lb::ui::Workspace reopened;
    QVERIFY2(reopened.open(dir.path(), &error), qPrintable(error));
    QCOMPARE(reopened.lanes().size(), size_t{1});
    const Lane& back = reopened.lanes()[0];
    QCOMPARE(back.model, lane.model);
    QCOMPARE(back.ca_bundle, lane.ca_bundle);
    QVERIFY(back.insecure);
    QVERIFY(back.http_version == lb::net::HttpVersion::Http2);
    QCOMPARE(back.max_media_bytes, lane.max_media_bytes);
    QCOMPARE(back.notes.kv_cache, std::string("fp8"));
    // What the workspace writes, a plan file reads unchanged.
    const nlohmann::json plan = {{"name", "p"},
                                 {"lanes", {lb::ui::lane_to_json(back)}},
                                 {"experiments", {{{"kind", "regression"}}}}};
    const auto parsed = lb::plan::parse_plan(plan.dump(), "p.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    QCOMPARE(parsed.plan->lanes[0].ca_bundle, lane.ca_bundle);
    QVERIFY(parsed.plan->lanes[0].http_version == lb::net::HttpVersion::Http2);
  }

  void secretNamesAreAlwaysSecretAndNeverWritten() {
    LaneDialog dialog(llt::managed_lane(), {});
    auto* editor = dialog.launch_editor();
    editor->add_env_row("MY_API_KEY", "sk-typed-not-for-disk", false);
    const int row = editor->env_table()->rowCount() - 1;
    auto* mark = qobject_cast<QCheckBox*>(editor->env_table()->cellWidget(row, 2));
    QVERIFY(mark->isChecked());
    QVERIFY(!mark->isEnabled());
    QCOMPARE(llt::env_cell(editor, row, 1)->echoMode(), QLineEdit::Password);
    // Renaming to an ordinary name frees the mark; a typed secret goes to the keyring only.
    llt::env_cell(editor, row, 0)->setText("MODEL_DIR");
    QVERIFY(mark->isEnabled());
    mark->setChecked(false);
    QCOMPARE(llt::env_cell(editor, row, 1)->echoMode(), QLineEdit::Normal);
    llt::env_cell(editor, row, 0)->setText("MY_API_KEY");
    QCOMPARE(editor->typed_secrets().at("MY_API_KEY"), std::string("sk-typed-not-for-disk"));
    const Lane out = dialog.lane();
    QCOMPARE(out.launch->env.at("MY_API_KEY"), std::string("keyring:fp8-mtp3/env/MY_API_KEY"));
    // A lane holding a secret-named value typed elsewhere is written with it left empty.
    Lane literal = llt::managed_lane();
    literal.launch->env["OTHER_TOKEN"] = "tok-literal-not-for-disk";
    const std::string text = lb::ui::lane_to_json(literal).dump();
    QVERIFY2(text.find("not-for-disk") == std::string::npos, text.c_str());
    QVERIFY(text.find("\"OTHER_TOKEN\":\"\"") != std::string::npos);
  }
};

LANEBENCH_TEST_MAIN(UiLaneLaunchTest)
#include "ui_lane_launch_test.moc"
