#pragma once
// One figure's values in a summary (TTFT, ITL, ...), kept where its use needs them: exact order
// statistics in memory (a live summary, a short phase), a bounded uniform sample (a live summary's
// per-event figures), or exact on disk (SpooledStatistics: a phase of any length in memory that
// does not grow with it).
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "core/metrics/order_statistics.h"
#include "core/metrics/percentile.h"
#include "core/metrics/sampled_statistics.h"
#include "core/metrics/spooled_statistics.h"

namespace lb::metrics {

enum class ValueStorage { Memory, Spooled };

class FigureStatistics {
 public:
  // SAMPLE > 0 in memory: a uniform sample of that many values. Spooled ignores it.
  explicit FigureStatistics(ValueStorage storage = ValueStorage::Memory, size_t sample = 0);

  void insert(double value);
  size_t size() const;
  bool estimated() const;  // percentiles from a sample that is not every value
  Distribution describe() const;
  // The sample behind a sampled figure's percentiles; empty for the other two.
  const std::vector<double>& sample() const;
  // Spooled: why its values are kept in memory (ValueSpool::fallback_reason); else empty.
  std::string spool_fallback_reason() const;

 private:
  std::variant<OrderStatistics, SampledStatistics, SpooledStatistics> values_;
};

}  // namespace lb::metrics
