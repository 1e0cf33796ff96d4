#pragma once
// What of a run folder's files core/report could not read, in the pages' words: "damaged: FILE:
// what", one line per file. A file that is simply absent (a run killed early) is not damage.
#include <QStringList>

#include "core/report/run_folder.h"

namespace lb::ui {

QStringList folder_damage(const report::RunFolder& folder);

}  // namespace lb::ui
