// SecretStore against a real Secret Service: the test starts its own session bus and GNOME
// Keyring (with a throw-away home), stores a lane key, reads it back, checks the key stays out
// of the lane's saved form, removes it; and, before any service exists, checks the message a
// user gets when no Secret Service is reachable.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/keyring/secret_store.h"

using lb::ui::SecretStore;

namespace {

constexpr const char* kKey = "sk-lanebench-keyring-test-7f3a9c";

// Reads every file under `dir` and returns the first that contains `needle` ("" when none).
QString file_containing(const QString& dir, const QByteArray& needle) {
  QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    QFile f(it.next());
    if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle)) return f.fileName();
  }
  return {};
}

}  // namespace

class KeyringTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(home_.isValid());
    for (const char* tool : {"dbus-daemon", "gnome-keyring-daemon"})
      QVERIFY2(
          !QStandardPaths::findExecutable(tool).isEmpty(),
          qPrintable(QString("%1 is not installed (scripts/bootstrap.sh installs it)").arg(tool)));
    // Keyring files go to the throw-away home, never to the user's.
    qputenv("HOME", home_.path().toUtf8());
    qputenv("XDG_DATA_HOME", (home_.path() + "/data").toUtf8());
    qputenv("XDG_RUNTIME_DIR", home_.path().toUtf8());
  }

  // First, while this process has never reached a bus: a clear error, no crash, no hang.
  void clearErrorWhenNoSecretServiceIsReachable() {
    qputenv("DBUS_SESSION_BUS_ADDRESS", ("unix:path=" + home_.path() + "/no-bus").toUtf8());
    QElapsedTimer t;
    t.start();
    const SecretStore store;
    const auto r = store.store("fp8", kKey);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains("no Secret Service is reachable"),
             r.error.c_str());
    QVERIFY(r.error.find(kKey) == std::string::npos);
    std::string error;
    QVERIFY(!store.lookup("fp8", &error));
    QVERIFY2(QString::fromStdString(error).contains("cannot read the key of lane fp8"),
             error.c_str());
    QVERIFY2(t.elapsed() < 5000, "failing takes no time when nothing listens");
  }

  void storeLookupRemoveInARealSecretService() {
    start_session_bus();
    unlock_keyring();
    const SecretStore store;
    auto r = store.store("fp8", kKey);
    QVERIFY2(r.ok, r.error.c_str());
    std::string error;
    auto key = store.lookup("fp8", &error);
    QVERIFY2(key.has_value(), error.c_str());
    QCOMPARE(*key, std::string(kKey));
    QVERIFY(!store.lookup("bf16", &error));  // another lane has no key
    QVERIFY2(error.empty(), error.c_str());
    // Replacing keeps one item per lane.
    QVERIFY(store.store("fp8", std::string(kKey) + "-v2").ok);
    QCOMPARE(*store.lookup("fp8", &error), std::string(kKey) + "-v2");

    // What a workspace or plan holds is the reference, which resolves to the key.
    const std::string ref = SecretStore::reference_for("fp8");
    QCOMPARE(ref, std::string("keyring:fp8"));
    QCOMPARE(*SecretStore::lane_of_reference(ref), std::string("fp8"));
    QVERIFY(!SecretStore::lane_of_reference("FP8_KEY"));
    QVERIFY(!SecretStore::lane_of_reference("keyring:"));
    QCOMPARE(*store.lookup(*SecretStore::lane_of_reference(ref), &error),
             std::string(kKey) + "-v2");
    // The keyring encrypts what it writes: the key is in no file under the home either.
    QCOMPARE(file_containing(home_.path(), kKey), QString());

    QVERIFY(store.remove("fp8").ok);
    QVERIFY(!store.lookup("fp8", &error));
    QVERIFY2(error.empty(), error.c_str());
    QVERIFY(store.remove("fp8").ok);  // removing what is not there is fine
  }

  void cleanupTestCase() {
    if (bus_.state() != QProcess::NotRunning) {
      bus_.terminate();
      if (!bus_.waitForFinished(3000)) bus_.kill();
      bus_.waitForFinished(3000);
    }
  }

 private:
  // A private session bus (the session configuration activates org.freedesktop.secrets from
  // gnome-keyring's service file); its address becomes this process's session bus.
  void start_session_bus() {
    bus_.start("dbus-daemon", {"--session", "--nofork", "--print-address=1"});
    QVERIFY2(bus_.waitForStarted(5000), "dbus-daemon did not start");
    QVERIFY2(bus_.waitForReadyRead(5000), "dbus-daemon printed no address");
    const QByteArray address = bus_.readLine().trimmed();
    QVERIFY2(address.startsWith("unix:"), address.constData());
    qputenv("DBUS_SESSION_BUS_ADDRESS", address);
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

  QTemporaryDir home_;
  QProcess bus_;
};

QTEST_GUILESS_MAIN(KeyringTest)
#include "keyring_test.moc"
