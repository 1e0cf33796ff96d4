#include "ui/history/stored_run_series.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::ui {
namespace {

// The run's time origin: its earliest scheduled request, as the live charts start at run start.
int64_t time_origin_ns(const std::vector<report::RequestPoint>& requests) {
  int64_t t0 = std::numeric_limits<int64_t>::max();
  for (const report::RequestPoint& p : requests) {
    const int64_t t = p.t_sched_ns >= 0 ? p.t_sched_ns : p.t_sent_ns;
    if (t > 0) t0 = std::min(t0, t);
  }
  return t0 == std::numeric_limits<int64_t>::max() ? 0 : t0;
}

// Output tokens per 1 s bucket from one request's events: the server's per-event counts when every
// event has one, else the request's tokens spread evenly over its events.
void add_rate_buckets(const report::RequestPoint& p, int64_t t0_ns, std::vector<double>& buckets) {
  const std::vector<double>& offsets = p.event_offsets_ns;
  if (offsets.empty()) return;
  const bool exact = p.tokens_per_event_known();
  const double output = static_cast<double>(std::max<int64_t>(p.output_tokens, 0));
  const double even = output > 0 ? output / static_cast<double>(offsets.size()) : 0.0;
  const int64_t sent = std::max<int64_t>(p.t_sent_ns, 0);
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (std::isnan(offsets[i])) continue;
    const double at_s = static_cast<double>(sent + static_cast<int64_t>(offsets[i]) - t0_ns) / 1e9;
    if (at_s < 0) continue;
    const auto bucket = static_cast<size_t>(at_s / StoredRunSeries::kRateBucketS);
    if (buckets.size() <= bucket) buckets.resize(bucket + 1, 0.0);
    buckets[bucket] += exact ? static_cast<double>(p.event_tokens[i]) : even;
  }
}

std::vector<QPointF> rate_points(const std::vector<double>& buckets) {
  std::vector<QPointF> out;
  size_t first = 0;  // a lane that started late begins at its first token
  while (first < buckets.size() && buckets[first] == 0) ++first;
  for (size_t b = first; b < buckets.size(); ++b)
    out.emplace_back((static_cast<double>(b) + 1) * StoredRunSeries::kRateBucketS,
                     buckets[b] / StoredRunSeries::kRateBucketS);
  return out;
}

void sort_by_x(std::vector<QPointF>& points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
}

void add_request(const report::RequestPoint& p, int64_t t0_ns, StoredLaneSeries& lane,
                 std::vector<double>& buckets) {
  ++lane.requests;
  if (!p.ok) {
    ++lane.failed;
    return;
  }
  if (p.warmup) return;
  if (p.ttft_ms >= 0 && p.t_sent_ns > 0)
    lane.ttft_ms.emplace_back(static_cast<double>(p.t_sent_ns - t0_ns) / 1e9, p.ttft_ms);
  add_rate_buckets(p, t0_ns, buckets);
  for (double gap : p.itl_ms()) lane.itl_sample_ms.add(gap);
  for (float t : p.event_tokens)
    if (!std::isnan(t) && t >= 0) lane.tokens_per_event_sample.add(t);
  if (p.experiment == "context_sweep" && p.prompt_tokens > 0) {
    const auto x = static_cast<double>(p.prompt_tokens);
    if (p.decode_tok_s > 0) lane.decode_vs_context.emplace_back(x, p.decode_tok_s);
    if (p.ttft_ms >= 0) lane.ttft_vs_context.emplace_back(x, p.ttft_ms / 1000.0);
  }
}

}  // namespace

bool StoredRunSeries::has_context_points() const {
  for (const auto& [id, lane] : by_lane)
    if (!lane.ttft_vs_context.empty()) return true;
  return false;
}

StoredRunSeries stored_run_series(const report::RunFolder& folder) {
  StoredRunSeries out;
  for (const std::string& id : folder.lane_ids()) out.lanes << QString::fromStdString(id);
  const int64_t t0 = time_origin_ns(folder.requests);
  std::map<QString, std::vector<double>> buckets;
  for (const report::RequestPoint& p : folder.requests) {
    const QString lane = QString::fromStdString(p.lane);
    if (!out.lanes.contains(lane)) out.lanes << lane;
    add_request(p, t0, out.by_lane[lane], buckets[lane]);
  }
  for (auto& [id, lane] : out.by_lane) {
    sort_by_x(lane.ttft_ms);
    sort_by_x(lane.decode_vs_context);
    sort_by_x(lane.ttft_vs_context);
    lane.output_tok_s = rate_points(buckets[id]);
  }
  return out;
}

}  // namespace lb::ui
