#include "ui/workspace/demo_plan.h"

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

bool write_demo_plan(const QString& plans_dir, QString* error) {
  const QString path = QDir(plans_dir).filePath(kDemoPlanFile);
  if (QFileInfo::exists(path)) return true;
  const std::string text = demo_qualification_plan().dump(2) + "\n";
  QSaveFile file(path);
  if (!QDir().mkpath(plans_dir) || !file.open(QIODevice::WriteOnly) ||
      file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit()) {
    *error = QObject::tr("Could not save %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace lb::ui
