#include "core/compare/proportion_interval.h"

#include <algorithm>
#include <cmath>

#include "core/metrics/bootstrap_random.h"

namespace lb::compare {

Proportion wilson_interval(int64_t count, int64_t total, double confidence) {
  Proportion p;
  p.count = count;
  p.total = total;
  if (total <= 0) {
    p.hi = 1;
    return p;
  }
  const double n = double(total);
  p.rate = double(count) / n;
  const double z = metrics::normal_quantile(0.5 + confidence / 2);
  const double z2 = z * z;
  const double centre = (p.rate + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p.rate * (1 - p.rate) / n + z2 / (4 * n * n));
  p.lo = std::clamp(centre - half, 0.0, 1.0);
  p.hi = std::clamp(centre + half, 0.0, 1.0);
  if (count == 0) p.lo = 0;
  if (count == total) p.hi = 1;
  return p;
}

}  // namespace lb::compare
