#pragma once
// Reduces a series to at most two points per pixel column (the min and the max of each column,
// in x order) so spikes survive and a 100,000-point series costs what the screen can show.
#include <QPointF>
#include <vector>

namespace lb::widgets {

// `points` must be sorted by x. Returns `points` unchanged when it already has <= 2 * columns
// points. columns <= 0 is treated as 1.
std::vector<QPointF> downsample_min_max(const std::vector<QPointF>& points, int columns);

}  // namespace lb::widgets
