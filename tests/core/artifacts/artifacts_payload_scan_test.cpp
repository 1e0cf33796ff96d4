// The refuse-list scan on real bytes: pickle streams, PyTorch zip archives, code, native
// libraries, execute bits and remote-code configs; a clean checkpoint yields nothing.
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <filesystem>

#include "checkpoint_fixture.h"
#include "core/artifacts/file_tree.h"
#include "core/artifacts/payload_scan.h"

using namespace lb::artifacts;
namespace fs = std::filesystem;

namespace {

std::string findings_text(const std::vector<ScanFinding>& f) {
  std::string s;
  for (const auto& x : f) {
    s += x.path + " [" + severity_name(x.severity) + "] " + x.reason + "\n";
  }
  return s;
}

bool has(const std::vector<ScanFinding>& f, const std::string& path, Severity sev,
         const std::string& fragment) {
  for (const auto& x : f) {
    if (x.path == path && x.severity == sev && x.reason.find(fragment) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::size_t count_for(const std::vector<ScanFinding>& f, const std::string& path) {
  std::size_t n = 0;
  for (const auto& x : f) {
    n += x.path == path;
  }
  return n;
}

}  // namespace

class PayloadScanTest : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  fs::path dir() const { return tmp_.path().toStdString(); }
  std::vector<ScanFinding> scan() { return scan_tree(walk_file_tree(dir())); }
  void put(const std::string& name, const std::string& bytes) {
    testing::write_file(dir() / name, bytes);
  }

 private slots:
  void init() {
    for (const auto& e : fs::directory_iterator(dir())) {
      fs::remove_all(e.path());
    }
  }

  void clean_checkpoint_has_no_findings() {
    put("model.safetensors", testing::safetensors_bytes({{"w", "F16", {4, 4}, 16}}));
    put("config.json", R"({"architectures":["Qwen3ForCausalLM"],"text_config":{"hidden_size":8},)"
                       R"("trust_remote_code":false})");
    // The names as vocabulary strings are data, not keys a loader acts on.
    put("tokenizer.json", R"({"model":{"vocab":["auto_map","trust_remote_code"]}})");
    put("README.md", "# weights\n");
    const auto f = scan();
    QVERIFY2(f.empty(), findings_text(f).c_str());
  }

  void pickle_by_magic_and_by_name() {
    put("weights.dat", std::string("\x80\x04\x95\x10", 4) + "payload");
    put("pytorch_model.bin", "no magic here");
    put("optimizer.pt", "x");
    put("scheduler.pth", "x");
    put("data.pkl", std::string("\x80\x02", 2));
    put("last.ckpt", "x");
    put("proto1.dat", std::string("\x80\x01", 2));  // protocol 1 has no such magic: not flagged
    const auto f = scan();
    QVERIFY2(has(f, "weights.dat", Severity::Refuse, "protocol 4"), findings_text(f).c_str());
    QVERIFY(has(f, "pytorch_model.bin", Severity::Refuse, "pickle"));
    QVERIFY(has(f, "optimizer.pt", Severity::Refuse, "pickle"));
    QVERIFY(has(f, "scheduler.pth", Severity::Refuse, "pickle"));
    QVERIFY(has(f, "data.pkl", Severity::Refuse, "protocol 2"));
    QVERIFY(has(f, "last.ckpt", Severity::Refuse, "pickle"));
    QCOMPARE(count_for(f, "proto1.dat"), std::size_t{0});
  }

  void pytorch_zip_archive_with_data_pkl() {
    put("model.weights",
        testing::zip_bytes({{"archive/data.pkl", std::string("\x80\x02}q\x00.", 6)},
                            {"archive/data/0", std::string(64, '\1')},
                            {"archive/version", "3\n"}}));
    put("bundle.zip", testing::zip_bytes({{"readme.txt", "hello"}}));
    put("broken.zip", std::string("PK\x03\x04", 4) + std::string(40, '\0'));
    const auto f = scan();
    QVERIFY2(has(f, "model.weights", Severity::Refuse, "archive/data.pkl"),
             findings_text(f).c_str());
    QVERIFY(has(f, "bundle.zip", Severity::Warn, "zip archive"));
    QVERIFY2(has(f, "broken.zip", Severity::Warn, "unreadable directory"),
             findings_text(f).c_str());
  }

  void code_and_native_libraries() {
    put("modeling_qwen.py", "import os\n");
    put("sub/kernels.so", "x");
    put("libfast.so.1", "x");
    put("helper.dll", "x");
    put("helper.dylib", "x");
    put("tokenizer.model", std::string("\x7f"
                                       "ELF\x02\x01\x01",
                                       7));
    put("setup.dat", "MZ\x90\x00");
    put("macho.dat", std::string("\xcf\xfa\xed\xfe", 4));
    put("run.sh", "#!/bin/sh\nrm -rf /\n");
    const auto f = scan();
    QVERIFY2(has(f, "modeling_qwen.py", Severity::Refuse, "Python"), findings_text(f).c_str());
    QVERIFY(has(f, "sub/kernels.so", Severity::Refuse, "native"));
    QVERIFY(has(f, "libfast.so.1", Severity::Refuse, "native"));
    QVERIFY(has(f, "helper.dll", Severity::Refuse, "native"));
    QVERIFY(has(f, "helper.dylib", Severity::Refuse, "native"));
    QVERIFY(has(f, "tokenizer.model", Severity::Refuse, "ELF"));
    QVERIFY(has(f, "setup.dat", Severity::Refuse, "PE"));
    QVERIFY(has(f, "macho.dat", Severity::Refuse, "Mach-O"));
    QVERIFY(has(f, "run.sh", Severity::Refuse, "#!"));
  }

  void execute_bit_warns_on_data_files() {
    put("model.safetensors", testing::safetensors_bytes({{"w", "U8", {3}, 8}}));
    fs::permissions(dir() / "model.safetensors", fs::perms::owner_exec, fs::perm_options::add);
    const auto f = scan();
    QVERIFY2(has(f, "model.safetensors", Severity::Warn, "execute permission"),
             findings_text(f).c_str());
    QCOMPARE(count_for(f, "model.safetensors"), std::size_t{1});
  }

  void remote_code_configs() {
    put("config.json", R"({"auto_map":{"AutoModel":"modeling_x.Model"},"model_type":"x"})");
    put("tokenizer_config.json", R"({"tokenizer_class":"T","trust_remote_code":true})");
    put("generation_config.json", R"({"nested":[{"deep":{"trust_remote_code":"yes"}}]})");
    put("preprocessor_config.json", R"({"trust_remote_code":false})");
    put("broken.json", R"({"auto_map": )");
    const auto f = scan();
    QVERIFY2(has(f, "config.json", Severity::Refuse, "auto_map at /auto_map"),
             findings_text(f).c_str());
    QVERIFY(has(f, "tokenizer_config.json", Severity::Refuse, "trust_remote_code"));
    QVERIFY2(has(f, "generation_config.json", Severity::Refuse, "/nested/0/deep/trust_remote_code"),
             findings_text(f).c_str());
    QCOMPARE(count_for(f, "preprocessor_config.json"), std::size_t{0});
    QVERIFY(has(f, "broken.json", Severity::Warn, "not valid JSON"));
  }

  void unicode_escaped_key_is_still_found() {
    put("config.json", R"({"auto\u005fmap":{"AutoModel":"m.M"}})");
    QVERIFY(has(scan(), "config.json", Severity::Refuse, "auto_map"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PayloadScanTest)
#include "artifacts_payload_scan_test.moc"
