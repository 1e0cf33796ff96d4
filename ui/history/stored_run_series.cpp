#include "ui/history/stored_run_series.h"

#include "ui/run/chart_catalog.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::ui {
namespace {

constexpr int64_t kBucketNs = 1'000'000'000;  // StoredRunSeries::kRateBucketS

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// When the request was scheduled (else sent); -1 when neither is stored.
int64_t origin_stamp(const report::RequestPoint& p) {
  const int64_t t = p.t_sched_ns >= 0 ? p.t_sched_ns : p.t_sent_ns;
  return t > 0 ? t : -1;
}

void sort_by_x(std::vector<QPointF>& points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
}

TrafficRequest traffic_request(const report::RequestPoint& p, const ExperimentKinds& kinds) {
  TrafficRequest r;
  r.kind = kinds.kind_of(p.experiment);
  r.phase = QString::fromStdString(p.phase);
  r.ok = p.ok;
  r.warmup = p.warmup;
  r.turn = p.turn;
  r.ttft_ms = p.ttft_ms;
  r.tpot_ms = p.tpot_ms;
  r.t_sched_ns = p.t_sched_ns;
  r.t_sent_ns = p.t_sent_ns;
  return r;
}

}  // namespace

bool StoredRunSeries::has_context_points() const {
  for (const auto& [id, lane] : by_lane)
    if (!lane.ttft_vs_context.empty()) return true;
  return false;
}

bool StoredRunSeries::has_lateness() const {
  for (const auto& [id, lane] : by_lane)
    if (!lane.lateness_ms.empty()) return true;
  return false;
}

bool StoredRunSeries::has_turns() const {
  for (const auto& [id, lane] : by_lane)
    if (!lane.ttft_by_turn.empty()) return true;
  return false;
}

bool StoredRunSeries::has_capacity_probes() const {
  for (const auto& [id, lane] : by_lane)
    if (!lane.capacity_probes.empty()) return true;
  return false;
}

StoredTrafficPlan StoredTrafficPlan::from(const record::PlanHeadline& plan) {
  return {ExperimentKinds::from(plan), plan.capacity.value_or(CapacitySlo{})};
}

void RateBins::add(int64_t at_ns, double tokens) {
  int64_t bin = floor_div(at_ns - anchor_ns_, width_ns_);
  if (bins_.empty()) first_ = bin;
  while (bin < first_ ? static_cast<size_t>(first_ - bin) + bins_.size() > kMaxBins
                      : static_cast<size_t>(bin - first_) >= kMaxBins) {
    if (width_ns_ >= kBucketNs) break;  // as wide as a bucket: grow instead
    widen();
    bin = floor_div(at_ns - anchor_ns_, width_ns_);
  }
  if (bin < first_) {  // room before, with slack so that a run of earlier stamps is cheap
    const auto needed = static_cast<size_t>(first_ - bin);
    const size_t used = needed + bins_.size();
    const size_t room = needed + std::min(bins_.size() / 2, kMaxBins > used ? kMaxBins - used : 0);
    bins_.insert(bins_.begin(), room, 0.0);
    first_ -= static_cast<int64_t>(room);
  }
  const auto at = static_cast<size_t>(bin - first_);
  if (at >= bins_.size()) bins_.resize(at + 1, 0.0);
  bins_[at] += tokens;
}

// The next width that divides 1 s: 1, 2, 5, 10, 20, 50 ... ms.
void RateBins::widen() {
  const int64_t lead = width_ns_ / 1'000'000;
  int64_t scale = 1;
  while (lead / scale >= 10) scale *= 10;
  const int64_t digit = lead / scale;
  const int64_t factor = digit == 2 ? 5 : 2;  // 1 -> 2 -> 5 -> 10
  const int64_t wider = width_ns_ * factor / (digit == 2 ? 2 : 1);
  std::vector<double> merged;
  int64_t merged_first = 0;
  for (size_t i = 0; i < bins_.size(); ++i) {
    const int64_t start = (first_ + static_cast<int64_t>(i)) * width_ns_;
    const int64_t bin = floor_div(start, wider);
    if (merged.empty()) merged_first = bin;
    const auto at = static_cast<size_t>(bin - merged_first);
    if (at >= merged.size()) merged.resize(at + 1, 0.0);
    merged[at] += bins_[i];
  }
  bins_ = std::move(merged);
  first_ = merged_first;
  width_ns_ = wider;
}

