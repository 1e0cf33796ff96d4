// Inventory parsing: JSON objects, sha256sum text/binary/escaped/BSD lines, and malformed
// input reported with line numbers.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <limits>

#include "test_main.h"

#include "checkpoint_fixture.h"
#include "core/artifacts/inventory.h"

using namespace lb::artifacts;

namespace {
const std::string kA(64, 'a');
const std::string kB = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

bool has_problem(const Inventory& inv, int line, const std::string& fragment) {
  for (const auto& p : inv.problems) {
    if (p.line == line && p.message.find(fragment) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::string problems_text(const Inventory& inv) {
  std::string s;
  for (const auto& p : inv.problems) {
    s += std::to_string(p.line) + ": " + p.message + "\n";
  }
  return s;
}
}  // namespace

class InventoryTest : public QObject {
  Q_OBJECT

 private slots:
  void json_object() {
    const auto inv =
        parse_inventory_text("{\n  \"model.safetensors\": \"" + kA +
                             "\",\n  \"./sub//tok.json\": \"" + std::string(64, 'F') + "\"\n}\n");
    QVERIFY2(inv.ok(), problems_text(inv).c_str());
    QCOMPARE(inv.format, InventoryFormat::Json);
    QCOMPARE(inv.entries.size(), std::size_t{2});
    // JSON objects come back sorted by key: "./sub//tok.json" sorts first.
    QCOMPARE(inv.entries[0].path, std::string("sub/tok.json"));
    QCOMPARE(inv.entries[0].digest, std::string(64, 'f'));  // case folded
    QCOMPARE(inv.entries[1].path, std::string("model.safetensors"));
  }

  void json_problems_name_their_lines() {
    const auto inv = parse_inventory_text("{\n  \"ok.bin\": \"" + kA +
                                          "\",\n  \"short.bin\": \"abc\",\n  \"n.bin\": 5,\n"
                                          "  \"../escape\": \"" +
                                          kA + "\",\n  \"/abs\": \"" + kA + "\"\n}");
    QVERIFY(!inv.ok());
    QVERIFY2(has_problem(inv, 3, "short.bin"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 4, "n.bin"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 5, "leaves the folder"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 6, "absolute"), problems_text(inv).c_str());
    QCOMPARE(inv.problems.size(), std::size_t{4});
  }

  void json_paths_that_collide_after_normalising() {
    const auto inv =
        parse_inventory_text("{\n  \"a/b\": \"" + kA + "\",\n  \"./a//b\": \"" + kB + "\"\n}");
    QCOMPARE(inv.problems.size(), std::size_t{1});
    // Keys come back sorted, so "./a//b" is taken first and "a/b" (line 2) is the repeat.
    QVERIFY2(has_problem(inv, 2, "listed again"), problems_text(inv).c_str());
  }

  // Parsing grows linearly: 100,000 entries take about ten times as long as 10,000, where a
  // quadratic parser would take a hundred times. Judged against the small parse in the same test,
  // not against a wall-clock bound that a loaded machine could break.
  void large_json_inventory_parses_in_linear_time() {
    auto inventory_of = [](int entries) {
      std::string text = "{";
      for (int i = 0; i < entries; ++i) {
        text += (i ? ",\n\"" : "\n\"") + std::string("shard-") + std::to_string(i) + "\": \"" + kA +
                "\"";
      }
      return text + "\n}";
    };
    auto fastest_parse_ns = [](const std::string& text, size_t want) {
      qint64 best = std::numeric_limits<qint64>::max();
      for (int run = 0; run < 3; ++run) {
        QElapsedTimer timer;
        timer.start();
        const auto inv = parse_json_inventory(text);
        best = std::min(best, timer.nsecsElapsed());
        if (!inv.ok() || inv.entries.size() != want) return qint64{-1};
      }
      return best;
    };
    const qint64 small_ns = fastest_parse_ns(inventory_of(10'000), 10'000);
    const qint64 large_ns = fastest_parse_ns(inventory_of(100'000), 100'000);
    QVERIFY(small_ns > 0 && large_ns > 0);
    const double ratio = double(large_ns) / double(small_ns);
    QVERIFY2(ratio < 30, std::to_string(ratio).c_str());
  }

  void json_syntax_error_line() {
    const auto inv = parse_inventory_text("{\n  \"a\": \"" + kA + "\",\n  \"b\" \"" + kA + "\"\n}");
    QCOMPARE(inv.problems.size(), std::size_t{1});
    QVERIFY2(has_problem(inv, 3, "invalid JSON"), problems_text(inv).c_str());
    QVERIFY(has_problem(parse_json_inventory("[1, 2]"), 1, "expected a JSON object"));
  }

  // Found by fuzzing: a number too large for a double is nlohmann's out_of_range, not a
  // parse_error, and used to escape the parser and end the process. A hash someone forgot to
  // quote reads as exactly such a number.
  void json_number_too_large_is_a_problem_not_a_crash() {
    const std::string text = "{\n  \"a\": \"" + kA + "\",\n  \"b\": 6564e3114\n}";
    const auto inv = parse_inventory_text(text);
    QCOMPARE(inv.problems.size(), std::size_t{1});
    QVERIFY2(has_problem(inv, 3, "invalid JSON"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 3, "6564e3114"), problems_text(inv).c_str());
    QVERIFY(inv.entries.empty());
    const auto bare = parse_json_inventory("{\"x\": 1e999}");
    QVERIFY2(has_problem(bare, 1, "invalid JSON"), problems_text(bare).c_str());
  }

  void sha256sum_text_binary_escaped_and_bsd() {
    const std::string text = "# pinned 2026-01-01\n" + kA + "  model-00001.safetensors\n\n" + kB +
                             " *tokenizer.json\r\n\\" + kA + "  dir/we\\\\ird\\nname\n" +
                             "SHA256 (config.json) = " + kB + "\n" + kB + "  ./name with  spaces\n";
    const auto inv = parse_inventory_text(text);
    QVERIFY2(inv.ok(), problems_text(inv).c_str());
    QCOMPARE(inv.format, InventoryFormat::Sha256Sum);
    QCOMPARE(inv.entries.size(), std::size_t{5});
    QCOMPARE(inv.entries[0].path, std::string("model-00001.safetensors"));
    QCOMPARE(inv.entries[0].line, 2);
    QCOMPARE(inv.entries[1].path, std::string("tokenizer.json"));  // binary mode, CRLF
    QCOMPARE(inv.entries[1].digest, kB);
    QCOMPARE(inv.entries[2].path, std::string("dir/we\\ird\nname"));
    QCOMPARE(inv.entries[3].path, std::string("config.json"));
    QCOMPARE(inv.entries[4].path, std::string("name with  spaces"));
  }

  void sha256sum_malformed_lines_are_numbered() {
    const std::string text = kA + "  good.bin\n" + "not-a-hash  bad.bin\n" + kA +
                             " single-space.bin\n" + kA + "\n" + kA.substr(0, 63) +
                             "  short.bin\n" + kA + "  ../up.bin\n" + kB + "  good.bin\n";
    const auto inv = parse_sha256sum_inventory(text);
    QVERIFY2(has_problem(inv, 2, "not a 64-digit"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 3, "two spaces"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 4, "expected"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 5, "not a 64-digit"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 6, "leaves the folder"), problems_text(inv).c_str());
    QVERIFY2(has_problem(inv, 7, "listed again"), problems_text(inv).c_str());
    QCOMPARE(inv.problems.size(), std::size_t{6});
  }

  void repeated_identical_line_is_harmless_and_empty_is_not() {
    const auto inv = parse_sha256sum_inventory(kA + "  a\n" + kA + "  ./a\n");
    QVERIFY(inv.ok());
    QCOMPARE(inv.entries.size(), std::size_t{1});
    QVERIFY(!parse_sha256sum_inventory("# nothing\n\n").ok());
  }

  void load_from_disk() {
    QTemporaryDir tmp;
    const std::filesystem::path dir = tmp.path().toStdString();
    testing::write_file(dir / "SHA256SUMS", kA + "  a.safetensors\n");
    const auto inv = load_inventory_file(dir / "SHA256SUMS");
    QVERIFY(inv.ok());
    QCOMPARE(inv.source, (dir / "SHA256SUMS").string());
    QVERIFY(has_problem(load_inventory_file(dir), 0, "is a directory"));
    QVERIFY(!load_inventory_file(dir / "absent").ok());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(InventoryTest)
#include "artifacts_inventory_test.moc"
