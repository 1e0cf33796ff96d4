#pragma once
// Reads what the Runs page lists about each run folder: plan name, lanes, experiments, request
// count, whether a review and a decision exist, whether the run finished. Cheap enough for a few
// hundred runs (reads plan.json and counts lines of requests.jsonl).
#include <QString>
#include <vector>

#include "models/run_history_model.h"

namespace lb::ui {

models::RunFolderInfo scan_run_folder(const QString& dir);
std::vector<models::RunFolderInfo> scan_runs(const QString& runs_dir);

}  // namespace lb::ui