std::vector<QPointF> RateBins::points(int64_t t0_ns) const {
  // A lane that started late begins at its first token; quiet seconds after it read 0.
  int64_t first_bucket = -1;
  std::vector<double> buckets;
  for (size_t i = 0; i < bins_.size(); ++i) {
    if (bins_[i] == 0) continue;
    const int64_t start = anchor_ns_ + (first_ + static_cast<int64_t>(i)) * width_ns_;
    const int64_t bucket = floor_div(start - t0_ns, kBucketNs);
    if (bucket < 0) continue;
    if (first_bucket < 0) first_bucket = bucket;
    const auto at = static_cast<size_t>(bucket - first_bucket);
    if (at >= buckets.size()) buckets.resize(at + 1, 0.0);
    buckets[at] += bins_[i];
  }
  std::vector<QPointF> out;
  out.reserve(buckets.size());
  for (size_t b = 0; b < buckets.size(); ++b)
    out.emplace_back((static_cast<double>(first_bucket + static_cast<int64_t>(b)) + 1) *
                         StoredRunSeries::kRateBucketS,
                     buckets[b] / StoredRunSeries::kRateBucketS);
  return out;
}

StoredSeriesBuilder::StoredSeriesBuilder(const QStringList& lanes, StoredTrafficPlan plan)
    : lanes_(lanes), plan_(std::move(plan)) {}

StoredSeriesBuilder::Lane& StoredSeriesBuilder::lane(const std::string& id) {
  if (last_lane_ && id == last_id_) return *last_lane_;
  const QString name = QString::fromStdString(id);
  if (!lanes_.contains(name)) lanes_ << name;
  last_id_ = id;
  last_lane_ = &by_lane_[name];
  return *last_lane_;
}

void StoredSeriesBuilder::add_block(const std::vector<report::RequestPoint>& points) {
  for (const report::RequestPoint& p : points) {
    const int64_t t = origin_stamp(p);
    if (t >= 0) t0_ns_ = std::min(t0_ns_, t);
  }
  if (anchor_ns_ < 0 && t0_ns_ != INT64_MAX) anchor_ns_ = t0_ns_;
  for (const report::RequestPoint& p : points) add(p);
}

// Every stride-th request of the lane, the stride doubling (and every other kept point going)
// when the lane has more than kMaxTtftPoints.
void StoredSeriesBuilder::thin(Lane& lane) {
  if (lane.ttft_raw.size() <= StoredRunSeries::kMaxTtftPoints) return;
  size_t kept = 0;
  for (size_t i = 0; i < lane.ttft_raw.size(); i += 2) lane.ttft_raw[kept++] = lane.ttft_raw[i];
  lane.ttft_raw.resize(kept);
  lane.series.ttft_stride *= 2;
}

void StoredSeriesBuilder::add(const report::RequestPoint& p) {
  Lane& lane = this->lane(p.lane);
  StoredLaneSeries& s = lane.series;
  ++s.requests;
  if (const int64_t t = origin_stamp(p); t >= 0) lane.start_ns = std::min(lane.start_ns, t);
  lane.traffic.add(traffic_request(p, plan_.kinds));
  if (!p.warmup && p.t_sent_ns > 0) {  // failed ones too: the summary's window counts them
    const auto [at, added] =
        lane.phase_first_ns.try_emplace(p.experiment + "\n" + p.phase, p.t_sent_ns);
    if (!added) at->second = std::min(at->second, p.t_sent_ns);
  }
  if (!p.ok) {
    ++s.failed;
    return;
  }
  if (p.warmup) return;
  if (p.ttft_ms >= 0 && p.t_sent_ns > 0 && lane.ttft_seen++ % s.ttft_stride == 0) {
    lane.ttft_raw.emplace_back(static_cast<double>(p.t_sent_ns), p.ttft_ms);
    thin(lane);
  }
  const std::vector<double>& offsets = p.event_offsets_ns;
  const bool exact = p.tokens_per_event_known();
  const double output = static_cast<double>(std::max<int64_t>(p.output_tokens, 0));
  const double even = offsets.empty() ? 0.0 : output / static_cast<double>(offsets.size());
  const int64_t sent = std::max<int64_t>(p.t_sent_ns, 0);
  if (!lane.rate && anchor_ns_ >= 0) lane.rate = std::make_unique<RateBins>(anchor_ns_);
  const bool timed = p.t_sent_ns > 0 && lane.rate;  // events without a send stamp have no time
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (std::isnan(offsets[i])) continue;
    if (timed)
      lane.rate->add(sent + static_cast<int64_t>(offsets[i]),
                     exact ? static_cast<double>(p.event_tokens[i]) : even);
    if (i > 0 && !std::isnan(offsets[i - 1]))
      s.itl_sample_ms.add((offsets[i] - offsets[i - 1]) / 1e6);
  }
  for (float t : p.event_tokens)
    if (!std::isnan(t) && t >= 0) s.tokens_per_event_sample.add(t);
  // By the experiment's kind, not its name: a plan may name a context sweep "long prompts".
  if (plan_.kinds.kind_of(p.experiment) == record::ExperimentKind::ContextSweep &&
      p.prompt_tokens > 0) {
    const auto x = static_cast<double>(p.prompt_tokens);
    if (p.decode_tok_s > 0) s.decode_vs_context.emplace_back(x, p.decode_tok_s);
    if (p.ttft_ms >= 0) s.ttft_vs_context.emplace_back(x, p.ttft_ms / 1000.0);
  }
}

