#include "ui/run/bounded_samples.h"

#include <algorithm>

namespace lb::ui {

void ReservoirSample::add(double value) {
  ++seen_;
  if (values_.size() < capacity_) {
    values_.push_back(value);
    return;
  }
  std::uniform_int_distribution<int64_t> slot(0, seen_ - 1);
  const int64_t k = slot(rng_);
  if (k < static_cast<int64_t>(capacity_)) values_[static_cast<size_t>(k)] = value;
}

void ThinnedPoints::add(QPointF point) {
  if (seen_++ % stride_ != 0) return;
  insert_sorted(points_, point);
  if (points_.size() <= capacity_) return;
  size_t kept = 0;
  for (size_t i = 0; i < points_.size(); i += 2) points_[kept++] = points_[i];
  points_.resize(kept);
  stride_ *= 2;
}

void insert_sorted(std::vector<QPointF>& points, QPointF p) {
  auto it = std::upper_bound(points.begin(), points.end(), p,
                             [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
  points.insert(it, p);
}

}  // namespace lb::ui
