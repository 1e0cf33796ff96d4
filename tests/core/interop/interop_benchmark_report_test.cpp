// Benchmark Report v0.2 export read back against the published schema's fields: every key is one
// the schema names (the open blocks aside), the required ones are there, units are the schema's,
// and LaneBench's own evidence sits in results.observability.lanebench. Against the stored
// throughput and regression run folders, so the figures can be checked against their summaries.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/interop/benchmark_report_export.h"
#include "run_folder_reader.h"
#include "test_main.h"
#include "test_paths.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string run_folder(const char* name) {
  return lb::test::fixtures_dir() + "/run_folders/" + name;
}

// The fields of Benchmark Report v0.2 (llm-d-benchmark, benchmark_report/schema_v0_2.py): an
// object's allowed keys, "*" for a block the schema leaves open, "[]" for a list of such objects,
// "stats" for its Statistics object.
const json& schema() {
  static const json stats = {
      {"units", "leaf"}, {"mean", "leaf"}, {"mode", "leaf"}, {"stddev", "leaf"}, {"min", "leaf"},
      {"p0p1", "leaf"},  {"p1", "leaf"},   {"p5", "leaf"},   {"p10", "leaf"},    {"p25", "leaf"},
      {"p50", "leaf"},   {"p75", "leaf"},  {"p90", "leaf"},  {"p95", "leaf"},    {"p99", "leaf"},
      {"p99p9", "leaf"}, {"max", "leaf"}};
  static const json seq = {{"distribution", "leaf"},
                           {"value", "leaf"},
                           {"std_dev", "leaf"},
                           {"min", "leaf"},
                           {"max", "leaf"}};
  static const json series = {{"units", "leaf"}, {"series", "*"}};
  static const json s = {
      {"version", "leaf"},
      {"run",
       {{"uid", "leaf"},
        {"eid", "leaf"},
        {"cid", "leaf"},
        {"time", {{"start", "leaf"}, {"end", "leaf"}, {"duration", "leaf"}}},
        {"user", "leaf"}}},
      {"scenario",
       {{"stack",
         {{"[]",
           {{"metadata",
             {{"kind", "leaf"},
              {"schema_version", "leaf"},
              {"label", "leaf"},
              {"cfg_id", "leaf"},
              {"description", "leaf"}}},
            {"standardized", "*"},  // generic: tool and tool_version, then anything
            {"native", {{"args", "*"}, {"envars", "*"}, {"config", "*"}}}}}}},
        {"load",
         {{"metadata", {{"schema_version", "leaf"}, {"cfg_id", "leaf"}, {"description", "leaf"}}},
          {"standardized",
           {{"tool", "leaf"},
            {"tool_version", "leaf"},
            {"source", "leaf"},
            {"stage", "leaf"},
            {"input_seq_len", seq},
            {"output_seq_len", seq},
            {"prefix", "*"},
            {"multi_turn", "*"},
            {"rate_qps", "leaf"},
            {"concurrency", "leaf"}}},
          {"native", {{"args", "*"}, {"envars", "*"}, {"config", "*"}}}}}}},
      {"results",
       {{"request_performance",
         {{"aggregate",
           {{"requests",
             {{"total", "leaf"},
              {"failures", "leaf"},
              {"incomplete", "leaf"},
              {"input_length", stats},
              {"output_length", stats}}},
            {"latency",
             {{"time_to_first_token", stats},
              {"normalized_time_per_output_token", stats},
              {"time_per_output_token", stats},
              {"inter_token_latency", stats},
              {"request_latency", stats}}},
            {"throughput",
             {{"input_token_rate", stats},
              {"output_token_rate", stats},
              {"total_token_rate", stats},
              {"requests_rate", stats}}}}},
          {"time_series",
           {{"latency",
             {{"time_to_first_token", series},
              {"normalized_time_per_output_token", series},
              {"time_per_output_token", series},
              {"inter_token_latency", series},
              {"request_latency", series}}},
            {"throughput",
             {{"units", "leaf"},
              {"input_token_rate", series},
              {"output_token_rate", series},
              {"total_token_rate", series},
              {"request_rate", series}}}}}}},
        {"observability", "*"},
        {"profiling", "*"}}}};
  return s;
}