StoredRunSeries StoredSeriesBuilder::finish(const QStringList& lane_order) {
  StoredRunSeries out;
  out.lanes = lane_order;
  out.capacity_slo = plan_.capacity_slo;
  for (const QString& lane : lanes_)
    if (!out.lanes.contains(lane)) out.lanes << lane;
  const int64_t t0 = t0_ns_ == INT64_MAX ? 0 : t0_ns_;
  for (auto& [id, lane] : by_lane_) {
    StoredLaneSeries& s = lane.series;
    s.ttft_ms.reserve(lane.ttft_raw.size());
    for (const QPointF& raw : lane.ttft_raw)
      s.ttft_ms.emplace_back((raw.x() - static_cast<double>(t0)) / 1e9, raw.y());
    sort_by_x(s.ttft_ms);
    sort_by_x(s.decode_vs_context);
    sort_by_x(s.ttft_vs_context);
    if (lane.rate) s.output_tok_s = lane.rate->points(t0);
    s.lateness_ms = lane.traffic.lateness(t0);
    s.lateness_stride = lane.traffic.lateness_stride();
    s.ttft_by_turn = lane.traffic.ttft_by_turn();
    s.capacity_probes = lane.traffic.capacity_probes();
    if (lane.start_ns != INT64_MAX)
      s.start_s = std::max(0.0, static_cast<double>(lane.start_ns - t0) / 1e9);
    for (const auto& [key, first_ns] : lane.phase_first_ns)
      s.phase_start_s[key] = static_cast<double>(first_ns - t0) / 1e9;
    out.by_lane.emplace(id, std::move(s));
  }
  last_lane_ = nullptr;
  return out;
}

void add_steady_windows(StoredRunSeries& series, const record::RunSummary& summary) {
  for (const record::ExperimentSection* e : summary.of_kind(record::ExperimentKind::Throughput)) {
    // A level's requests name their experiment: its phases are found under the section's name.
    const auto windows = steady_windows(*e, [&](const QString& lane, const std::string& phase) {
      const auto it = series.by_lane.find(lane);
      if (it == series.by_lane.end()) return std::optional<double>();
      const auto at = it->second.phase_start_s.find(e->name + "\n" + phase);
      return at == it->second.phase_start_s.end() ? std::optional<double>() : at->second;
    });
    for (const auto& [lane, spans] : windows) {
      auto& kept = series.by_lane.at(lane).steady_windows;
      kept.insert(kept.end(), spans.begin(), spans.end());
    }
  }
}

StoredRunSeries stored_run_series(const report::RunFolder& folder) {
  QStringList lanes;
  for (const std::string& id : folder.lane_ids()) lanes << QString::fromStdString(id);
  StoredSeriesBuilder builder(lanes, StoredTrafficPlan::from(folder.plan_headline));
  builder.add_block(folder.requests);
  StoredRunSeries series = builder.finish();
  add_steady_windows(series, folder.record);
  return series;
}

}  // namespace lb::ui
