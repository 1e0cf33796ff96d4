// Importing other tools' result files into run folders: vLLM bench serve results with and
// without the per-request fields, several results in one file, GuideLLM reports of both
// generations, joining an existing run, and every kind of bad input refused with a clear message.
#include <QtTest>

#include "test_main.h"

#include "core/interop/import_file.h"
#include "core/interop/run_import.h"
#include "core/record/run_summary.h"
#include "interop_test_support.h"
#include "test_paths.h"

using lb::interop::import_into_run;
using lb::interop::ImportFormat;
using lb::interop::ImportOptions;
using lb::test::interop_fixture;
using lb::test::read_json;
using lb::test::read_jsonl;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr double kTol = 1e-6;

json phase_of(const fs::path& run, const std::string& exp, const std::string& lane,
              const std::string& phase) {
  const json summary = read_json(run / "summary.json");
  for (const auto& e : summary["experiments"])
    if (e.value("name", "") == exp) return e["lanes"][lane]["phases"][phase];
  return nullptr;
}

json lane_of(const fs::path& run, const std::string& exp, const std::string& lane) {
  const json summary = read_json(run / "summary.json");
  for (const auto& e : summary["experiments"])
    if (e.value("name", "") == exp) return e["lanes"][lane];
  return nullptr;
}

lb::interop::ImportOutcome import_new(const std::string& file, const fs::path& out,
                                      const std::string& lane = {},
                                      ImportFormat format = ImportFormat::Auto) {
  ImportOptions o;
  o.file = file;
  o.out_dir = out.string();
  o.lane_name = lane;
  o.format = format;
  return import_into_run(o);
}

std::string read_error(const std::string& text, ImportFormat format = ImportFormat::Auto) {
  auto r = lb::interop::read_import_text(text, "bad.json", format);
  return r.ok ? std::string("(accepted)") : r.error;
}

// A run folder with one measured throughput lane, as the runner leaves it (trimmed).
fs::path existing_run(const std::string& name, const json& experiments) {
  const fs::path dir = lb::test::fresh_dir(name);
  lb::test::write_text(dir / "summary.json",
                       json{{"run", {{"name", "measured"}}}, {"experiments", experiments}}.dump());
  lb::test::write_text(dir / "requests.jsonl", "{\"lane\":\"fp8\",\"phase\":\"c2\"}\n");
  return dir;
}

json measured_section(const std::string& name) {
  json phases = {{"c2", {{"median_ttft_ms", 40.0}}}};
  json lane = {{"phases", phases}, {"phase_order", {"c2"}}};
  return {{"name", name}, {"kind", "throughput"}, {"lanes", {{"fp8", lane}}}};
}

}  // namespace