// Every key of VALUE that SPEC does not allow, as "path.key".
void unknown_keys(const json& value, const json& spec, const std::string& path,
                  std::vector<std::string>& out) {
  if (spec == "*" || spec == "leaf") return;
  if (spec.contains("[]")) {
    for (size_t i = 0; i < value.size(); ++i)
      unknown_keys(value[i], spec["[]"], path + "[" + std::to_string(i) + "]", out);
    return;
  }
  for (const auto& [key, child] : value.items()) {
    if (!spec.contains(key))
      out.push_back(path + "." + key);
    else
      unknown_keys(child, spec[key], path + "." + key, out);
  }
}

// Each Statistics object under NODE: its units are among ALLOWED and it has a mean.
void check_units(const json& node, const std::set<std::string>& allowed, const char* what) {
  for (const auto& [key, stat] : node.items()) {
    QVERIFY2(stat.contains("mean"), (std::string(what) + "." + key).c_str());
    QVERIFY2(allowed.count(stat["units"].get<std::string>()),
             (std::string(what) + "." + key).c_str());
  }
}

}  // namespace

class TestBenchmarkReport : public QObject {
  Q_OBJECT
 private slots:
  void throughputPhasesReadBackAgainstTheSchema() {
    const auto out = lb::interop::export_benchmark_reports(run_folder("throughput"));
    QVERIFY2(out.ok, out.error.c_str());
    const json summary = json::parse(std::ifstream(run_folder("throughput") + "/summary.json"));
    size_t phases = 0;
    for (const auto& e : summary["experiments"])
      for (const auto& [lane, l] : e["lanes"].items()) phases += l["phases"].size();
    QCOMPARE(out.files.size(), phases);
    std::set<std::string> names, uids;
    for (const auto& file : out.files) {
      const json& r = file.report;
      std::vector<std::string> unknown;
      unknown_keys(r, schema(), "", unknown);
      QVERIFY2(unknown.empty(), (file.name + ": " + (unknown.empty() ? "" : unknown[0])).c_str());
      QCOMPARE(r["version"], "0.2");
      QVERIFY(names.insert(file.name).second);
      QVERIFY(uids.insert(r["run"]["uid"].get<std::string>()).second);  // one id per report
      QCOMPARE(r["run"]["uid"].get<std::string>().size(), size_t(32));
      const json& component = r["scenario"]["stack"][0];
      for (const char* key : {"kind", "label", "cfg_id"})
        QVERIFY(component["metadata"][key].is_string());
      QVERIFY(component["standardized"]["tool"].is_string());
      QVERIFY(component["standardized"]["tool_version"].is_string());
      QVERIFY(!component["native"]["config"].contains("base_url"));  // no address leaves the run
      const json& load = r["scenario"]["load"]["standardized"];
      QCOMPARE(load["tool"], "lanebench");
      QVERIFY(load["source"] == "random" || load["source"] == "sampled");
      QVERIFY(load["input_seq_len"]["value"].get<double>() >= 1);
      const json& aggregate = r["results"]["request_performance"]["aggregate"];
      QVERIFY(aggregate["requests"]["total"].get<int64_t>() >= 0);
      check_units(aggregate["latency"], {"ms", "s", "ms/token", "s/token"}, "latency");
      check_units(aggregate["throughput"], {"tokens/s", "queries/s"}, "throughput");
      QCOMPARE(aggregate["throughput"]["requests_rate"]["units"], "queries/s");
      // The figures are the summary's, in its units.
      const json& lb = r["results"]["observability"]["lanebench"];
      const json& phase = summary["experiments"][0]["lanes"][lb["lane"].get<std::string>()]
                                 ["phases"][lb["phase"].get<std::string>()];
      QCOMPARE(aggregate["latency"]["time_to_first_token"]["p50"].get<double>(),
               phase["median_ttft_ms"].get<double>());
      QCOMPARE(aggregate["throughput"]["output_token_rate"]["mean"].get<double>(),
               phase["output_throughput"].get<double>());
      if (lb["phase"].get<std::string>().rfind("c", 0) == 0)
        QCOMPARE(load["concurrency"].get<int64_t>(),
                 std::stoll(lb["phase"].get<std::string>().substr(1)));
      // Output rate over time, whole seconds of the run on the wall clock.
      const json& series =
          r["results"]["request_performance"]["time_series"]["throughput"]["output_token_rate"];
      QCOMPARE(series["units"], "tokens/s");
      double tokens = 0;
      for (const json& p : series["series"]) {
        QVERIFY(p["ts"].get<std::string>().ends_with("Z"));
        tokens += p["value"].get<double>();
      }
      QCOMPARE(tokens, phase["total_output_tokens"].get<double>());
    }
  }

