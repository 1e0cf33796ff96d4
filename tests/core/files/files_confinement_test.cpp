// The primitives that keep a name, a write or a read from data from elsewhere in its place:
// a name aimed at a path, a link planted in a folder, a FIFO or device where a file should be.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/files/confined_write.h"
#include "core/files/regular_file.h"
#include "core/files/safe_file_name.h"
#include "test_main.h"

namespace fs = std::filesystem;
using lb::files::safe_file_name;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

class TestFilesConfinement : public QObject {
  Q_OBJECT
 private slots:
  void plainNamesStayAsTheyAre() {
    for (const char* name : {"fp8", "bf16-tp2", "c16.after", "imported:vllm", "Überprüfung"})
      QCOMPARE(safe_file_name(name), std::string(name));
  }

  void namesAimedAtPathsBecomeOneSafeComponent() {
    const std::string attack = std::string("/../../../home/u/.bashrc") + '\0' + "x";
    for (const std::string& name :
         {attack, std::string("."), std::string(".."), std::string(), std::string("a\nb"),
          std::string("..\\..\\x"), std::string(200, 'a'), std::string("\xff\xfe"),
          std::string("a\xe2\x80\xae"
                      "b")}) {
      const std::string safe = safe_file_name(name);
      QVERIFY(!safe.empty() && safe.size() <= lb::files::kSafeFileNameMaxBytes);
      QVERIFY(safe.find('/') == std::string::npos && safe.find('\0') == std::string::npos);
      QVERIFY(safe != "." && safe != ".." && safe[0] != '.');
      QVERIFY(lb::files::is_confined_file_name(safe));
      QVERIFY(!lb::files::is_safe_file_name(name));
    }
  }

  void changedNamesDoNotMeet() {
    QVERIFY(safe_file_name("a/b") != safe_file_name("a\\b"));
    QVERIFY(safe_file_name(std::string(100, 'a') + "1") !=
            safe_file_name(std::string(100, 'a') + "2"));
    QVERIFY(safe_file_name("a/b") != "a_b");
    // A name shaped like a changed one is itself changed: it cannot take another's file.
    const std::string changed = safe_file_name("");
    QVERIFY(safe_file_name(changed) != changed);
  }

  void aCutNameEndsOnACharacter() {
    std::string name;
    for (int i = 0; i < 60; ++i) name += "é";  // two bytes each
    const std::string safe = safe_file_name(name);
    QVERIFY(safe.size() <= lb::files::kSafeFileNameMaxBytes);
    QVERIFY(lb::files::is_confined_file_name(safe));
  }

  void confinedWriteRefusesALinkedFolder() {
    QTemporaryDir tmp;
    const fs::path root = tmp.filePath("report").toStdString();
    const fs::path elsewhere = tmp.filePath("ssh").toStdString();
    fs::create_directories(root);
    fs::create_directories(elsewhere);
    spit(elsewhere / "authorized_keys", "mine\n");
    fs::create_directory_symlink(elsewhere, root / "texts");
    std::string error;
    QVERIFY(!lb::files::write_confined(root, "texts/authorized_keys", "theirs\n", &error));
    QVERIFY2(error.find("texts") != std::string::npos, error.c_str());
    QCOMPARE(slurp(elsewhere / "authorized_keys"), std::string("mine\n"));
    QVERIFY(!lb::files::write_confined(root, "../outside", "x", &error));
    QVERIFY(!lb::files::write_confined(root, "/tmp/outside", "x", &error));
    QVERIFY(!fs::exists(tmp.filePath("outside").toStdString()));
  }

