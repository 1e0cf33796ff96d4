#include "core/record/experiment_kind.h"

#include <array>
#include <utility>

namespace lb::record {
namespace {

constexpr std::array<std::pair<ExperimentKind, const char*>, 11> kKindNames{{
    {ExperimentKind::Throughput, "throughput"},
    {ExperimentKind::Regression, "regression"},
    {ExperimentKind::ContextSweep, "context_sweep"},
    {ExperimentKind::PrefixCache, "prefix_cache"},
    {ExperimentKind::Speculative, "speculative"},
    {ExperimentKind::Gates, "gates"},
    {ExperimentKind::Trace, "trace"},
    {ExperimentKind::SampledRegression, "sampled_regression"},
    {ExperimentKind::Sessions, "sessions"},
    {ExperimentKind::Capacity, "capacity"},
    {ExperimentKind::Determinism, "determinism"},
}};

}  // namespace

std::vector<ExperimentKind> all_experiment_kinds() {
  std::vector<ExperimentKind> out;
  for (const auto& [k, name] : kKindNames) out.push_back(k);
  return out;
}

const char* to_string(ExperimentKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "unknown";
}

std::optional<ExperimentKind> experiment_kind_from(std::string_view name) {
  for (const auto& [k, text] : kKindNames)
    if (name == text) return k;
  return std::nullopt;
}

bool measures_load(ExperimentKind kind) {
  switch (kind) {
    case ExperimentKind::Throughput:
    case ExperimentKind::Trace:
    case ExperimentKind::Capacity:
      return true;
    default:
      return false;
  }
}

bool is_reviewable(ExperimentKind kind) {
  return kind == ExperimentKind::Regression || kind == ExperimentKind::SampledRegression;
}

}  // namespace lb::record