  void regressionEvidenceGoesInTheOpenBlock() {
    const auto out = lb::interop::export_benchmark_reports(run_folder("regression"), "fp8");
    QVERIFY2(out.ok, out.error.c_str());
    QVERIFY(!out.files.empty());
    for (const auto& file : out.files) {
      QVERIFY(file.name.find(".fp8.") != std::string::npos);
      const json& quality = file.report["results"]["observability"]["lanebench"]["quality"];
      QCOMPARE(quality.size(), size_t(1));  // fp8 is in one pair: bf16 against fp8
      QCOMPARE(quality[0]["baseline"], "bf16");
      QCOMPARE(quality[0]["pairs"], 20);
      QCOMPARE(quality[0]["divergent"], 10);
      QCOMPARE(quality[0]["divergence_causes"]["near_tie"], 7);
      QCOMPARE(quality[0]["flipped_facts"], 0);
    }
    const auto none = lb::interop::export_benchmark_reports(run_folder("regression"), "nope");
    QVERIFY(!none.ok);
    QVERIFY(none.error.find("nope") != std::string::npos);
    QVERIFY(!lb::interop::export_benchmark_reports("/nonexistent-run").ok);
  }

  // A run whose plan names a prompt-set file and an energy endpoint on another host: neither
  // the path nor the host is in any report; and names that meet get a suffix, not an overwrite.
  void noPathOrHostLeavesAndNamesDoNotCollide() {
    const fs::path dir = lb::test::fresh_dir("lb-br-private");
    fs::create_directories(dir);
    json plan = {{"lanes",
                  {{{"id", "a.b"},
                    {"base_url", "http://10.1.2.3:8000/v1"},
                    {"energy", {{"metrics_url", "http://gpu-node-7:9400/metrics"}}}},
                   {{"id", "b"}, {"base_url", "http://10.1.2.3:8001/v1"}}}},
                 {"experiments",
                  {{{"kind", "regression"}, {"prompts", "/home/alice/secret-prompts.jsonl"}},
                   {{"kind", "trace"}, {"path", "/home/alice/trace.jsonl"}}}}};
    const json phase = {
        {"completed", 2},
        {"failed", 0},
        {"mean_ttft_ms", 10.0},
        {"energy", {{"source", "http://gpu-node-7:9400/metrics"}, {"joules", 5.0}}}};
    json summary = {
        {"run", {{"started_at", "2026-12-06T06:00:00Z"}}},
        {"experiments",
         {{{"kind", "regression"},
           {"name", "tp"},
           {"lanes", {{"a.b", {{"phases", {{"c1", phase}}}, {"phase_order", {"c1"}}}}}}},
          {{"kind", "trace"},
           {"name", "tp.a"},
           {"lanes", {{"b", {{"phases", {{"c1", phase}}}, {"phase_order", {"c1"}}}}}}}}}};
    std::ofstream(dir / "plan.json") << plan.dump();
    std::ofstream(dir / "summary.json") << summary.dump();
    // The server's /version answer as the probe keeps it: an object, not a string.
    const json environment = {
        {"client", {{"version", "9.9"}}},
        {"lanes",
         {{"a.b",
           {{"model", "qwen"},
            {"probe", {{"server_kind", "vllm"}, {"version", {{"version", "0.11.0"}}}}}}}}}};
    std::ofstream(dir / "environment.json") << environment.dump();
    const auto out = lb::interop::export_benchmark_reports(dir.string());
    QVERIFY2(out.ok, out.error.c_str());
    QCOMPARE(out.files.size(), size_t(2));
    QVERIFY2(out.files[0].name != out.files[1].name, out.files[1].name.c_str());
    for (const auto& file : out.files) {
      const std::string text = file.report.dump();
      for (const char* secret : {"/home/alice", "gpu-node-7", "10.1.2.3"})
        QVERIFY2(text.find(secret) == std::string::npos, (file.name + ": " + secret).c_str());
    }
    QCOMPARE(out.files[1].report["scenario"]["load"]["standardized"]["source"], "sampled");
    const json& served = out.files[0].report["scenario"]["stack"][0]["standardized"];
    QCOMPARE(served["tool"], "vllm");
    QCOMPARE(served["tool_version"], "0.11.0");
    QCOMPARE(served["model"]["name"], "qwen");
    QCOMPARE(out.files[1].report["scenario"]["stack"][0]["standardized"]["tool_version"],
             "unknown");  // lane b's server said nothing
    QCOMPARE(out.files[0].report["scenario"]["load"]["standardized"]["tool_version"], "9.9");
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestBenchmarkReport)
#include "interop_benchmark_report_test.moc"