  // A run with tens of thousands of connections can use every descriptor: writing its folder
  // then fails for that reason, said as such, and not as a link that was never there.
  void aFolderThatCannotBeOpenedIsNotBlamedOnALink() {
    QTemporaryDir tmp;
    const fs::path root = tmp.filePath("run").toStdString();
    fs::create_directories(root);
    rlimit saved{};
    QCOMPARE(getrlimit(RLIMIT_NOFILE, &saved), 0);
    // The lowest free descriptor: every one below it is in use.
    const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    QVERIFY(probe >= 0);
    ::close(probe);
    rlimit none = saved;
    none.rlim_cur = static_cast<rlim_t>(probe);
    QCOMPARE(setrlimit(RLIMIT_NOFILE, &none), 0);
    std::string error;
    const bool wrote = lb::files::write_confined(root, "summary.json", "{}", &error);
    setrlimit(RLIMIT_NOFILE, &saved);
    // One descriptor left: the folder opens, the file to append to does not (requests.jsonl,
    // not there yet, so a look at what is there finds nothing and must not change the reason).
    rlimit one_left = saved;
    one_left.rlim_cur = static_cast<rlim_t>(probe) + 1;
    QCOMPARE(setrlimit(RLIMIT_NOFILE, &one_left), 0);
    std::string append_error;
    const int appended = lb::files::open_confined_append(root, "requests.jsonl", &append_error);
    setrlimit(RLIMIT_NOFILE, &saved);
    if (appended >= 0) ::close(appended);
    QVERIFY(!wrote);
    QVERIFY2(error.find(std::strerror(EMFILE)) != std::string::npos, error.c_str());
    QVERIFY2(error.find("link") == std::string::npos, error.c_str());
    QVERIFY(appended < 0);
    QVERIFY2(append_error.find(std::strerror(EMFILE)) != std::string::npos, append_error.c_str());

    const fs::path linked = tmp.filePath("linked").toStdString();
    fs::create_directory_symlink(root, linked);
    QVERIFY(!lb::files::write_confined(linked.string(), "summary.json", "{}", &error));
    QVERIFY2(error.find("is a link or not a folder") != std::string::npos, error.c_str());
  }

  void confinedWriteReplacesALinkedFileInsteadOfWritingThroughIt() {
    QTemporaryDir tmp;
    const fs::path root = tmp.filePath("run").toStdString();
    fs::create_directories(root);
    spit(tmp.filePath("bashrc").toStdString(), "mine\n");
    fs::create_symlink(tmp.filePath("bashrc").toStdString(), root / "summary.json");
    std::string error;
    QVERIFY2(lb::files::write_confined(root, "summary.json", "{}\n", &error), error.c_str());
    QCOMPARE(slurp(tmp.filePath("bashrc").toStdString()), std::string("mine\n"));
    QVERIFY(!fs::is_symlink(root / "summary.json"));
    QVERIFY(lb::files::write_confined(root, "charts/a.svg", "<svg/>", &error));
    QCOMPARE(slurp(root / "charts" / "a.svg"), std::string("<svg/>"));
  }

  void confinedAppendRefusesALinkAndAFifo() {
    QTemporaryDir tmp;
    const fs::path root = tmp.filePath("run").toStdString();
    fs::create_directories(root);
    spit(tmp.filePath("bashrc").toStdString(), "mine\n");
    fs::create_symlink(tmp.filePath("bashrc").toStdString(), root / "requests.jsonl");
    std::string error;
    QCOMPARE(lb::files::open_confined_append(root, "requests.jsonl", &error), -1);
    fs::remove(root / "requests.jsonl");
    QCOMPARE(::mkfifo((root / "requests.jsonl").c_str(), 0600), 0);
    QCOMPARE(lb::files::open_confined_append(root, "requests.jsonl", &error), -1);
    QVERIFY2(error.find("not a regular file") != std::string::npos, error.c_str());
  }

  void readingAFifoOrADeviceIsRefusedWithoutBlocking() {
    QTemporaryDir tmp;
    const std::string fifo = tmp.filePath("plan.json").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    QVERIFY(!lb::files::read_regular_file(fifo, 1024, &error));
    QVERIFY2(error.find("FIFO") != std::string::npos, error.c_str());
    QVERIFY(!lb::files::read_regular_file("/dev/zero", 1024, &error));
    QVERIFY2(error.find("device") != std::string::npos, error.c_str());
    QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  }

  void readsStopAtTheStatedLimit() {
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("big.json").toStdString();
    spit(path, std::string(2000, 'x'));
    std::string error;
    QVERIFY(!lb::files::read_regular_file(path, 1999, &error));
    QVERIFY2(error.find("larger than 1999 bytes") != std::string::npos, error.c_str());
    QCOMPARE(lb::files::read_regular_file(path, 2000, &error)->size(), size_t{2000});
  }

  void aLinkIsNotReadWhenCopyingOutOfAFolder() {
    QTemporaryDir tmp;
    spit(tmp.filePath("id_rsa").toStdString(), "secret");
    const std::string link = tmp.filePath("a.texts.json").toStdString();
    fs::create_symlink(tmp.filePath("id_rsa").toStdString(), link);
    std::string error;
    QVERIFY(!lb::files::read_regular_file(link, 1024, &error, lb::files::Links::Refuse));
    QVERIFY(lb::files::read_regular_file(link, 1024, &error, lb::files::Links::Follow));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestFilesConfinement)
#include "files_confinement_test.moc"
