#include "report_run_fixture.h"

#include <fstream>

#include <QtTest>
#include <atomic>

#include "collecting_sink.h"
#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "run_folder_reader.h"
#include "sim_plan_run.h"

namespace lb::test {

nlohmann::json report_test_plan(const std::string& bf16_notes_text) {
  nlohmann::json bf16 = {{"id", "bf16"},
                         {"base_url", "sim:bf16?time_scale=0.01"},
                         {"notes", {{"weights", "bf16"}, {"kv_cache", "bf16"}}}};
  if (!bf16_notes_text.empty()) bf16["notes"]["text"] = bf16_notes_text;
  return {{"name", "report test"},
          {"lanes",
           {bf16,
            {{"id", "fp8"},
             {"base_url", "sim:fp8?time_scale=0.01"},
             {"notes", {{"weights", "fp8"}, {"kv_cache", "fp8"}, {"prefix_caching", true}}}}}},
          {"experiments",
           {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 96}},
            {{"kind", "throughput"},
             {"concurrency", {1, 4}},
             {"requests", 4},
             {"input_tokens", 512},
             {"output_tokens", 24}},
            {{"kind", "gates"}, {"repeat", 2}},
            {{"kind", "context_sweep"}, {"prompt_tokens", {2048, 8192}}, {"output_tokens", 16}}}}};
}

std::filesystem::path run_plan_into(const nlohmann::json& plan, const std::string& dir_name) {
  register_sim_starter();
  auto parsed = lb::plan::parse_plan(plan.dump(), "report-test-plan.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  const auto dir = fresh_dir(dir_name);
  CollectingSink sink;
  std::atomic<bool> stop{false};
  lb::run::PlanRunner runner(*parsed.plan, {dir.string(), "test", false}, sink);
  const auto result = runner.run(stop);
  if (!result.errors.empty() && result.exit_code == lb::run::kExitInput)
    qFatal("run did not start: %s", result.errors.front().c_str());
  return dir;
}

nlohmann::json summary_json(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / "summary.json", std::ios::binary);
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, false);
}

std::vector<nlohmann::json> summary_sections(const std::string& dir, record::ExperimentKind kind) {
  std::vector<nlohmann::json> out;
  const nlohmann::json summary = summary_json(dir);
  if (!summary.is_object() || !summary.contains("experiments")) return out;
  for (const nlohmann::json& e : summary["experiments"])
    if (e.is_object() && e.contains("kind") && e["kind"].is_string() &&
        record::experiment_kind_from(e["kind"].get<std::string>()) == kind)
      out.push_back(e);
  return out;
}

}  // namespace lb::test
