#pragma once
// The Pareto frontier of per-user speed against total throughput: of the points measured (one per
// load level and lane), those that no other point beats on both axes. A serving configuration is
// chosen from these two views: how fast each user's tokens arrive, and how many the lane serves.
#include <cstddef>
#include <vector>

namespace lb::metrics {

struct ParetoPoint {
  double total_tok_s = 0;     // aggregate output tok/s of the level
  double per_user_tok_s = 0;  // median decode tok/s of one request at that level
};

// For each point, whether it is on the frontier: no other point has at least its total and its
// per-user rate with one of them strictly higher. Points with a negative or non-finite figure are
// never on it and never dominate. Equal points are both on it.
std::vector<bool> pareto_frontier(const std::vector<ParetoPoint>& points);

// The frontier's points sorted by total throughput (per-user rate then falls along it).
std::vector<ParetoPoint> frontier_points(const std::vector<ParetoPoint>& points);

}  // namespace lb::metrics
