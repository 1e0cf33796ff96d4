#include "ui/run/bounded_samples.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::ui {

double ReservoirSample::uniform() {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double x = 0;
  while (x <= 0) x = u(rng_);
  return x;
}

void ReservoirSample::draw_next() {
  const auto k = static_cast<double>(capacity_);
  w_ *= std::exp(std::log(uniform()) / k);
  const double skip = std::floor(std::log(uniform()) / std::log1p(-w_));
  // w_ so small that no further value would be taken in any run we could read
  next_ = std::isfinite(skip) && skip < 4e18 ? seen_ + static_cast<int64_t>(skip)
                                             : std::numeric_limits<int64_t>::max();
}

void ReservoirSample::add(double value) {
  const int64_t index = seen_++;
  if (capacity_ == 0) return;
  if (values_.size() < capacity_) {
    values_.push_back(value);
    if (values_.size() == capacity_) draw_next();
    return;
  }
  if (index < next_) return;
  std::uniform_int_distribution<size_t> slot(0, capacity_ - 1);
  values_[slot(rng_)] = value;
  draw_next();
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
