// SHA-256 known answers (values from Python's hashlib) and the parallel hasher's progress,
// cancellation and per-file errors.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <atomic>
#include <filesystem>
#include <memory>

#include "checkpoint_fixture.h"
#include "core/artifacts/parallel_hasher.h"
#include "core/artifacts/sha256.h"

using namespace lb::artifacts;
namespace fs = std::filesystem;

namespace {
const char* const kEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const char* const kAbc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const char* const kMiBZeros = "30e14955ebf1352266dc2ff8067e68104607e750abb9d3b36582b8af909fcb58";
}  // namespace

class Sha256Test : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  fs::path dir() const { return tmp_.path().toStdString(); }

 private slots:
  void known_answers_in_memory() {
    QCOMPARE(sha256_hex(""), std::string(kEmpty));
    QCOMPARE(sha256_hex("abc"), std::string(kAbc));
    QCOMPARE(sha256_hex(std::string(1 << 20, '\0')), std::string(kMiBZeros));
  }

  void streaming_split_anywhere_matches_one_shot() {
    const std::string data = "The quick brown fox jumps over the lazy dog, many times over. abc";
    for (std::size_t cut = 0; cut <= data.size(); cut += 7) {
      Sha256Stream s;
      s.update(data.data(), cut);
      s.update(data.data() + cut, data.size() - cut);
      QCOMPARE(s.final_hex(), sha256_hex(data));
    }
    Sha256Stream reused;  // final_hex resets, so one stream serves many files
    reused.update("abc", 3);
    QCOMPARE(reused.final_hex(), std::string(kAbc));
    QCOMPARE(reused.final_hex(), std::string(kEmpty));
  }

  void known_answers_from_files_across_chunk_sizes() {
    testing::write_file(dir() / "empty", "");
    testing::write_file(dir() / "abc", "abc");
    testing::write_file(dir() / "zeros", std::string(1 << 20, '\0'));
    for (std::size_t buffer_bytes : {std::size_t{4096}, std::size_t{1000}, kHashChunkBytes}) {
      auto buffer = std::make_unique<char[]>(buffer_bytes);
      std::uint64_t chunks_bytes = 0;
      const auto z = sha256_file(dir() / "zeros", buffer.get(), buffer_bytes,
                                 [&](std::uint64_t n) { chunks_bytes += n; });
      QVERIFY(z.ok());
      QCOMPARE(z.sha256, std::string(kMiBZeros));
      QCOMPARE(z.size_bytes, std::uint64_t{1} << 20);
      QCOMPARE(chunks_bytes, std::uint64_t{1} << 20);
      QCOMPARE(sha256_file(dir() / "empty", buffer.get(), buffer_bytes).sha256,
               std::string(kEmpty));
      QCOMPARE(sha256_file(dir() / "abc", buffer.get(), buffer_bytes).sha256, std::string(kAbc));
    }
  }

  void unreadable_inputs_give_errors() {
    char buffer[4096];
    const auto missing = sha256_file(dir() / "no-such-file", buffer, sizeof buffer);
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("cannot open") != std::string::npos, missing.error.c_str());
    fs::create_directories(dir() / "a-directory");
    const auto directory = sha256_file(dir() / "a-directory", buffer, sizeof buffer);
    QVERIFY(!directory.ok());
    QVERIFY2(directory.error.find("directory") != std::string::npos, directory.error.c_str());
    QVERIFY(directory.sha256.empty());
  }

  void parallel_hashes_match_and_progress_adds_up() {
    std::vector<HashJob> jobs;
    std::vector<std::string> contents;
    for (int i = 0; i < 9; ++i) {
      contents.push_back(std::string(std::size_t(i) * 300000 + 17, static_cast<char>('a' + i)));
      const fs::path p = dir() / ("f" + std::to_string(i));
      testing::write_file(p, contents.back());
      jobs.push_back({p, contents.back().size()});
    }
    jobs.push_back({dir() / "missing-file", 0});
    HashOptions options;
    options.threads = 3;
    options.buffer_bytes = 65536;
    HashProgress last;
    std::uint64_t previous_bytes = 0;
    bool monotonic = true;
    options.on_progress = [&](const HashProgress& p) {
      monotonic = monotonic && p.bytes_done >= previous_bytes;
      previous_bytes = p.bytes_done;
      last = p;
    };
    const auto results = hash_files(jobs, options);
    QCOMPARE(results.size(), jobs.size());
    for (std::size_t i = 0; i < contents.size(); ++i) {
      QVERIFY(results[i].ok());
      QCOMPARE(results[i].sha256, sha256_hex(contents[i]));  // result i belongs to job i
    }
    QVERIFY(!results.back().ok());
    QVERIFY(monotonic);
    QCOMPARE(last.files_done, jobs.size());
    QCOMPARE(last.files_total, jobs.size());
    QCOMPARE(last.bytes_done, last.bytes_total);
  }

  void cancel_stops_the_pool() {
    std::vector<HashJob> jobs;
    for (int i = 0; i < 6; ++i) {
      const fs::path p = dir() / ("c" + std::to_string(i));
      testing::write_file(p, std::string(1 << 20, 'x'));
      jobs.push_back({p, 1 << 20});
    }
    std::atomic<bool> cancel{false};
    HashOptions options;
    options.threads = 2;
    options.buffer_bytes = 65536;
    options.cancel = &cancel;
    options.on_progress = [&](const HashProgress& p) {
      if (p.bytes_done >= (1 << 20)) {
        cancel = true;  // after about one file's worth
      }
    };
    const auto results = hash_files(jobs, options);
    std::size_t cancelled = 0;
    for (const auto& r : results) {
      cancelled += r.cancelled;
    }
    QVERIFY2(cancelled >= 3, std::to_string(cancelled).c_str());
    for (const auto& r : results) {
      QVERIFY(r.cancelled || r.sha256 == sha256_hex(std::string(1 << 20, 'x')));
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(Sha256Test)
#include "artifacts_sha256_test.moc"