class TestInteropImport : public QObject {
  Q_OBJECT
 private slots:
  void vllmDetailedIsRecomputedBesideVllmsOwnFigures() {
    const fs::path out = lb::test::fresh_dir("lb-import-vllm");
    const auto r = import_new(interop_fixture("vllm_detailed_c2.json"), out);
    QVERIFY2(r.exit_code == 0, r.error.c_str());
    QCOMPARE(r.lane_id, std::string("imported:vllm"));
    QCOMPARE(r.requests, int64_t(6));
    QCOMPARE(r.phases, std::vector<std::string>{"c2"});
    const json p = phase_of(out, "imported", "imported:vllm", "c2");
    QCOMPARE(int(p["completed"]), 5);
    QCOMPARE(int(p["failed"]), 1);
    QCOMPARE(int(p["errors"]["http_status"]), 1);
    QCOMPARE(int(p["total_output_tokens"]), 25);
    QCOMPARE(int(p["total_input_tokens"]), 640);
    QVERIFY(std::abs(double(p["median_ttft_ms"]) - 55.0) < kTol);
    QVERIFY(std::abs(double(p["p99_ttft_ms"]) - 69.6) < kTol);
    QVERIFY(std::abs(double(p["median_itl_ms"]) - 10.0) < kTol);
    QVERIFY(std::abs(double(p["mean_itl_ms"]) - 11.1) < kTol);
    // LaneBench's E2EL ends at the last token (ttft + gaps); vLLM's latency at the stream's end.
    QVERIFY(std::abs(double(p["median_e2el_ms"]) - 95.0) < kTol);
    QVERIFY(std::abs(double(p["median_tpot_ms"]) - 11.0) < kTol);
    QVERIFY(std::abs(double(p["duration"]) - 0.278) < kTol);
    QVERIFY(std::abs(double(p["median_queue_delay_ms"]) - 91.0) < kTol);
    QCOMPARE(p["per_request"], true);
    for (const auto& [key, value] : p["provenance"].items()) QCOMPARE(value, "imported");

    const json lane = lane_of(out, "imported", "imported:vllm");
    QCOMPARE(lane["provenance"], "imported");
    QCOMPARE(lane["source"]["tool"], "vllm bench serve");
    QCOMPARE(lane["source"]["file"], "vllm_detailed_c2.json");
    QCOMPARE(lane["source"]["model"], "Qwen3-8B-FP8");
    QVERIFY(lane["source"]["tool_version"].is_null());
    QVERIFY(std::abs(double(lane["reported"]["c2"]["median_e2el_ms"]) - 96.0) < kTol);
    QVERIFY(std::abs(double(lane["reported"]["c2"]["median_tpot_ms"]) - 11.25) < kTol);

    const auto lines = read_jsonl(out / "requests.jsonl");
    QCOMPARE(lines.size(), size_t(6));
    for (const auto& line : lines) {
      QCOMPARE(line["lane"], "imported:vllm");
      QCOMPARE(line["phase"], "c2");
      QCOMPARE(line["provenance"], "imported");
    }
    QCOMPARE(lines[3]["ok"], false);
    QCOMPARE(lines[3]["error"]["kind"], "http_status");
    QCOMPARE(lines[2]["event_offsets_ns"].size(), size_t(5));
    QCOMPARE(int64_t(lines[2]["event_offsets_ns"][2]), int64_t(70'000'000));  // 40 + 10 + 20 ms
    const json texts = read_json(out / "texts" / "imported:vllm.texts.json");
    QCOMPARE(texts.size(), size_t(6));
    QCOMPARE(texts[0], "The capital of France is Paris.");
    QCOMPARE(read_json(out / "plan.json")["lanes"][0]["id"], "imported:vllm");
    QCOMPARE(lb::test::file_containing(out, "/models/"), std::string());
    fs::remove_all(out);
  }

