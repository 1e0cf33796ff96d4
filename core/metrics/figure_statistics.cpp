#include "core/metrics/figure_statistics.h"

namespace lb::metrics {
namespace {

std::variant<OrderStatistics, SampledStatistics, SpooledStatistics> storage_for(
    ValueStorage storage, size_t sample) {
  if (storage == ValueStorage::Spooled) return SpooledStatistics{};
  if (sample > 0) return SampledStatistics{sample};
  return OrderStatistics{};
}

}  // namespace

FigureStatistics::FigureStatistics(ValueStorage storage, size_t sample)
    : values_(storage_for(storage, sample)) {}

void FigureStatistics::insert(double value) {
  std::visit([value](auto& v) { v.insert(value); }, values_);
}

size_t FigureStatistics::size() const {
  return std::visit([](const auto& v) { return v.size(); }, values_);
}

bool FigureStatistics::estimated() const {
  const auto* sampled = std::get_if<SampledStatistics>(&values_);
  return sampled != nullptr && !sampled->exact();
}

Distribution FigureStatistics::describe() const {
  return std::visit([](const auto& v) { return v.describe(); }, values_);
}

const std::vector<double>& FigureStatistics::sample() const {
  static const std::vector<double> kNone;
  const auto* sampled = std::get_if<SampledStatistics>(&values_);
  return sampled != nullptr ? sampled->sample() : kNone;
}

std::string FigureStatistics::spool_fallback_reason() const {
  const auto* spooled = std::get_if<SpooledStatistics>(&values_);
  return spooled != nullptr ? spooled->spool().fallback_reason() : std::string();
}

}  // namespace lb::metrics
