// verify_checkpoint end to end on folders built here: JSON and sha256sum inventories, the
// Hugging Face cache layout, mismatches, missing and extra files, refused payloads, hostile
// headers, link loops and unreadable entries. Tests run as root, for whom chmod 000 does not
// make a file unreadable, so "unreadable" is made from a dangling link and from a directory
// standing where the inventory expects a file.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "checkpoint_fixture.h"
#include "core/artifacts/sha256.h"
#include "core/artifacts/verification.h"

using namespace lb::artifacts;
namespace fs = std::filesystem;

namespace {

const FileVerdict* find(const VerifyReport& r, const std::string& path) {
  for (const auto& f : r.files) {
    if (f.path == path) {
      return &f;
    }
  }
  return nullptr;
}

std::string describe(const VerifyReport& r) {
  std::string s = "input_error=" + r.input_error + "\n";
  for (const auto& p : r.inventory_problems) {
    s += "line " + std::to_string(p.line) + ": " + p.message + "\n";
  }
  for (const auto& f : r.files) {
    s += std::string(file_status_name(f.status)) + " " + f.path + " " + f.detail + "\n";
  }
  for (const auto& f : r.findings) {
    s += std::string(severity_name(f.severity)) + " " + f.path + " " + f.reason + "\n";
  }
  return s;
}

FileStatus status_of(const VerifyReport& r, const std::string& path) {
  const FileVerdict* f = find(r, path);
  return f ? f->status : FileStatus::Cancelled;  // Cancelled never occurs in these tests
}

}  // namespace

