#pragma once
// Names imported load levels the way LaneBench names its own phases ("c32", "r2.5"), so an
// imported lane's rows line up with a measured lane's in tables and charts.
#include <string>
#include <vector>

#include "core/interop/imported_benchmark.h"

namespace lb::interop {

std::string rate_phase_name(double requests_per_s);
// A second "c32" becomes "c32-2", a third "c32-3".
void make_phase_names_unique(std::vector<ImportedPhase>& phases);
// A model recorded as a local path keeps only its last component (no paths leave the machine).
std::string display_model_name(const std::string& model);

}  // namespace lb::interop
