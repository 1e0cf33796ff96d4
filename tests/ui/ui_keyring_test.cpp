// SecretStore against a real Secret Service: the test starts its own session bus and GNOME
// Keyring (with a throw-away home), stores a lane key, reads it back, checks the key stays out
// of the lane's saved form, removes it; and, before any service exists, checks the message a
// user gets when no Secret Service is reachable. Then the lane dialog puts a key into the
// keyring, the lane's reference resolves through the lookup the desktop app registers (a
// simulator lane that demands the key answers the probe), and the saved workspace holds the
// reference but never the key.
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "test_main.h"

#include "core/plan/api_key_source.h"
#include "sim_lane_starter.h"
#include "ui/dialogs/lane_dialog.h"
#include "ui/dialogs/launch_editor.h"
#include "ui/keyring/keyring_lookup.h"
#include "ui/keyring/secret_store.h"
#include "ui/main_window.h"
#include "ui/pages/lane_prober.h"
#include "ui/pages/lanes_page.h"
#include "ui/pages/run_page.h"
#include "ui/run/experiment_form.h"
#include "ui/workspace/workspace.h"
#include "widgets/lane_palette.h"

using lb::ui::SecretStore;

namespace {

constexpr const char* kKey = "sk-lanebench-keyring-test-7f3a9c";
constexpr const char* kWorkspace = "workspace-test-1";
const lb::plan::KeyringItem kFp8{"fp8", "sim"};

// Reads every file under `dir` and returns the first that contains `needle` ("" when none).
QString file_containing(const QString& dir, const QByteArray& needle) {
  QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    QFile f(it.next());
    if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle)) return f.fileName();
  }
  return {};
}

// The simulator lane answers 401 unless requests carry the key in this variable.
constexpr const char* kSimKeyVar = "LB_KEYRING_TEST_SIM_KEY";

lb::plan::Lane keyed_sim_lane() {
  lb::plan::Lane lane;
  lane.id = "fp8";
  lane.base_url = std::string("sim:fp8?time_scale=0.01&api_key_env=") + kSimKeyVar;
  return lane;
}

// Fills the dialog's key fields the way a user would, then presses OK; with WAIT, waits until
// the keyring answered (the dialog is then accepted, or shows why not).
void choose_keyring_key(lb::ui::LaneDialog& dialog, const QString& key, bool wait = true) {
  dialog.findChild<QComboBox*>("keySource")->setCurrentIndex(2);  // OS keyring
  dialog.findChild<QLineEdit*>("keySecret")->setText(key);
  dialog.accept();
  if (wait) QTRY_VERIFY_WITH_TIMEOUT(!dialog.storing(), 20'000);
}

QString shown_error(const QDialog& dialog) {
  QString text;
  for (const QLabel* label : dialog.findChildren<QLabel*>()) text += label->text() + "\n";
  return text;
}

}  // namespace

class KeyringTest : public QObject {
  Q_OBJECT
 public:
  // libsecret and the daemons read these from the process environment, which may change only
  // before any thread exists: keyring files go to a throw-away home, never to the user's, and
  // the session bus is the private one this test starts at a fixed address in that home. Until
  // it starts, nothing listens there.
  static void initMain() {
    const QString home = throwaway_home().path();
    lb::test::set_environment_before_threads("HOME", qPrintable(home));
    lb::test::set_environment_before_threads("XDG_DATA_HOME", qPrintable(home + "/data"));
    lb::test::set_environment_before_threads("XDG_RUNTIME_DIR", qPrintable(home));
    lb::test::set_environment_before_threads("DBUS_SESSION_BUS_ADDRESS", qPrintable(bus_address()));
    lb::test::set_environment_before_threads(kSimKeyVar, kKey);
  }

 private slots:
  void initTestCase() {
    QVERIFY(throwaway_home().isValid());
    for (const char* tool : {"dbus-daemon", "gnome-keyring-daemon"})
      QVERIFY2(
          !QStandardPaths::findExecutable(tool).isEmpty(),
          qPrintable(QString("%1 is not installed (scripts/bootstrap.sh installs it)").arg(tool)));
  }

  // First, while this process has never reached a bus: a clear error, no crash, no hang.
  void clearErrorWhenNoSecretServiceIsReachable() {
    QVERIFY(!QFile::exists(throwaway_home().path() + "/bus"));
    QElapsedTimer t;
    t.start();
    const SecretStore store(kWorkspace);
    const auto r = store.store(kFp8, kKey);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains("no Secret Service is reachable"),
             r.error.c_str());
    QVERIFY(r.error.find(kKey) == std::string::npos);
    std::string error;
    QVERIFY(!store.lookup(kFp8, &error));
    QVERIFY2(QString::fromStdString(error).contains("cannot read the key of lane fp8"),
             error.c_str());
    QVERIFY2(t.elapsed() < 5000, "failing takes no time when nothing listens");