  // Issue 36, case 13: `lanebench-cli import /dev/zero` read until allocation failed.
  void importOfADeviceIsRefusedWithAClearError() {
    const auto r = lb::interop::read_import_file("/dev/zero", ImportFormat::Auto);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.find("/dev/zero: a character device, not a regular file") != std::string::npos,
             r.error.c_str());
  }

  void vllmAggregatesOnlyKeepVllmsFigures() {
    const fs::path out = lb::test::fresh_dir("lb-import-vllm-agg");
    const auto r = import_new(interop_fixture("vllm_aggregate_r4.json"), out, "fp8-agg");
    QVERIFY2(r.exit_code == 0, r.error.c_str());
    QCOMPARE(r.phases, std::vector<std::string>{"r4"});
    QCOMPARE(r.requests, int64_t(0));
    const json p = phase_of(out, "imported", "imported:fp8-agg", "r4");
    QCOMPARE(p["per_request"], false);
    QCOMPARE(int(p["completed"]), 200);
    QVERIFY(std::abs(double(p["median_ttft_ms"]) - 79.5) < kTol);
    QVERIFY(std::abs(double(p["p99_itl_ms"]) - 24.9) < kTol);
    QCOMPARE(p["provenance"]["ttft"], "imported");
    QCOMPARE(read_jsonl(out / "requests.jsonl").size(), size_t(0));
    fs::remove_all(out);
  }

  void appendedResultsBecomeOnePhaseEach() {
    const std::string a = lb::test::read_text(interop_fixture("vllm_detailed_c2.json"));
    const std::string b = lb::test::read_text(interop_fixture("vllm_aggregate_r4.json"));
    auto r = lb::interop::read_import_text(a + "\n" + b + "\n" + a + "\n", "appended.json",
                                           ImportFormat::Auto);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.benchmark.phases.size(), size_t(3));
    QCOMPARE(r.benchmark.phases[0].phase, std::string("c2"));
    QCOMPARE(r.benchmark.phases[1].phase, std::string("r4"));
    QCOMPARE(r.benchmark.phases[2].phase, std::string("c2-2"));
    QCOMPARE(r.benchmark.phases[0].records.size(), size_t(6));
  }

  // vLLM writes null for an unknown model, label, tokenizer or goodput; so does our export.
  void nullsWhereToolsWriteThemAreAccepted() {
    json r = json::parse(lb::test::read_text(interop_fixture("vllm_detailed_c2.json")));
    for (const char* key : {"model_id", "tokenizer_id", "label", "date", "max_concurrency"})
      r[key] = nullptr;
    r["ttfts"][0] = nullptr;
    auto read = lb::interop::read_import_text(r.dump(), "nulls.json", ImportFormat::Auto);
    QVERIFY2(read.ok, read.error.c_str());
    QVERIFY(read.benchmark.model.empty());
    QCOMPARE(read.benchmark.phases[0].phase, std::string("c6"));         // every prompt at once
    QVERIFY(read.benchmark.phases[0].records[0].result.events.empty());  // no first token
  }

  void guidellmReportPerStrategy() {
    const fs::path out = lb::test::fresh_dir("lb-import-guidellm");
    const auto r = import_new(interop_fixture("guidellm_benchmarks.json"), out, "qwen");
    QVERIFY2(r.exit_code == 0, r.error.c_str());
    QCOMPARE(r.tool, std::string("guidellm 0.4.0"));
    QCOMPARE(r.phases, (std::vector<std::string>{"c1", "c4"}));
    QCOMPARE(r.requests, int64_t(6));  // 2 + 3 successful + 1 errored; incomplete are not kept
    const json c1 = phase_of(out, "imported", "imported:qwen", "c1");
    QCOMPARE(int(c1["completed"]), 2);
    QVERIFY(std::abs(double(c1["median_ttft_ms"]) - 110.0) < 1e-3);
    QVERIFY(std::abs(double(c1["median_tpot_ms"]) - 10.0) < 1e-3);
    QVERIFY(std::abs(double(c1["median_itl_ms"]) - 10.0) < 1e-3);
    const json c4 = phase_of(out, "imported", "imported:qwen", "c4");
    QCOMPARE(int(c4["completed"]), 3);
    QCOMPARE(int(c4["failed"]), 1);
    QCOMPARE(int(c4["cancelled"]), 1);
    QCOMPARE(int(c4["errors"]["http_status"]), 1);
    QVERIFY(std::abs(double(c4["median_ttft_ms"]) - 220.0) < 1e-3);
    // 32 tokens in 16 iterations: 15 gaps of 20 ms; TPOT = 300 ms / 31.
    QVERIFY(std::abs(double(c4["median_itl_ms"]) - 20.0) < 1e-3);
    QVERIFY(std::abs(double(c4["median_tpot_ms"]) - 300.0 / 31.0) < 1e-3);
    // c2 was sent 50 ms after GuideLLM targeted it: queue delays 0, 0, 50 ms.
    QVERIFY(std::abs(double(c4["p99_queue_delay_ms"]) - 49.0) < 1e-3);
    const json lane = lane_of(out, "imported", "imported:qwen");
    QCOMPARE(lane["source"]["tool_version"], "0.4.0");
    QCOMPARE(lane["source"]["model"], "Qwen/Qwen3-8B");
    QVERIFY(std::abs(double(lane["reported"]["c1"]["median_ttft_ms"]) - 110.0) < 1e-3);
    QCOMPARE(lane["tool_labels"]["c4"], "concurrent streams=4");
    // The report's target URL, host name and planted key stay out of the run folder.
    for (const char* secret : {"sk-planted-secret", "gpu-node-7", "http://"})
      QVERIFY2(lb::test::file_containing(out, secret).empty(), secret);
    fs::remove_all(out);
  }

  void guidellmOldReportGeneration() {
    auto r = lb::interop::read_import_file(interop_fixture("guidellm_v03_benchmarks.json"),
                                           ImportFormat::GuideLlm);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.benchmark.tool_version.empty());
    QCOMPARE(r.benchmark.model, std::string("llama-3.1-8b"));
    QCOMPARE(r.benchmark.phases.size(), size_t(1));
    QCOMPARE(r.benchmark.phases[0].phase, std::string("r2-constant"));
    const fs::path out = lb::test::fresh_dir("lb-import-guidellm03");
    const auto o = import_new(interop_fixture("guidellm_v03_benchmarks.json"), out);
    QVERIFY2(o.exit_code == 0, o.error.c_str());
    const json p = phase_of(out, "imported", "imported:guidellm", "r2-constant");
    QCOMPARE(int(p["completed"]), 2);
    QCOMPARE(int(p["failed"]), 1);
    QCOMPARE(int(p["errors"]["total_timeout"]), 1);
    QVERIFY(std::abs(double(p["median_ttft_ms"]) - 140.0) < 1e-3);
    QVERIFY(std::abs(double(p["median_itl_ms"]) - 10.0) < 1e-3);  // 990 ms over 99 gaps
    QVERIFY(lb::test::file_containing(out, "10.0.0.12").empty());
    fs::remove_all(out);
  }

  void joinsTheThroughputExperimentOfAnExistingRun() {
    const fs::path run = existing_run("lb-import-into", json::array({measured_section("tp")}));
    ImportOptions o;
    o.file = interop_fixture("vllm_detailed_c2.json");
    o.into_dir = run.string();
    auto r = import_into_run(o);
    QVERIFY2(r.exit_code == 0, r.error.c_str());
    QCOMPARE(r.experiment, std::string("tp"));
    const json tp = read_json(run / "summary.json")["experiments"][0];
    QVERIFY(tp["lanes"].contains("fp8"));
    QVERIFY(std::abs(double(tp["lanes"]["imported:vllm"]["phases"]["c2"]["median_ttft_ms"]) - 55) <
            kTol);
    const auto lines = read_jsonl(run / "requests.jsonl");
    QCOMPARE(lines.size(), size_t(7));
    QCOMPARE(lines[0]["lane"], "fp8");
    QCOMPARE(lines[6]["experiment"], "tp");
    // The same lane twice is refused; another name joins beside it.
    r = import_into_run(o);
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.error.find("already has a lane imported:vllm") != std::string::npos);
    o.lane_name = "second";
    QCOMPARE(import_into_run(o).exit_code, 0);
    QCOMPARE(read_jsonl(run / "requests.jsonl").size(), size_t(13));
    fs::remove_all(run);
  }

  // An imported run is a run folder of this version: its summary reads into the record without a
  // note and writes back byte for byte, the tool's provenance and its missing figures included.
  void importedRunsReadAndWriteBackByteForByte() {
    for (const char* file :
         {"vllm_detailed_c2.json", "vllm_aggregate_r4.json", "guidellm_benchmarks.json"}) {
      const fs::path out = lb::test::fresh_dir("lb-import-record");
      const auto r = import_new(interop_fixture(file), out);
      QVERIFY2(r.exit_code == 0, r.error.c_str());
      const std::string text = lb::test::read_text(out / "summary.json");
      lb::record::FileFields fields("summary.json");
      const lb::record::RunSummary summary = lb::record::read_run_summary_text(text, fields);
      QVERIFY2(!fields.damaged(), fields.damaged() ? fields.damage().front().c_str() : "");
      QCOMPARE(lb::record::to_json(summary).dump(2, ' ', false, json::error_handler_t::replace),
               text);
      const auto& phase = summary.experiments.at(0).lanes.at(0).phases.at(0);
      QCOMPARE(phase.more["provenance"]["ttft"], json("imported"));
      fs::remove_all(out);
    }
  }

  // Joining a run written by this version or an earlier one keeps everything else of the run as
  // it was; a run whose summary the record cannot read whole is refused, not written over.
  void joiningKeepsTheRestOfTheRunAndRefusesADamagedOne() {
    for (const char* folder : {"run_folders/throughput", "run_folders/regression",
                               "run_folders_older/2026-12-02/throughput"}) {
      const fs::path run = lb::test::fresh_dir("lb-import-golden");
      fs::copy(lb::test::fixture_path(folder), run, fs::copy_options::recursive);
      const json before = read_json(run / "summary.json");
      ImportOptions o;
      o.file = interop_fixture("vllm_detailed_c2.json");
      o.into_dir = run.string();
      o.experiment = before["experiments"][0]["name"];
      const auto r = import_into_run(o);
      QVERIFY2(r.exit_code == 0, r.error.c_str());
      json after = read_json(run / "summary.json");
      QVERIFY(after["experiments"][0]["lanes"].contains("imported:vllm"));
      after["experiments"][0]["lanes"].erase("imported:vllm");
      QVERIFY2(after == before, folder);
      fs::remove_all(run);
    }
    const fs::path damaged =
        existing_run("lb-import-damaged", json::array({measured_section("tp"), "not a section"}));
    const std::string text = lb::test::read_text(damaged / "summary.json");
    ImportOptions o;
    o.file = interop_fixture("vllm_detailed_c2.json");
    o.into_dir = damaged.string();
    const auto r = import_into_run(o);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.error.find("experiments[1]") != std::string::npos &&
                 r.error.find("not imported into a damaged run") != std::string::npos,
             r.error.c_str());
    QCOMPARE(lb::test::read_text(damaged / "summary.json"), text);
    QCOMPARE(read_jsonl(damaged / "requests.jsonl").size(), size_t(1));
    fs::remove_all(damaged);
  }

  void experimentChoiceInAnExistingRun() {
    const fs::path two = existing_run(
        "lb-import-two", json::array({measured_section("tp1"), measured_section("tp2")}));
    ImportOptions o;
    o.file = interop_fixture("guidellm_benchmarks.json");
    o.into_dir = two.string();
    auto r = import_into_run(o);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.error.find("several throughput experiments (tp1, tp2)") != std::string::npos,
             r.error.c_str());
    o.experiment = "nope";
    r = import_into_run(o);
    QVERIFY(r.error.find("no experiment named nope (it has: tp1, tp2)") != std::string::npos);
    o.experiment = "tp2";
    QCOMPARE(import_into_run(o).exit_code, 0);
    QVERIFY(
        read_json(two / "summary.json")["experiments"][1]["lanes"].contains("imported:guidellm"));
    fs::remove_all(two);

    const fs::path none = existing_run("lb-import-none", json::array());
    o.experiment.clear();
    o.into_dir = none.string();
    QCOMPARE(import_into_run(o).exit_code, 0);
    const json exps = read_json(none / "summary.json")["experiments"];
    QCOMPARE(exps.size(), size_t(1));
    QCOMPARE(exps[0]["name"], "imported");
    fs::remove_all(none);
  }

  void badInputIsRefusedWithAReason() {
    const std::string good = lb::test::read_text(interop_fixture("vllm_detailed_c2.json"));
    json bad_type = json::parse(good);
    bad_type["ttfts"] = "fast";
    json short_lens = json::parse(good);
    short_lens["input_lens"] = {128, 128};
    json bad_itl = json::parse(good);
    bad_itl["itls"][1] = 0.01;
    json bad_text = json::parse(good);
    bad_text["generated_texts"][0] = 7;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{ not json", "not JSON"},
        {good.substr(0, good.size() / 2), "not JSON"},
        {"   \n", "empty"},
        {R"({"foo": 1, "bar": []})", "neither a vLLM bench serve result"},
        {R"([1, 2])", "it is an array"},
        {bad_type.dump(), "'ttfts' is a string, expected an array"},
        {short_lens.dump(), "input_lens has 2 entries but ttfts has 6"},
        {bad_itl.dump(), "itls[1] is a number, expected an array"},
        {bad_text.dump(), "generated_texts[0] is a number"},
        {R"({"benchmarks": []})", "'benchmarks' array is empty"},
        {R"({"benchmarks": [7]})", "benchmarks[0] is a number"},
        {R"({"benchmarks": [{"config": {}}]})", "no 'requests'"},
        {R"({"benchmarks": [{"requests": {"successful": [{"prompt_tokens": "many"}]}}]})",
         "'prompt_tokens' is a string"},
    };
    for (const auto& [text, expected] : cases) {
      const std::string error = read_error(text);
      QVERIFY2(error.find(expected) != std::string::npos, (expected + " <- " + error).c_str());
      QVERIFY2(error.rfind("bad.json", 0) == 0, error.c_str());
    }
    QVERIFY(read_error(good, ImportFormat::GuideLlm).find("not a GuideLLM report") !=
            std::string::npos);
    QVERIFY(read_error(lb::test::read_text(interop_fixture("guidellm_benchmarks.json")),
                       ImportFormat::Vllm)
                .find("not a vLLM bench serve result") != std::string::npos);
  }

  void badOptionsAreRefusedWithAReason() {
    const fs::path out = lb::test::fresh_dir("lb-import-bad");
    auto expect = [](const lb::interop::ImportOutcome& r, const char* text) {
      QCOMPARE(r.exit_code, 2);
      QVERIFY2(r.error.find(text) != std::string::npos, r.error.c_str());
    };
    expect(import_new("/nonexistent/result.json", out), "cannot read /nonexistent/result.json");
    expect(import_new(lb::test::fixtures_dir(), out), "is a folder");
    expect(import_new(interop_fixture("vllm_detailed_c2.json"), out, "a/b"), "lane name 'a/b'");
    ImportOptions neither;
    neither.file = interop_fixture("vllm_detailed_c2.json");
    expect(import_into_run(neither), "exactly one of --out");
    ImportOptions both = neither;
    both.out_dir = out.string();
    both.into_dir = out.string();
    expect(import_into_run(both), "exactly one of --out");
    ImportOptions into = neither;
    into.into_dir = out.string();
    expect(import_into_run(into), "is not a run folder (no summary.json)");
    lb::test::write_text(out / "something", "x");
    expect(import_new(interop_fixture("vllm_detailed_c2.json"), out), "is not empty");
    fs::remove_all(out);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestInteropImport)
#include "interop_import_test.moc"
