// `lanebench-cli fleet k8s` without a cluster: the manifests it writes are validated against the
// Kubernetes API schemas (the kubernetes-models package from npm, generated from Kubernetes'
// OpenAPI spec; installed into the build folder on first use), and each index of the Indexed Job
// is then run here as its pod would run it (the container's args, JOB_COMPLETION_INDEX set, the
// ConfigMap and the volume as local folders), then the merge Job's command. No Kubernetes cluster
// is available to the tests; docs/fleet.md says so.
#include <QtTest>

#include <fstream>
#include <regex>

#include "test_main.h"

#include "cli_process.h"
#include "run_folder_reader.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace lb::test;

namespace fleet_k8s_test {

const fs::path kCheckDir = LANEBENCH_K8S_CHECK_DIR;
const fs::path kScripts = LANEBENCH_K8S_SCRIPTS;

json k8s_plan() {
  return {{"name", "Fleet K8s"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}, {"api_key_env", "FP8_KEY"}},
            {{"id", "fp8-mtp"}, {"base_url", "sim:fp8-mtp3?time_scale=0.01"}}}},
          {"experiments",
           {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 4}, {"output_tokens", 8}},
            {{"kind", "gates"}, {"checks", {"json"}}, {"repeat", 1}}}}};
}

// The pod's paths as this machine's: the ConfigMap's mount and the results volume.
std::string local(std::string arg, const fs::path& plan_dir, const fs::path& results, int index) {
  auto replace = [&](const std::string& from, const std::string& to) {
    for (size_t at = arg.find(from); at != std::string::npos; at = arg.find(from, at + to.size()))
      arg.replace(at, from.size(), to);
  };
  replace("/etc/lanebench", plan_dir.string());
  replace("/results", results.string());
  replace("$(JOB_COMPLETION_INDEX)", std::to_string(index));
  return arg;
}

}  // namespace fleet_k8s_test

using namespace fleet_k8s_test;

class TestFleetK8s : public QObject {
  Q_OBJECT

  fs::path dir_;

  std::string validate(const fs::path& manifest) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("NODE_PATH", QString::fromStdString((kCheckDir / "node_modules").string()));
    const auto r =
        run_program("node", {qstr(kScripts / "validate_manifest.js"), qstr(manifest)}, env, 30'000);
    return r.out + r.err;
  }