    // The dialog stays open and says why, rather than saving a lane whose key went nowhere.
    lb::ui::LaneDialog dialog(keyed_sim_lane(), {});
    choose_keyring_key(dialog, kKey);
    QVERIFY(dialog.result() != QDialog::Accepted);
    QVERIFY2(shown_error(dialog).contains("no Secret Service is reachable"),
             qPrintable(shown_error(dialog)));
  }

  void storeLookupRemoveInARealSecretService() {
    start_session_bus();
    unlock_keyring();
    const SecretStore store(kWorkspace);
    auto r = store.store(kFp8, kKey);
    QVERIFY2(r.ok, r.error.c_str());
    std::string error;
    auto key = store.lookup(kFp8, &error);
    QVERIFY2(key.has_value(), error.c_str());
    QCOMPARE(*key, std::string(kKey));
    QVERIFY(!store.lookup({"bf16", "sim"}, &error));  // another lane has no key
    QVERIFY2(error.empty(), error.c_str());
    // A key is bound to its workspace and host: the same lane id in another workspace, or at
    // another host, finds nothing.
    QVERIFY(!SecretStore("another-workspace").lookup(kFp8, &error));
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY(!store.lookup({"fp8", "evil.example.com"}, &error));
    QVERIFY2(error.empty(), error.c_str());
    // Replacing keeps one item per lane and host.
    QVERIFY(store.store(kFp8, std::string(kKey) + "-v2").ok);
    QCOMPARE(*store.lookup(kFp8, &error), std::string(kKey) + "-v2");

    // What a workspace or plan holds is the reference, which resolves to the key.
    const std::string ref = SecretStore::reference_for("fp8");
    QCOMPARE(ref, std::string("keyring:fp8"));
    QCOMPARE(*SecretStore::lane_of_reference(ref), std::string("fp8"));
    QVERIFY(!SecretStore::lane_of_reference("FP8_KEY"));
    QVERIFY(!SecretStore::lane_of_reference("keyring:"));
    QCOMPARE(*store.lookup({*SecretStore::lane_of_reference(ref), "sim"}, &error),
             std::string(kKey) + "-v2");
    // The keyring encrypts what it writes: the key is in no file under the home either.
    QCOMPARE(file_containing(throwaway_home().path(), kKey), QString());

    QVERIFY(store.remove("fp8").ok);
    QVERIFY(!store.lookup(kFp8, &error));
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY(store.remove("fp8").ok);  // removing what is not there is fine
  }

  void keyringLaneResolvesThroughTheRegisteredLookup() {
    QVERIFY2(bus_.state() == QProcess::Running, "needs the bus above");
    lb::app::register_sim_lane_starter();
    QTemporaryDir dir;
    lb::ui::Workspace workspace;
    QString why;
    QVERIFY2(workspace.open(dir.path(), &why), qPrintable(why));
    const std::string workspace_id = workspace.id().toStdString();
    QVERIFY(!workspace_id.empty());
    const SecretStore store(workspace_id);
    lb::ui::LaneDialog dialog(keyed_sim_lane(), {}, workspace.id());
    choose_keyring_key(dialog, kKey);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    lb::plan::Lane lane = dialog.lane();
    QCOMPARE(lane.api_key_env, std::string("keyring:fp8"));
    std::string error;
    QCOMPARE(store.lookup(kFp8, &error).value_or(""), std::string(kKey));

    // Without the desktop app's lookup (the CLI) the lane is refused with advice.
    lb::plan::set_keyring_lookup(nullptr);
    auto probe = lb::ui::probe_lane_blocking(lane);
    QVERIFY(!probe.ok);
    QVERIFY2(probe.text.contains("lane fp8: its key is in the OS keyring"), qPrintable(probe.text));
    // With it, the key reaches the server: the simulator demands it and answers the probe.
    lb::ui::register_keyring_lookup(workspace_id);
    probe = lb::ui::probe_lane_blocking(lane);
    QVERIFY2(probe.ok, qPrintable(probe.text));
    QVERIFY(!probe.text.contains(kKey));
    // A different key in the keyring is sent as is, and refused by the server.
    QVERIFY(store.store(kFp8, "sk-wrong").ok);
    QVERIFY(!lb::ui::probe_lane_blocking(lane).ok);
    QVERIFY(store.store(kFp8, kKey).ok);
    // The same lane opened in another workspace finds no key, and says what to do.
    lb::ui::register_keyring_lookup("another-workspace");
    probe = lb::ui::probe_lane_blocking(lane);
    QVERIFY(!probe.ok);
    QVERIFY2(probe.text.contains("no key is stored in the OS keyring for keyring:fp8 at sim in "
                                 "this workspace"),
             qPrintable(probe.text));
    lb::ui::register_keyring_lookup(workspace_id);
    // A lane may not read another lane's item.
    lb::plan::Lane thief = lane;
    thief.id = "bf16";
    probe = lb::ui::probe_lane_blocking(thief);
    QVERIFY(!probe.ok);
    QVERIFY2(probe.text.contains("names another lane's key"), qPrintable(probe.text));

    // The workspace holds the reference only.
    QVERIFY2(workspace.set_lanes({lane}, &why), qPrintable(why));
    QFile saved(dir.path() + "/lanes.json");
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("\"keyring:fp8\""));
    QCOMPARE(file_containing(dir.path(), kKey), QString());

    // Editing the saved lane without retyping the key keeps the reference.
    lb::ui::Workspace reopened;
    QVERIFY2(reopened.open(dir.path(), &why), qPrintable(why));
    QCOMPARE(reopened.id(), workspace.id());  // the id is kept in the folder
    lb::ui::LaneDialog edit(reopened.lanes().at(0), {}, reopened.id());
    QCOMPARE(edit.findChild<QComboBox*>("keySource")->currentIndex(), 2);
    edit.accept();
    QCOMPARE(edit.result(), int(QDialog::Accepted));
    QCOMPARE(edit.lane().api_key_env, std::string("keyring:fp8"));

    // Removing the lane on the Lanes page takes its key out of the keyring as well.
    lb::ui::LanesPage page(reopened, std::make_shared<lb::widgets::LanePalette>());
    page.findChild<QTableView*>()->selectRow(0);
    QTimer::singleShot(0, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        box->button(QMessageBox::Yes)->click();
    });
    for (QPushButton* b : page.findChildren<QPushButton*>())
      if (b->text() == "&Remove") b->click();
    QVERIFY(reopened.lanes().empty());
    // The key leaves in a job of its own; the page's thread keeps turning meanwhile.
    QTRY_VERIFY_WITH_TIMEOUT(!store.lookup(kFp8, &error), 20'000);
    QVERIFY2(error.empty(), error.c_str());
  }

  // A managed lane's secret env values typed in the lane dialog go to the keyring; the lane and
  // lanes.json hold references, which the server's start resolves through the lookup.
  void secretLaunchEnvStaysInTheKeyring() {
    QVERIFY2(bus_.state() == QProcess::Running, "needs the bus above");
    QTemporaryDir dir;
    lb::ui::Workspace workspace;
    QString why;
    QVERIFY2(workspace.open(dir.path(), &why), qPrintable(why));
    lb::plan::Lane lane;
    lane.id = "srv";
    lane.base_url = "http://127.0.0.1:{port}/v1";
    lb::plan::LaunchSpec spec;
    spec.command = {"/bin/true"};
    spec.ready_url = "http://127.0.0.1:{port}/health";
    lane.launch = spec;
    lb::ui::LaneDialog dialog(lane, {}, workspace.id());
    dialog.launch_editor()->add_env_row("HF_TOKEN", "hf-secret-value-123", false);  // by name
    dialog.launch_editor()->add_env_row("MODEL_PASS", "pass-secret-456", true);     // marked
    dialog.launch_editor()->add_env_row("LOG_LEVEL", "INFO", false);
    dialog.accept();
    // The values go to the keyring in a job: OK and the fields wait, and Cancel is refused.
    QVERIFY(dialog.storing());
    QVERIFY(!dialog.tabs()->isEnabled());
    dialog.reject();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.storing(), 20'000);
    QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.error_text()));
    const lb::plan::Lane saved = dialog.lane();
    QCOMPARE(saved.launch->env.at("HF_TOKEN"), std::string("keyring:srv/env/HF_TOKEN"));
    QCOMPARE(saved.launch->env.at("MODEL_PASS"), std::string("keyring:srv/env/MODEL_PASS"));
    QCOMPARE(saved.launch->env.at("LOG_LEVEL"), std::string("INFO"));
    QVERIFY2(workspace.set_lanes({saved}, &why), qPrintable(why));
    for (const char* secret : {"hf-secret-value-123", "pass-secret-456"})
      QCOMPARE(file_containing(dir.path(), secret), QString());

    lb::ui::register_keyring_lookup(workspace.id().toStdString());
    std::vector<std::string> secrets;
    std::string error;
    auto env = lb::plan::resolve_launch_env(saved, &secrets, &error);
    QVERIFY2(env.has_value(), error.c_str());
    QCOMPARE(env->at("HF_TOKEN"), std::string("hf-secret-value-123"));
    QCOMPARE(env->at("MODEL_PASS"), std::string("pass-secret-456"));
    QCOMPARE(env->at("LOG_LEVEL"), std::string("INFO"));
    QCOMPARE(secrets.size(), size_t{2});
    // Another lane cannot read them; without the desktop app's lookup nothing is read.
    lb::plan::Lane thief = saved;
    thief.id = "other";
    QVERIFY(!lb::plan::resolve_launch_env(thief, nullptr, &error));
    QVERIFY2(error.find("a lane reads only its own") != std::string::npos, error.c_str());
    lb::plan::set_keyring_lookup(nullptr);
    QVERIFY(!lb::plan::resolve_launch_env(saved, nullptr, &error));
    QVERIFY2(error.find("only the LaneBench desktop app reads") != std::string::npos,
             error.c_str());
    lb::ui::register_keyring_lookup(workspace.id().toStdString());

    // Reopened and accepted without retyping, the references stay.
    lb::ui::Workspace reopened;
    QVERIFY2(reopened.open(dir.path(), &why), qPrintable(why));
    lb::ui::LaneDialog edit(reopened.lanes().at(0), {}, reopened.id());
    edit.accept();
    QVERIFY2(edit.result() == QDialog::Accepted, qPrintable(edit.error_text()));
    QCOMPARE(edit.lane().launch->env.at("MODEL_PASS"), std::string("keyring:srv/env/MODEL_PASS"));

    // Removing the lane on the Lanes page takes its launch secrets out of the keyring too.
    const SecretStore store(reopened.id().toStdString());
    const std::string host = lb::plan::keyring_host(saved.base_url);
    QVERIFY(store.lookup({"srv/env/HF_TOKEN", host}, &error).has_value());
    lb::ui::LanesPage page(reopened, std::make_shared<lb::widgets::LanePalette>());
    page.findChild<QTableView*>()->selectRow(0);
    QTimer::singleShot(0, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        box->button(QMessageBox::Yes)->click();
    });
    for (QPushButton* b : page.findChildren<QPushButton*>())
      if (b->text() == "&Remove") b->click();
    QVERIFY(reopened.lanes().empty());
    for (const char* id : {"srv/env/HF_TOKEN", "srv/env/MODEL_PASS"}) {
      QTRY_VERIFY2_WITH_TIMEOUT(!store.lookup({id, host}, &error), id, 20'000);
      QVERIFY2(error.empty(), error.c_str());
    }
  }

  // The Add dialog stores a new lane's key before the workspace is written; when writing it
  // fails, the key must not stay in the keyring with nothing referring to it.
  void failedWorkspaceSaveLeavesNoKeyBehind() {
    QVERIFY2(bus_.state() == QProcess::Running, "needs the bus above");
    QTemporaryDir dir;
    lb::ui::Workspace workspace;
    QString why;
    QVERIFY2(workspace.open(dir.path(), &why), qPrintable(why));
    lb::ui::LanesPage page(workspace, std::make_shared<lb::widgets::LanePalette>());
    // lanes.json cannot be replaced: a directory stands where the file goes (even for root).
    QFile::remove(dir.path() + "/lanes.json");
    QVERIFY(QDir(dir.path()).mkpath("lanes.json/blocked"));
    QString critical;
    QTimer driver;
    QObject::connect(&driver, &QTimer::timeout, [&] {
      QWidget* modal = QApplication::activeModalWidget();
      if (auto* dialog = qobject_cast<lb::ui::LaneDialog*>(modal)) {
        if (dialog->storing()) return;
        dialog->findChild<QLineEdit*>("laneId")->setText("orphan");
        choose_keyring_key(*dialog, kKey, false);
      } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
        critical = box->text();
        box->button(QMessageBox::Ok)->click();
        driver.stop();
      }
    });
    driver.start(20);
    for (QPushButton* b : page.findChildren<QPushButton*>())
      if (b->text() == "&Add…") b->click();
    QVERIFY2(critical.contains("lanes.json"), qPrintable(critical));
    QVERIFY(workspace.lanes().empty());
    std::string error;
    QTRY_VERIFY2_WITH_TIMEOUT(
        !SecretStore(workspace.id().toStdString()).lookup({"orphan", "sim"}, &error),
        "the key stayed in the keyring", 20'000);
    QVERIFY2(error.empty(), error.c_str());
  }

  // A keyring lane whose key this workspace does not keep: the Run page looks the keyring up in
  // its check job, asks for the key when the run starts, keeps it in the keyring, and the run's
  // requests carry it (the simulator lane demands it).
  void runPageAsksForAMissingKeyringKeyAndKeepsIt() {
    QVERIFY2(bus_.state() == QProcess::Running, "needs the bus above");
    lb::app::register_sim_lane_starter();
    QTemporaryDir dir;
    lb::ui::MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(dir.path(), &error), qPrintable(error));
    lb::plan::Lane lane = keyed_sim_lane();
    lane.api_key_env = SecretStore::reference_for("fp8");
    QVERIFY2(window.workspace().set_lanes({lane}, &error), qPrintable(error));
    const SecretStore store(window.workspace().id().toStdString());
    std::string why;
    QVERIFY(!store.lookup(kFp8, &why));  // a new workspace keeps no key
    lb::ui::RunPage* run = window.run_page();
    run->reload_lanes();
    run->experiment_form()->set_kind("throughput");
    run->experiment_form()->use_quick_defaults();
    QString asked;
    QTimer answer;
    connect(&answer, &QTimer::timeout, this, [&] {
      auto* input = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
      if (input == nullptr) return;
      asked = input->labelText();
      input->setTextValue(kKey);
      input->accept();
      answer.stop();
    });
    answer.start(20);
    QSignalSpy answered(run, &lb::ui::RunPage::start_answered);
    QSignalSpy finished(run, &lb::ui::RunPage::run_finished);
    QVERIFY2(run->start_run(&error), qPrintable(error));
    QVERIFY(answered.wait(30'000));
    QVERIFY2(answered.first().at(0).toBool(), qPrintable(answered.first().at(1).toString()));
    QVERIFY2(asked.contains("keeps no key for lane fp8 at sim"), qPrintable(asked));
    QCOMPARE(store.lookup(kFp8, &why).value_or(""), std::string(kKey));
    QVERIFY(finished.wait(120'000));
    const QString run_dir = finished.first().at(0).toString();
    QFile summary(QDir(run_dir).filePath("summary.json"));
    QVERIFY(summary.open(QIODevice::ReadOnly));
    const auto doc = nlohmann::json::parse(summary.readAll().toStdString(), nullptr, false);
    const auto& phases = doc["experiments"][0]["lanes"]["fp8"]["phases"];
    QVERIFY2(phases.is_object() && !phases.empty(), doc.dump().c_str());
    for (const auto& [name, phase] : phases.items())
      QVERIFY2(phase.value("failed", -1) == 0 && phase.value("completed", 0) > 0, name.c_str());
    QCOMPARE(file_containing(dir.path(), kKey), QString());  // the key stays in the keyring
    QVERIFY(store.remove("fp8").ok);
  }

  void cleanupTestCase() {
    if (bus_.state() != QProcess::NotRunning) {
      bus_.terminate();
      if (!bus_.waitForFinished(3000)) bus_.kill();
      bus_.waitForFinished(3000);
    }
  }

 private:
  static QTemporaryDir& throwaway_home() {
    static QTemporaryDir home;
    return home;
  }
  static QString bus_address() { return "unix:path=" + throwaway_home().path() + "/bus"; }

  // A private session bus (the session configuration activates org.freedesktop.secrets from
  // gnome-keyring's service file) at the address this process was given in initMain().
  void start_session_bus() {
    bus_.start("dbus-daemon",
               {"--session", "--nofork", "--address=" + bus_address(), "--print-address=1"});
    QVERIFY2(bus_.waitForStarted(5000), "dbus-daemon did not start");
    QVERIFY2(bus_.waitForReadyRead(5000), "dbus-daemon printed no address");
    const QByteArray address = bus_.readLine().trimmed();
    QVERIFY2(address.startsWith(bus_address().toUtf8()), address.constData());
  }

  // gnome-keyring-daemon --unlock reads the login keyring's password from stdin, creates the
  // keyring (the default collection) when there is none, and stays up for the bus's lifetime.
  void unlock_keyring() {
    QProcess keyring;
    keyring.start("gnome-keyring-daemon", {"--unlock", "--components=secrets"});
    QVERIFY2(keyring.waitForStarted(5000), "gnome-keyring-daemon did not start");
    keyring.write("lanebench-test-password");
    keyring.closeWriteChannel();
    QVERIFY2(keyring.waitForFinished(10000), "gnome-keyring-daemon --unlock did not return");
    QCOMPARE(keyring.exitCode(), 0);
  }

  QProcess bus_;
};

LANEBENCH_TEST_MAIN(KeyringTest)
#include "ui_keyring_test.moc"