class VerificationTest : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  fs::path dir() const { return tmp_.path().toStdString(); }
  fs::path model() const { return dir() / "model"; }

  // Two shards, a config and a tokenizer; returns the JSON inventory text.
  std::string make_checkpoint() {
    fs::remove_all(model());
    const std::string s1 = testing::safetensors_bytes({{"a", "BF16", {64, 32}, 16}});
    const std::string s2 =
        testing::safetensors_bytes({{"b", "F32", {100}, 32}, {"c", "I8", {5}, 8}});
    const std::string config = R"({"architectures":["Qwen3ForCausalLM"]})";
    const std::string tok = R"({"model":{"vocab":{"a":0}}})";
    testing::write_file(model() / "model-00001-of-00002.safetensors", s1);
    testing::write_file(model() / "model-00002-of-00002.safetensors", s2);
    testing::write_file(model() / "config.json", config);
    testing::write_file(model() / "tok" / "tokenizer.json", tok);
    nlohmann::json inv = {{"model-00001-of-00002.safetensors", sha256_hex(s1)},
                          {"model-00002-of-00002.safetensors", sha256_hex(s2)},
                          {"config.json", sha256_hex(config)},
                          {"tok/tokenizer.json", sha256_hex(tok)}};
    return inv.dump(2);
  }

  VerifyReport verify(const fs::path& folder, const fs::path& inventory = {}) {
    VerifyOptions options;
    options.inventory = inventory;
    options.hashing.threads = 2;
    return verify_checkpoint(folder, options);
  }

 private slots:
  void json_inventory_all_ok() {
    testing::write_file(dir() / "inv.json", make_checkpoint());
    const auto r = verify(model(), dir() / "inv.json");
    QVERIFY2(r.passed(), describe(r).c_str());
    QCOMPARE(r.exit_code(), 0);
    QCOMPARE(r.totals.ok, std::size_t{4});
    QCOMPARE(r.totals.safetensors_checked, std::size_t{2});
    QCOMPARE(r.inventory_format, std::string("json"));
    QVERIFY(r.totals.bytes_hashed > 64 * 32 * 2);
  }

  void mismatch_missing_and_extra() {
    testing::write_file(dir() / "inv.json", make_checkpoint());
    std::string shard = testing::read_file(model() / "model-00002-of-00002.safetensors");
    shard.back() ^= 1;  // one bit of tensor data: the header stays valid, the hash does not
    testing::write_file(model() / "model-00002-of-00002.safetensors", shard);
    fs::remove(model() / "config.json");
    testing::write_file(model() / "notes.txt", "hello");
    const auto r = verify(model(), dir() / "inv.json");
    QCOMPARE(r.exit_code(), 1);
    const FileVerdict* m = find(r, "model-00002-of-00002.safetensors");
    QVERIFY(m && m->status == FileStatus::Mismatch);
    QCOMPARE(m->actual, sha256_hex(shard));
    QVERIFY(m->expected != m->actual && is_sha256_hex(m->expected));
    QCOMPARE(status_of(r, "config.json"), FileStatus::Missing);
    QCOMPARE(status_of(r, "notes.txt"), FileStatus::Extra);
    QCOMPARE(status_of(r, "model-00001-of-00002.safetensors"), FileStatus::Ok);
    QCOMPARE(r.totals.mismatch + r.totals.missing + r.totals.extra, std::size_t{3});
    QVERIFY2(r.totals.safetensors_invalid == 0, describe(r).c_str());
  }

  void sha256sum_inventory_inside_the_folder_is_not_extra() {
    const auto inv = nlohmann::json::parse(make_checkpoint());
    std::string sums;
    for (const auto& [path, hash] : inv.items()) {
      sums += hash.get<std::string>() + " *" + path + "\n";
    }
    testing::write_file(model() / "SHA256SUMS", sums);
    const auto r = verify(model(), model() / "SHA256SUMS");
    QVERIFY2(r.passed(), describe(r).c_str());
    QCOMPARE(r.inventory_format, std::string("sha256sum"));
    QVERIFY(!find(r, "SHA256SUMS"));
  }

  void malformed_inventory_is_an_input_error_with_lines() {
    make_checkpoint();
    testing::write_file(dir() / "bad.sums", std::string(64, 'a') + "  ok\nzz  bad\n");
    const auto r = verify(model(), dir() / "bad.sums");
    QCOMPARE(r.exit_code(), 2);
    QCOMPARE(r.inventory_problems.size(), std::size_t{1});
    QCOMPARE(r.inventory_problems[0].line, 2);
    QVERIFY(r.files.empty());
  }

  void unlistable_folder_is_an_input_error() {
    QCOMPARE(verify(dir() / "does-not-exist").exit_code(), 2);
    testing::write_file(dir() / "plain-file", "x");
    const auto r = verify(dir() / "plain-file");
    QCOMPARE(r.exit_code(), 2);
    QVERIFY2(r.input_error.find("not a directory") != std::string::npos, r.input_error.c_str());
  }

  void no_inventory_means_unpinned() {
    make_checkpoint();
    const auto r = verify(model());
    QCOMPARE(r.exit_code(), 1);
    QCOMPARE(r.totals.unpinned, std::size_t{4});
    QCOMPARE(find(r, "config.json")->actual,
             sha256_hex(R"({"architectures":["Qwen3ForCausalLM"]})"));
  }

  void unreadable_entries_and_link_loops() {
    auto inv = nlohmann::json::parse(make_checkpoint());
    fs::create_symlink("gone.safetensors", model() / "dangling.safetensors");
    inv["dangling.safetensors"] = std::string(64, 'a');
    fs::create_directories(model() / "tokenizer.model");  // a directory where a file is expected
    inv["tokenizer.model"] = std::string(64, 'b');
    fs::create_symlink("loop-b", model() / "loop-a");
    fs::create_symlink("loop-a", model() / "loop-b");
    inv["loop-a"] = std::string(64, 'c');
    fs::create_directories(model() / "sub");
    fs::create_directory_symlink("..", model() / "sub" / "up");  // back to its own ancestor
    testing::write_file(dir() / "inv.json", inv.dump());
    const auto r = verify(model(), dir() / "inv.json");
    QCOMPARE(r.exit_code(), 1);
    QCOMPARE(status_of(r, "dangling.safetensors"), FileStatus::Unreadable);
    QVERIFY(find(r, "dangling.safetensors")->detail.find("dangling") != std::string::npos);
    QCOMPARE(status_of(r, "tokenizer.model"), FileStatus::Unreadable);
    QVERIFY(find(r, "tokenizer.model")->detail.find("is a directory") != std::string::npos);
    QCOMPARE(status_of(r, "loop-a"), FileStatus::Unreadable);
    QVERIFY2(find(r, "loop-a")->detail.find("loop") != std::string::npos, describe(r).c_str());
    QCOMPARE(status_of(r, "loop-b"), FileStatus::Extra);
    QCOMPARE(status_of(r, "sub/up"), FileStatus::Extra);
    QVERIFY(find(r, "sub/up")->detail.find("loops back") != std::string::npos);
    QCOMPARE(r.totals.ok, std::size_t{4});
  }

  void refused_payloads_and_bad_headers_fail() {
    auto inv = nlohmann::json::parse(make_checkpoint());
    const std::string pickle = std::string("\x80\x02}q\x00.", 6);
    const std::string code = "import os\n";
    const std::string cfg = R"({"auto_map":{"AutoModel":"modeling.M"}})";
    const std::string bad = testing::raw_safetensors(1000000, "{}", "");
    testing::write_file(model() / "pytorch_model.bin", pickle);
    testing::write_file(model() / "modeling.py", code);
    testing::write_file(model() / "config.json", cfg);
    testing::write_file(model() / "extra.safetensors", bad);
    inv["pytorch_model.bin"] = sha256_hex(pickle);
    inv["modeling.py"] = sha256_hex(code);
    inv["config.json"] = sha256_hex(cfg);
    inv["extra.safetensors"] = sha256_hex(bad);
    testing::write_file(dir() / "inv.json", inv.dump());
    const auto r = verify(model(), dir() / "inv.json");
    QCOMPARE(r.totals.ok, r.files.size());  // identity holds: the publisher shipped these
    QCOMPARE(r.exit_code(), 1);             // ... and the loader surface still fails
    // pytorch_model.bin is refused twice: for its name and for its pickle magic.
    QCOMPARE(r.totals.refused, std::size_t{4});
    QCOMPARE(r.totals.safetensors_invalid, std::size_t{1});
    const auto j = verify_report_json(r);
    QCOMPARE(j["passed"].get<bool>(), false);
    QCOMPARE(j["totals"]["refused"].get<int>(), 4);
    QCOMPARE(j["findings"].size(), std::size_t{4});
    QCOMPARE(j["safetensors"].size(), std::size_t{3});
  }

  void hugging_face_cache_layout() {
    const fs::path repo = dir() / "hub" / "models--org--name";
    fs::remove_all(dir() / "hub");
    const std::string rev = "0123456789abcdef0123456789abcdef01234567";
    const std::string shard = testing::safetensors_bytes({{"w", "F16", {32, 32}, 16}});
    const std::string weights_blob =
        testing::add_hf_file(repo, rev, "model.safetensors", shard, true);
    testing::add_hf_file(repo, rev, "config.json", R"({"model_type":"qwen3"})", false);
    testing::add_hf_file(repo, rev, "sub/tokenizer.json", R"({"v":1})", true);
    testing::write_file(repo / "refs" / "main", rev);

    auto r = verify(repo);
    QVERIFY2(r.passed(), describe(r).c_str());
    QCOMPARE(r.inventory_format, std::string("hf-snapshot"));
    QCOMPARE(r.revision, rev);
    QCOMPARE(r.totals.ok, std::size_t{2});
    QCOMPARE(status_of(r, "config.json"), FileStatus::GitBlob);
    QVERIFY(find(r, "config.json")->detail.find("not verifiable by SHA-256") != std::string::npos);
    QVERIFY2(verify(repo / "snapshots" / rev).passed(), "a snapshot folder works as well");

    std::string corrupt = shard;
    corrupt[corrupt.size() / 2] ^= 0x40;
    testing::write_file(repo / "blobs" / weights_blob, corrupt);
    testing::write_file(repo / "snapshots" / rev / "stray.txt", "not a link");
    r = verify(repo);
    QCOMPARE(status_of(r, "model.safetensors"), FileStatus::Mismatch);
    QCOMPARE(find(r, "model.safetensors")->expected, weights_blob);
    QCOMPARE(status_of(r, "stray.txt"), FileStatus::Extra);
    fs::remove(repo / "blobs" / weights_blob);
    r = verify(repo);
    QCOMPARE(status_of(r, "model.safetensors"), FileStatus::Missing);
    QVERIFY(find(r, "model.safetensors")->detail.find("blob missing") != std::string::npos);

    fs::remove(repo / "refs" / "main");
    fs::create_directories(repo / "snapshots" / "fedcba9876543210fedcba9876543210fedcba98");
    r = verify(repo);
    QCOMPARE(r.exit_code(), 2);
    QVERIFY2(r.input_error.find("several snapshots") != std::string::npos, r.input_error.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(VerificationTest)
#include "artifacts_verification_test.moc"
