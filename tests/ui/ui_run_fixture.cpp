#include "ui_run_fixture.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "sim_lane_starter.h"
#include "ui/run/staging_sink.h"

namespace lb::test {

void run_small_plan(const QString& run_dir) {
  app::register_sim_lane_starter();
  const nlohmann::json plan = {
      {"name", "stored run test"},
      {"lanes",
       {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
        {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}}}},
      {"experiments",
       {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 16}},
        {{"kind", "throughput"},
         {"concurrency", {1, 2}},
         {"requests", 4},
         {"input_tokens", 256},
         {"output_tokens", 16}},
        {{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}},
        {{"kind", "context_sweep"}, {"prompt_tokens", {1024, 2048}}, {"output_tokens", 8}}}}};
  run_plan_json(run_dir, plan);
}

void run_plan_json(const QString& run_dir, const nlohmann::json& plan) {
  app::register_sim_lane_starter();
  auto parsed = plan::parse_plan(plan.dump(), "stored-run-test.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  ui::StagingSink sink;
  std::atomic<bool> stop{false};
  run::PlanRunner runner(*parsed.plan, {run_dir.toStdString(), "test", false}, sink);
  const run::RunResult result = runner.run(stop);
  if (result.exit_code == run::kExitInput)
    qFatal("run did not start: %s", result.errors.empty() ? "?" : result.errors.front().c_str());
}

int make_interrupted_copy(const QString& run_dir, const QString& copy_dir) {
  std::filesystem::copy(run_dir.toStdString(), copy_dir.toStdString(),
                        std::filesystem::copy_options::recursive);
  QFile::remove(QDir(copy_dir).filePath("summary.json"));
  QFile file(QDir(copy_dir).filePath("requests.jsonl"));
  if (!file.open(QIODevice::ReadOnly)) qFatal("no requests.jsonl");
  const QByteArray all = file.readAll();
  file.close();
  const qsizetype last_start = all.lastIndexOf('\n', all.size() - 2) + 1;
  const QByteArray cut = all.left(last_start + (all.size() - last_start) / 2);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot rewrite");
  file.write(cut);
  return static_cast<int>(cut.count('\n'));
}

int count_ttft_points(const QString& run_dir, const QString& lane, bool context_sweep_only) {
  QFile file(QDir(run_dir).filePath("requests.jsonl"));
  if (!file.open(QIODevice::ReadOnly)) return -1;
  int n = 0;
  while (!file.atEnd()) {
    const auto line = nlohmann::json::parse(file.readLine().toStdString(), nullptr, false);
    if (!line.is_object() || line.value("lane", "") != lane.toStdString()) continue;
    if (!line.value("ok", false) || line.value("warmup", false)) continue;
    if (!line["ttft_ms"].is_number()) continue;
    if (context_sweep_only && line.value("experiment", "") != "context_sweep") continue;
    ++n;
  }
  return n;
}

}  // namespace lb::test
