// TTFT against what a request carried: its images' and videos' pixels, and its image count. A
// vision encoder's cost shows in TTFT, so a lane whose TTFT climbs faster with resolution or with
// the number of images pays more for each. The client's own encoding time is not in TTFT.
#include <algorithm>
#include <functional>
#include <map>

#include "core/report/report_model.h"

namespace lb::report {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One series per lane: the median TTFT of the requests at each value of `x`, in x order.
ChartSpec ttft_chart(const RunFolder& folder, ChartSpec spec,
                     const std::function<double(const MediaTtft&)>& x) {
  const auto lanes = folder.lane_ids();
  size_t points = 0;
  for (size_t i = 0; i < lanes.size(); ++i) {
    std::map<double, std::vector<double>> by_x;
    const auto media = folder.digest.media().find(lanes[i]);
    if (media != folder.digest.media().end())
      for (const MediaTtft& r : media->second) by_x[x(r)].push_back(r.ttft_ms);
    ChartSeries series{lanes[i], lane_color(i), {}, {}, {}};
    for (auto& [value, ttfts] : by_x) series.points.emplace_back(value, median_of(ttfts));
    points += series.points.size();
    if (!series.points.empty()) spec.series.push_back(std::move(series));
  }
  if (points < 2) spec.series.clear();  // one point is no curve
  return spec;
}

}  // namespace

std::vector<ChartSpec> media_timing_charts(const RunFolder& folder) {
  std::vector<ChartSpec> charts;
  ChartSpec pixels;
  pixels.id = "ttft_vs_media_pixels";
  pixels.title = "TTFT vs media resolution";
  pixels.x_title = "pixels per request (megapixels; a video's over its frames)";
  pixels.y_title = "TTFT p50 (ms)";
  pixels.note = "Median TTFT at each total (measured); the client's media encoding is not in it.";
  charts.push_back(ttft_chart(folder, pixels, [](const MediaTtft& r) { return r.megapixels; }));
  ChartSpec count;
  count.id = "ttft_vs_image_count";
  count.title = "TTFT vs images per request";
  count.x_title = "images per request";
  count.y_title = "TTFT p50 (ms)";
  count.note = "Median TTFT of the requests with images at each count (measured).";
  charts.push_back(
      ttft_chart(folder, count, [](const MediaTtft& r) { return static_cast<double>(r.images); }));
  std::erase_if(charts, [](const ChartSpec& c) { return c.series.empty(); });
  return charts;
}

}  // namespace lb::report
