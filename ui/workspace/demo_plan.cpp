#include "ui/workspace/demo_plan.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QSaveFile>

#include "ui/workspace/lane_json.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

nlohmann::json demo_qualification_plan() {
  nlohmann::json lanes = nlohmann::json::array();
  for (const plan::Lane& lane : demo_lanes()) lanes.push_back(lane_to_json(lane));
  return {
      {"name", "demo qualification"},
      {"description",
       "FP8 and FP8+MTP3 against the BF16 baseline on the built-in simulator: outputs, "
       "functions, long context, the prefix cache and speculative decoding."},
      {"lanes", lanes},
      {"experiments",
       {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 128}},
        {{"kind", "gates"}, {"checks", {"json", "streaming", "tools", "responses"}}, {"repeat", 1}},
        {{"kind", "context_sweep"}, {"prompt_tokens", {1024, 8192, 32768}}, {"output_tokens", 32}},
        {{"kind", "prefix_cache"},
         {"burst", 5},
         {"shared_prefix_tokens", 16384},
         {"suffix_tokens", 64},
         {"output_tokens", 16}},
        {{"kind", "speculative"},
         {"concurrency", {1, 5}},
         {"requests", 5},
         {"input_tokens", 3613},
         {"output_tokens", 45}}}}};
}

namespace {

nlohmann::json managed_sim_lane(const std::string& id, const QString& sim_program,
                                const std::string& spec) {
  nlohmann::json command = {
      sim_program.toStdString(), "--profile", id, "--port", "{port}", "--time-scale", "0.05"};
  if (id == "fp8-mtp3") {
    command.push_back("--max-num-batched-tokens");
    command.push_back("4096");
  }
  return {{"id", id},
          {"base_url", "http://127.0.0.1:{port}/v1"},
          {"launch",
           {{"command", command},
            {"ready", {{"url", "http://127.0.0.1:{port}/health"}, {"timeout_s", 30}}},
            {"stop", {{"signal", "SIGTERM"}, {"grace_s", 5}}}}},
          {"notes", {{"weights", "fp8"}, {"kv_cache", "fp8"}, {"spec", spec}}}};
}

bool write_plan_file(const QString& path, const nlohmann::json& plan, QString* error) {
  if (QFileInfo::exists(path)) return true;
  if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
    *error = QObject::tr("Could not create the folder %1").arg(QFileInfo(path).absolutePath());
    return false;
  }
  const std::string text = plan.dump(2) + "\n";
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit()) {
    *error = QObject::tr("Could not save %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace

bool write_demo_plan(const QString& plans_dir, QString* error) {
  return write_plan_file(QDir(plans_dir).filePath(kDemoPlanFile), demo_qualification_plan(), error);
}

nlohmann::json demo_sweep_plan(const QString& sim_program) {
  return {
      {"name", "MTP batch-token tuning"},
      {"description",
       "Hold the FP8 baseline fixed and tune the FP8+MTP lane's prefill batch-token ceiling "
       "one value at a time: each point restarts lanebench-sim with --max-num-batched-tokens."},
      {"lanes",
       {managed_sim_lane("fp8", sim_program, "none"),
        managed_sim_lane("fp8-mtp3", sim_program, "mtp:3")}},
      {"experiments",
       {{{"kind", "throughput"},
         {"name", "load"},
         {"concurrency", {4}},
         {"requests", 24},
         {"warmups", 1},
         {"input_tokens", 8192},
         {"output_tokens", 128}}}},
      {"sweep",
       {{"lane", "fp8-mtp3"},
        {"parameter", "max_num_batched_tokens"},
        {"values", {1024, 2048, 4096, 8192, 16384}}}},
      {"objective", {{"maximize", "output_throughput"}, {"subject_to", {{"p99_ttft_ms", 350}}}}}};
}

QString sim_program_path() {
  const QDir here(QCoreApplication::applicationDirPath());
  for (const QString& candidate :
       {here.filePath("lanebench-sim"), here.filePath("../sim/lanebench-sim")})
    if (QFileInfo(candidate).isExecutable()) return QFileInfo(candidate).canonicalFilePath();
  return "lanebench-sim";
}

bool write_demo_sweep_plan(const QString& plans_dir, QString* error) {
  return QDir().mkpath(plans_dir) && write_plan_file(QDir(plans_dir).filePath(kDemoSweepFile),
                                                     demo_sweep_plan(sim_program_path()), error);
}

}  // namespace lb::ui
