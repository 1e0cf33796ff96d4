#include "ui/history/stored_run_series.h"

#include <algorithm>
#include <limits>

namespace lb::ui {
namespace {

using nlohmann::json;

int64_t int_or(const json& line, const char* key, int64_t fallback) {
  const auto it = line.find(key);
  return it != line.end() && it->is_number() ? it->get<int64_t>() : fallback;
}

// The run's time origin: its earliest scheduled request, as the live charts start at run start.
int64_t time_origin_ns(const std::vector<json>& lines) {
  int64_t t0 = std::numeric_limits<int64_t>::max();
  for (const json& line : lines) {
    const int64_t t = int_or(line, "t_sched_ns", int_or(line, "t_sent_ns", -1));
    if (t > 0) t0 = std::min(t0, t);
  }
  return t0 == std::numeric_limits<int64_t>::max() ? 0 : t0;
}

// Output tokens per 1 s bucket from one line's events: the server's per-event counts when every
// event has one, else the request's tokens spread evenly over its events.
void add_rate_buckets(const json& line, int64_t t0_ns, std::vector<double>& buckets) {
  const auto offsets = line.find("event_offsets_ns");
  if (offsets == line.end() || !offsets->is_array() || offsets->empty()) return;
  const auto tokens = line.find("event_tokens");
  bool exact = tokens != line.end() && tokens->is_array() && tokens->size() == offsets->size();
  for (size_t i = 0; exact && i < tokens->size(); ++i) exact = (*tokens)[i].is_number();
  const double output = static_cast<double>(int_or(line, "output_tokens", 0));
  const double even = output > 0 ? output / static_cast<double>(offsets->size()) : 0.0;
  const int64_t sent = int_or(line, "t_sent_ns", 0);
  for (size_t i = 0; i < offsets->size(); ++i) {
    if (!(*offsets)[i].is_number()) continue;
    const double at_s = static_cast<double>(sent + (*offsets)[i].get<int64_t>() - t0_ns) / 1e9;
    if (at_s < 0) continue;
    const auto bucket = static_cast<size_t>(at_s / StoredRunSeries::kRateBucketS);
    if (buckets.size() <= bucket) buckets.resize(bucket + 1, 0.0);
    buckets[bucket] += exact ? (*tokens)[i].get<double>() : even;
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

void add_line(const json& line, const report::RequestPoint& p, int64_t t0_ns,
              StoredLaneSeries& lane, std::vector<double>& buckets) {
  ++lane.requests;
  if (!p.ok) {
    ++lane.failed;
    return;
  }
  if (p.warmup) return;
  const int64_t sent = int_or(line, "t_sent_ns", -1);
  if (p.ttft_ms >= 0 && sent > 0)
    lane.ttft_ms.emplace_back(static_cast<double>(sent - t0_ns) / 1e9, p.ttft_ms);
  add_rate_buckets(line, t0_ns, buckets);
  lane.itl_ms.insert(lane.itl_ms.end(), p.itl_ms.begin(), p.itl_ms.end());
  if (const auto tokens = line.find("event_tokens"); tokens != line.end() && tokens->is_array())
    for (const json& t : *tokens)
      if (t.is_number() && t.get<double>() >= 0) lane.tokens_per_event.push_back(t.get<double>());
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
  const int64_t t0 = time_origin_ns(folder.request_lines);
  std::map<QString, std::vector<double>> buckets;
  const size_t n = std::min(folder.request_lines.size(), folder.requests.size());
  for (size_t i = 0; i < n; ++i) {
    const QString lane = QString::fromStdString(folder.requests[i].lane);
    if (!out.lanes.contains(lane)) out.lanes << lane;
    add_line(folder.request_lines[i], folder.requests[i], t0, out.by_lane[lane], buckets[lane]);
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
