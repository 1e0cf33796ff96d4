#include "core/metrics/pareto.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lb::metrics {
namespace {

bool usable(const ParetoPoint& p) {
  return std::isfinite(p.total_tok_s) && std::isfinite(p.per_user_tok_s) && p.total_tok_s >= 0 &&
         p.per_user_tok_s >= 0;
}

}  // namespace

std::vector<bool> pareto_frontier(const std::vector<ParetoPoint>& points) {
  // Sweep from the highest total down: a point is on the frontier when its per-user rate beats
  // every point of a strictly higher total, and is not beaten by one of the same total.
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::erase_if(order, [&](size_t i) { return !usable(points[i]); });
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (points[a].total_tok_s != points[b].total_tok_s)
      return points[a].total_tok_s > points[b].total_tok_s;
    return points[a].per_user_tok_s > points[b].per_user_tok_s;
  });
  std::vector<bool> on(points.size(), false);
  double best_higher = -1;  // best per-user rate among strictly higher totals
  for (size_t k = 0; k < order.size();) {
    size_t end = k;  // [k, end): the points of one total, best per-user rate first
    while (end < order.size() && points[order[end]].total_tok_s == points[order[k]].total_tok_s)
      ++end;
    const double top = points[order[k]].per_user_tok_s;
    for (size_t j = k; j < end; ++j) {
      const double y = points[order[j]].per_user_tok_s;
      on[order[j]] = y == top && y > best_higher;
    }
    best_higher = std::max(best_higher, top);
    k = end;
  }
  return on;
}

std::vector<ParetoPoint> frontier_points(const std::vector<ParetoPoint>& points) {
  const std::vector<bool> on = pareto_frontier(points);
  std::vector<ParetoPoint> out;
  for (size_t i = 0; i < points.size(); ++i)
    if (on[i]) out.push_back(points[i]);
  std::sort(out.begin(), out.end(), [](const ParetoPoint& a, const ParetoPoint& b) {
    return a.total_tok_s != b.total_tok_s ? a.total_tok_s < b.total_tok_s
                                          : a.per_user_tok_s > b.per_user_tok_s;
  });
  return out;
}

}  // namespace lb::metrics
