// read_lines: lines come out whole across the reader's blocks, a line over the limit is skipped
// and counted (never gathered), a last line without '\n' counts, and a FIFO is refused at once.
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "core/files/line_reader.h"
#include "test_main.h"

using lb::files::LineCounts;
using lb::files::read_lines;

class FilesLineReaderTest : public QObject {
  Q_OBJECT
 private slots:
  void linesComeOutWholeAndLongOnesAreSkipped() {
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("lines.jsonl").toStdString();
    const std::string across(3 << 20, 'a');  // three of the reader's blocks
    const std::string too_long(5 << 20, 'b');
    std::ofstream(path, std::ios::binary) << "one\n\n"
                                          << across << "\n"
                                          << too_long << "\ntwo\n"
                                          << too_long << "\nlast";
    std::vector<std::string> got;
    LineCounts counts;
    std::string error;
    QVERIFY2(read_lines(
                 path, 4 << 20, [&](std::string_view l) { got.emplace_back(l); }, &counts, &error),
             error.c_str());
    QCOMPARE(got.size(), size_t{5});
    QCOMPARE(got[0], std::string("one"));
    QCOMPARE(got[1], std::string());
    QVERIFY(got[2] == across);
    QCOMPARE(got[3], std::string("two"));
    QCOMPARE(got[4], std::string("last"));
    QCOMPARE(counts.lines, int64_t{5});
    QCOMPARE(counts.too_long, int64_t{2});
  }

  void aFifoIsRefusedAtOnce() {
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("requests.jsonl").toStdString();
    QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
    std::string error;
    QVERIFY(!read_lines(
        path, 1024, [](std::string_view) {}, nullptr, &error));
    QVERIFY2(error.find("FIFO") != std::string::npos, error.c_str());
    QVERIFY(!read_lines(
        tmp.filePath("absent").toStdString(), 1024, [](std::string_view) {}, nullptr, &error));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(FilesLineReaderTest)
#include "files_line_reader_test.moc"
