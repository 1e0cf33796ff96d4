#include "core/interop/phase_names.h"

#include <map>

#include "core/run/experiments/throughput_experiment.h"

namespace lb::interop {

std::string rate_phase_name(double requests_per_s) {
  return run::open_loop_phase_name(requests_per_s);
}

void make_phase_names_unique(std::vector<ImportedPhase>& phases) {
  std::map<std::string, int> seen;
  for (auto& p : phases) {
    const int n = ++seen[p.phase];
    if (n > 1) p.phase += "-" + std::to_string(n);
  }
}

std::string display_model_name(const std::string& model) {
  const bool local_path =
      !model.empty() && (model[0] == '/' || model[0] == '.' || model[0] == '~' ||
                         model.find('\\') != std::string::npos);
  if (!local_path) return model;
  std::string trimmed = model;
  while (trimmed.size() > 1 && (trimmed.back() == '/' || trimmed.back() == '\\'))
    trimmed.pop_back();
  const size_t cut = trimmed.find_last_of("/\\");
  return cut == std::string::npos ? trimmed : trimmed.substr(cut + 1);
}

}  // namespace lb::interop
