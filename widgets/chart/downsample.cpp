#include "widgets/chart/downsample.h"

#include <algorithm>

namespace lb::widgets {

std::vector<QPointF> downsample_min_max(const std::vector<QPointF>& points, int columns) {
  columns = std::max(columns, 1);
  if (points.size() <= static_cast<size_t>(columns) * 2) return points;
  const double x0 = points.front().x();
  const double span = points.back().x() - x0;
  std::vector<QPointF> out;
  out.reserve(static_cast<size_t>(columns) * 2);
  size_t i = 0;
  while (i < points.size()) {
    // Column of this point; every point of the same column goes into one min/max pair.
    const int col =
        span > 0 ? std::min(columns - 1, static_cast<int>((points[i].x() - x0) / span * columns))
                 : 0;
    size_t lo = i, hi = i, j = i;
    for (; j < points.size(); ++j) {
      const int c =
          span > 0 ? std::min(columns - 1, static_cast<int>((points[j].x() - x0) / span * columns))
                   : 0;
      if (c != col) break;
      if (points[j].y() < points[lo].y()) lo = j;
      if (points[j].y() > points[hi].y()) hi = j;
    }
    out.push_back(points[std::min(lo, hi)]);
    if (lo != hi) out.push_back(points[std::max(lo, hi)]);
    i = j;
  }
  return out;
}

}  // namespace lb::widgets
