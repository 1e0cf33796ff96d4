// safetensors header validation: files written by the test's writer pass; each hostile case
// gets a clear issue and never a crash, a hang or a read of the (possibly absent) tensor data.
#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <filesystem>

#include "checkpoint_fixture.h"
#include "core/artifacts/safetensors_header.h"

using namespace lb::artifacts;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kAbsurdHeaderBytes = ~std::uint64_t{0} - 255;

std::string issues_text(const SafetensorsCheck& c) {
  std::string s;
  for (const auto& i : c.issues) {
    s += i + "\n";
  }
  return s;
}

bool mentions(const SafetensorsCheck& c, const std::string& fragment) {
  for (const auto& i : c.issues) {
    if (i.find(fragment) != std::string::npos) {
      return true;
    }
  }
  return false;
}

// A one-tensor header: U8 shape [n] at [begin, end).
std::string one_tensor(const std::string& dtype, const std::string& shape,
                       const std::string& offsets) {
  return "{\"t\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":" + offsets +
         "}}";
}

}  // namespace

class SafetensorsHeaderTest : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  fs::path dir() const { return tmp_.path().toStdString(); }

  SafetensorsCheck check_bytes(const std::string& name, const std::string& bytes) {
    testing::write_file(dir() / name, bytes);
    return check_safetensors_file(dir() / name);
  }
  SafetensorsCheck check_header(const std::string& name, const std::string& header,
                                std::size_t data) {
    return check_bytes(name,
                       testing::raw_safetensors(header.size(), header, std::string(data, '\0')));
  }

 private slots:
  void valid_files_pass() {
    const auto good = check_bytes(
        "good.safetensors", testing::safetensors_bytes({{"embed", "BF16", {16, 8}, 16},
                                                        {"scale", "F8_E4M3", {8}, 8},
                                                        {"mask", "BOOL", {3}, 8},
                                                        {"empty", "F32", {0, 4}, 32},
                                                        {"packed", "F4", {2, 3}, 4},
                                                        {"ids", "I64", {2}, 64}},
                                                       R"({"format":"pt","producer":"test"})"));
    QVERIFY2(good.ok(), issues_text(good).c_str());
    QCOMPARE(good.tensors, std::size_t{6});
    QCOMPARE(good.header_bytes % 8, std::uint64_t{0});
    QCOMPARE(good.data_bytes, std::uint64_t{16 * 8 * 2 + 8 + 3 + 0 + 3 + 16});
    const auto empty = check_bytes("none.safetensors", testing::safetensors_bytes({}));
    QVERIFY2(empty.ok(), issues_text(empty).c_str());
  }

  void dtype_sizes_follow_the_spec() {
    QCOMPARE(*safetensors_dtype_bits("BF16"), 16u);
    QCOMPARE(*safetensors_dtype_bits("F8_E5M2"), 8u);
    QCOMPARE(*safetensors_dtype_bits("F6_E3M2"), 6u);
    QCOMPARE(*safetensors_dtype_bits("F64"), 64u);
    QVERIFY(!safetensors_dtype_bits("f32"));
    QVERIFY(!safetensors_dtype_bits("Q4_K"));
  }

  void absurd_or_truncated_lengths() {
    const auto absurd =
        check_bytes("absurd.safetensors", testing::raw_safetensors(kAbsurdHeaderBytes, "{}", ""));
    QVERIFY2(mentions(absurd, "exceeds the 100000000-byte limit"), issues_text(absurd).c_str());
    const auto over = check_bytes(
        "over.safetensors", testing::raw_safetensors(kMaxSafetensorsHeaderBytes + 1, "{}", ""));
    QVERIFY(mentions(over, "exceeds"));
    const auto past = check_bytes("past.safetensors", testing::raw_safetensors(4096, "{}", ""));
    QVERIFY2(mentions(past, "runs past the end"), issues_text(past).c_str());
    const auto tiny = check_bytes("tiny.safetensors", std::string(3, '\x02'));
    QVERIFY2(mentions(tiny, "truncated: 3 bytes"), issues_text(tiny).c_str());
    const auto zero = check_bytes("zero.safetensors", "");
    QVERIFY(mentions(zero, "truncated: 0 bytes"));
  }

  void truncated_data_region() {
    std::string bytes =
        testing::safetensors_bytes({{"a", "F32", {64}, 32}, {"b", "F32", {64}, 32}});
    bytes.resize(bytes.size() - 100);  // a download cut short
    const auto c = check_bytes("cut.safetensors", bytes);
    QVERIFY2(mentions(c, "tensor \"b\" ends at data offset 512, past the end"),
             issues_text(c).c_str());
  }

  void header_json_problems() {
    QVERIFY(mentions(check_header("json.safetensors", "{\"t\": [1, 2", 0), "not valid UTF-8 JSON"));
    QVERIFY(
        mentions(check_header("utf8.safetensors", "{\"\xff\xfe\":{}}", 0), "not valid UTF-8 JSON"));
    QVERIFY(mentions(check_header("arr.safetensors", "[1,2,3]", 0), "not an object"));
    const auto dup = check_header("dup.safetensors",
                                  R"({"t":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},)"
                                  R"("t":{"dtype":"U8","shape":[2],"data_offsets":[2,4]}})",
                                  4);
    QVERIFY2(mentions(dup, "lists a name twice"), issues_text(dup).c_str());
    const auto meta = check_header("meta.safetensors", R"({"__metadata__":{"format":1}})", 0);
    QVERIFY2(mentions(meta, "__metadata__ \"format\" is not a string"), issues_text(meta).c_str());
    QVERIFY(mentions(check_header("meta2.safetensors", R"({"__metadata__":[1]})", 0),
                     "__metadata__ is not an object"));
  }

  void tensor_entry_problems() {
    QVERIFY(mentions(check_header("dt.safetensors", one_tensor("Q4_K", "[2]", "[0,2]"), 2),
                     "unknown dtype"));
    QVERIFY(mentions(check_header("neg.safetensors", one_tensor("U8", "[-2]", "[0,2]"), 2),
                     "non-negative"));
    QVERIFY(mentions(check_header("flt.safetensors", one_tensor("U8", "[2.5]", "[0,2]"), 2),
                     "non-negative"));
    QVERIFY(mentions(check_header("off.safetensors", one_tensor("U8", "[2]", "[0]"), 2),
                     "data_offsets must"));
    QVERIFY(mentions(check_header("rev.safetensors", one_tensor("U8", "[0]", "[2,0]"), 2),
                     "before begin"));
    const auto extent = check_header("ext.safetensors", one_tensor("F32", "[2,3]", "[0,12]"), 12);
    QVERIFY2(mentions(extent, "needs 24 bytes but data_offsets span 12"),
             issues_text(extent).c_str());
    const auto huge = check_header("huge.safetensors",
                                   one_tensor("F64", "[4294967296,4294967296,16]", "[0,8]"), 8);
    QVERIFY2(mentions(huge, "overflows"), issues_text(huge).c_str());
    QVERIFY(mentions(check_header("f4.safetensors", one_tensor("F4", "[3]", "[0,2]"), 2),
                     "whole bytes"));
    QVERIFY(
        mentions(check_header("miss.safetensors", R"({"t":{"dtype":"U8"}})", 0), "needs dtype"));
  }

  void tiling_overlap_gap_and_tail() {
    const auto overlap = check_header(
        "ov.safetensors",
        R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}})",
        6);
    QVERIFY2(mentions(overlap, "overlaps \"a\""), issues_text(overlap).c_str());
    const auto gap = check_header(
        "gap.safetensors",
        R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},"b":{"dtype":"U8","shape":[4],"data_offsets":[8,12]}})",
        12);
    QVERIFY2(mentions(gap, "gap of 4 bytes before tensor \"b\""), issues_text(gap).c_str());
    const auto tail = check_header("tail.safetensors", one_tensor("U8", "[4]", "[0,4]"), 10);
    QVERIFY2(mentions(tail, "6 bytes after the last tensor"), issues_text(tail).c_str());
    const auto lead = check_header("lead.safetensors", one_tensor("U8", "[4]", "[2,6]"), 6);
    QVERIFY(mentions(lead, "gap of 2 bytes"));
  }

  void issues_are_capped() {
    std::string header = "{";
    for (int i = 0; i < 100; ++i) {
      header += (i ? "," : "") + std::string("\"t") + std::to_string(i) +
                "\":{\"dtype\":\"NOPE\",\"shape\":[1],\"data_offsets\":[0,1]}";
    }
    header += "}";
    const auto c = check_header("many.safetensors", header, 1);
    QCOMPARE(c.issues.size(), kMaxListedHeaderIssues);
    QVERIFY(c.unlisted_issues >= 80);
  }

  void not_a_readable_file() {
    fs::create_directories(dir() / "dir.safetensors");
    QVERIFY(mentions(check_safetensors_file(dir() / "dir.safetensors"), "is a directory"));
    fs::create_symlink("nowhere.safetensors", dir() / "dangling.safetensors");
    QVERIFY(mentions(check_safetensors_file(dir() / "dangling.safetensors"), "cannot open"));
    fs::create_symlink("loop-b.safetensors", dir() / "loop-a.safetensors");
    fs::create_symlink("loop-a.safetensors", dir() / "loop-b.safetensors");
    const auto loop = check_safetensors_file(dir() / "loop-a.safetensors");
    QVERIFY2(mentions(loop, "symbolic links"), issues_text(loop).c_str());
    QVERIFY(::mkfifo((dir() / "fifo.safetensors").c_str(), 0600) == 0);
    QVERIFY(mentions(check_safetensors_file(dir() / "fifo.safetensors"), "not a regular file"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SafetensorsHeaderTest)
#include "artifacts_safetensors_header_test.moc"