 private slots:
  void initTestCase() {
    if (QStandardPaths::findExecutable("node").isEmpty() ||
        QStandardPaths::findExecutable("npm").isEmpty())
      QFAIL("node and npm are needed to validate the manifests (scripts/bootstrap.sh --tests)");
    if (!fs::exists(kCheckDir / "node_modules" / "kubernetes-models")) {
      fs::create_directories(kCheckDir);
      fs::copy_file(kScripts / "package.json", kCheckDir / "package.json",
                    fs::copy_options::overwrite_existing);
      const auto r =
          run_program("npm", {"install", "--no-audit", "--no-fund", "--prefix", qstr(kCheckDir)},
                      QProcessEnvironment::systemEnvironment(), 180'000);
      QVERIFY2(r.exit_code == 0, (r.out + r.err).c_str());
    }
    dir_ = fresh_dir("lb-fleet-k8s");
    fs::create_directories(dir_);
  }
  void cleanupTestCase() { fs::remove_all(dir_); }

  void theSchemaCheckRefusesABrokenJob() {
    std::ofstream(dir_ / "broken.json")
        << json{{"apiVersion", "batch/v1"},
                {"kind", "Job"},
                {"metadata", {{"name", "x"}}},
                {"spec",
                 {{"completions", "three"},
                  {"template", {{"spec", {{"containers", {{{"name", "c"}}}}}}}}}}}
               .dump();
    const std::string verdict = validate(dir_ / "broken.json");
    QVERIFY2(verdict.find("invalid") != std::string::npos &&
                 verdict.find("completions") != std::string::npos,
             verdict.c_str());
  }

  void manifestsAreValidAndEachIndexRunsAsItsPodWould() {
    const std::string plan_path = write_plan_file(dir_ / "plan.json", k8s_plan());
    const fs::path out = dir_ / "manifests";
    const auto written =
        run_program(cli_path(), {"fleet", "k8s", qstr(plan_path), "--out", qstr(out), "--image",
                                 "registry.example.com/lanebench:0.1.0", "--gpus-per-pod", "1",
                                 "--queue", "team-a", "--secret", "lane-keys"});
    QVERIFY2(written.exit_code == 0, written.err.c_str());
    QVERIFY(written.out.find("kubectl wait --for=condition=complete") != std::string::npos);
    for (const char* name : {"configmap.json", "pvc.json", "shards-job.json", "merge-job.json"}) {
      const std::string verdict = validate(out / name);
      QVERIFY2(verdict.rfind("valid", 0) == 0, (std::string(name) + ": " + verdict).c_str());
    }
    const json job = read_json(out / "shards-job.json");
    const json& spec = job["spec"];
    QCOMPARE(spec["completionMode"], "Indexed");
    QCOMPARE(spec["completions"], 3);
    QCOMPARE(spec["parallelism"], 3);
    QCOMPARE(spec["template"]["spec"]["restartPolicy"], "Never");
    QCOMPARE(spec["podFailurePolicy"]["rules"][0]["action"], "FailJob");
    QCOMPARE(spec["podFailurePolicy"]["rules"][0]["onExitCodes"]["values"], json({2}));
    QCOMPARE(job["metadata"]["name"], "lanebench-fleet-k8s-shards");
    QCOMPARE(job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "team-a");
    const json& container = spec["template"]["spec"]["containers"][0];
    QCOMPARE(container["resources"]["limits"]["nvidia.com/gpu"], 1);
    // The key comes from the Secret by reference; no value is written.
    bool key_from_secret = false;
    for (const json& e : container["env"])
      if (e["name"] == "FP8_KEY")
        key_from_secret =
            e["valueFrom"]["secretKeyRef"] == json{{"name", "lane-keys"}, {"key", "FP8_KEY"}} &&
            !e.contains("value");
    QVERIFY(key_from_secret);
    const json config_map = read_json(out / "configmap.json");
    QCOMPARE(config_map["data"]["plan.json"].get<std::string>(), read_text(plan_path));

    // Each index as its pod runs it.
    const fs::path mounted = dir_ / "mounted";
    const fs::path results = dir_ / "results";
    fs::create_directories(mounted);
    fs::create_directories(results);
    std::ofstream(mounted / "plan.json") << config_map["data"]["plan.json"].get<std::string>();
    for (int i = 0; i < 3; ++i) {
      QStringList args;
      for (const json& a : container["args"])
        args << QString::fromStdString(local(a.get<std::string>(), mounted, results, i));
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("JOB_COMPLETION_INDEX", QString::number(i));
      env.insert("FP8_KEY", "k8s-test-key-value");
      const auto r = run_program(cli_path(), args, env, 120'000);
      QVERIFY2(r.exit_code == 0, r.err.c_str());
      QVERIFY(fs::exists(results / "shards" / ("shard-" + std::to_string(i)) / "shard.json"));
    }
    const json merge_job = read_json(out / "merge-job.json");
    const json& merger = merge_job["spec"]["template"]["spec"]["containers"][0];
    QCOMPARE(merger["command"][0], "/bin/sh");
    std::string script = local(merger["command"][2].get<std::string>(), mounted, results, 0);
    script = std::regex_replace(script, std::regex("exec lanebench-cli "),
                                std::string("exec '") + cli_path() + "' ");
    const auto merged = run_program("/bin/sh", {"-c", QString::fromStdString(script)});
    QVERIFY2(merged.exit_code == 0, merged.err.c_str());
    const json summary = read_json(results / "run" / "summary.json");
    QCOMPARE(summary["shards"].size(), size_t(3));
    QCOMPARE(summary["experiments"][0]["lanes"].size(), size_t(3));
    QVERIFY(!summary["experiments"][0]["comparisons"].empty());
    // The key reached no file of the merged run.
    for (const fs::path& f : files_under(results))
      QVERIFY2(read_text(f).find("k8s-test-key-value") == std::string::npos, f.c_str());
  }

  void aPlanInvalidExitIsTheOneTheJobFailsOn() {
    std::ofstream(dir_ / "invalid.json") << "{\"name\": \"x\", \"lanes\": []}";
    const auto r = run_program(cli_path(), {"run", qstr(dir_ / "invalid.json"), "--shard", "auto/3",
                                            "--out", qstr(dir_ / "never")});
    QCOMPARE(r.exit_code, 2);
    const auto missing = run_program(
        cli_path(), {"fleet", "k8s", qstr(dir_ / "plan.json"), "--out", qstr(dir_ / "m2"),
                     "--image", "registry.example.com/lanebench:0.1.0"});
    QCOMPARE(missing.exit_code, 2);  // FP8_KEY needs a Secret
    QVERIFY2(missing.err.find("--secret") != std::string::npos, missing.err.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestFleetK8s)
#include "app_cli_fleet_k8s_test.moc"
