#include "ui/run/lane_series.h"

#include <algorithm>
#include <cmath>

namespace lb::ui {
namespace {

constexpr int64_t kBucketNs = 1'000'000'000;  // RateBins::kBucketS

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// When the request was scheduled, else sent; -1 when neither is known.
int64_t origin_ns(const TrafficRequest& r) {
  if (r.t_sched_ns > 0) return r.t_sched_ns;
  return r.t_sent_ns > 0 ? r.t_sent_ns : -1;
}

std::vector<QPointF> shifted(std::vector<QPointF> points, double by_s) {
  if (by_s != 0)
    for (QPointF& p : points) p.setX(p.x() + by_s);
  return points;
}

}  // namespace

void RateBins::add(int64_t at_ns, double tokens) {
  int64_t bin = floor_div(at_ns - anchor_ns_, width_ns_);
  if (bins_.empty()) first_ = bin;
  while (bin < first_ ? static_cast<size_t>(first_ - bin) + bins_.size() > kMaxBins
                      : static_cast<size_t>(bin - first_) >= kMaxBins) {
    if (width_ns_ >= kBucketNs) break;  // as wide as a bucket: grow instead
    widen();
    bin = floor_div(at_ns - anchor_ns_, width_ns_);
  }
  if (!bins_.empty()) {
    const int64_t last = first_ + static_cast<int64_t>(bins_.size()) - 1;
    const int64_t span_bins = std::max(last, bin) - std::min(first_, bin);
    if (span_bins > kMaxSpanS * (kBucketNs / width_ns_)) return;
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

std::vector<QPointF> RateBins::points(int64_t t0_ns, double end_s) const {
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
  for (size_t b = 0; b < buckets.size(); ++b) {
    const double bucket_end_s =
        (static_cast<double>(first_bucket + static_cast<int64_t>(b)) + 1) * kBucketS;
    if (bucket_end_s > end_s) break;  // still filling: it would dip misleadingly
    out.emplace_back(bucket_end_s, buckets[b] / kBucketS);
  }
  return out;
}

void sort_by_x(std::vector<PhasePoint>& points) {
  const auto key = [](const PhasePoint& p) {
    return std::isnan(p.x) ? std::numeric_limits<double>::infinity() : p.x;
  };
  std::stable_sort(points.begin(), points.end(),
                   [&key](const PhasePoint& a, const PhasePoint& b) { return key(a) < key(b); });
}

PhasePoint phase_point(std::string_view phase, const metrics::LaneSummary& figures) {
  PhasePoint p;
  p.x = LaneSeriesFold::phase_x(phase);
  if (figures.completed == 0) return p;
  if (figures.decode_tok_s.count > 0) p.decode_p50_tok_s = figures.decode_tok_s.median;
  p.output_tok_s = figures.output_throughput;
  return p;
}

LaneSeriesFold::LaneSeriesFold(int64_t anchor_ns, size_t ttft_capacity)
    : anchor_ns_(anchor_ns), ttft_(ttft_capacity), rate_(anchor_ns) {}

double LaneSeriesFold::since_anchor_s(int64_t stamp_ns) const {
  return static_cast<double>(stamp_ns - anchor_ns_) / 1e9;
}

double LaneSeriesFold::phase_x(std::string_view phase) {
  if (phase == "cold") return 1;
  if (phase == "warm") return 2;
  if (phase == "control") return 3;
  const QString digits = QString::fromUtf8(phase.data(), static_cast<qsizetype>(phase.size()));
  bool ok = false;
  const double n = (digits.startsWith('c') ? digits.mid(1) : digits).toDouble(&ok);
  return ok ? n : std::nan("");
}

void LaneSeriesFold::add(const ChartRequest& request) {
  const TrafficRequest& t = request.traffic;
  ++requests_;
  if (const int64_t origin = origin_ns(t); origin > 0) start_ns_ = std::min(start_ns_, origin);
  if (!t.warmup && t.t_sent_ns > 0) {  // failed ones too: the summary's window counts them
    std::string key;
    key.reserve(request.experiment.size() + 1 + request.phase.size());
    key.append(request.experiment).append(1, '\n').append(request.phase);
    const auto [at, added] = phase_first_ns_.try_emplace(std::move(key), t.t_sent_ns);
    if (!added) at->second = std::min(at->second, t.t_sent_ns);
  }
  traffic_.add(t);
  if (!t.ok) {
    ++failed_;
    return;
  }
  if (t.warmup) return;  // counted, but in no chart
  if (t.ttft_ms >= 0 && t.t_sent_ns > 0) ttft_.add(QPointF(since_anchor_s(t.t_sent_ns), t.ttft_ms));
  add_events(request);
  // By the experiment's kind, not its name: a plan may name a context sweep "long prompts".
  if (t.kind == record::ExperimentKind::PrefixCache && t.ttft_ms >= 0) {
    const double pass = phase_x(request.phase);
    if (!std::isnan(pass)) insert_sorted(ttft_pass_, QPointF(pass, t.ttft_ms));
  }
  if (t.kind == record::ExperimentKind::ContextSweep && request.prompt_tokens > 0) {
    const auto x = static_cast<double>(request.prompt_tokens);
    if (request.decode_tok_s > 0) insert_sorted(decode_ctx_, QPointF(x, request.decode_tok_s));
    if (t.ttft_ms >= 0) insert_sorted(ttft_ctx_, QPointF(x, t.ttft_ms / 1000.0));
  }
}

// The output rate counts each event's tokens when the server counted every event's, else the
// request's tokens spread evenly over its events (so an MTP lane is never undercounted by
// counting events).
void LaneSeriesFold::add_events(const ChartRequest& request) {
  const std::span<const double> offsets = request.event_offsets_ns;
  const std::span<const float> tokens = request.event_tokens;
  const bool exact =
      !tokens.empty() && tokens.size() == offsets.size() &&
      std::none_of(tokens.begin(), tokens.end(), [](float t) { return std::isnan(t) || t < 0; });
  const double output = static_cast<double>(std::max<int64_t>(request.output_tokens, 0));
  const double even = offsets.empty() ? 0.0 : output / static_cast<double>(offsets.size());
  const int64_t sent = request.traffic.t_sent_ns;
  auto known = [](double offset_ns) { return offset_ns >= 0 && offset_ns <= kMaxEventOffsetNs; };
  const bool timed = sent > 0 && sent <= std::numeric_limits<int64_t>::max() -
                                             static_cast<int64_t>(kMaxEventOffsetNs);
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (!known(offsets[i])) continue;  // NaN (not known) too
    if (timed)                         // events without a send stamp have no time
      rate_.add(sent + static_cast<int64_t>(offsets[i]),
                exact ? static_cast<double>(tokens[i]) : even);
    if (i > 0 && known(offsets[i - 1])) itl_.add((offsets[i] - offsets[i - 1]) / 1e6);
  }
  if (exact)
    for (float t : tokens) tokens_per_event_.add(t);
}

std::vector<QPointF> LaneSeriesFold::ttft_ms(int64_t t0_ns) const {
  return shifted(ttft_.points(), since_anchor_s(t0_ns) * -1);
}

double LaneSeriesFold::start_s(int64_t t0_ns) const {
  if (start_ns_ == std::numeric_limits<int64_t>::max()) return 0;
  return std::max(0.0, static_cast<double>(start_ns_ - t0_ns) / 1e9);
}

std::optional<double> LaneSeriesFold::phase_start_s(int64_t t0_ns, const std::string& experiment,
                                                    const std::string& phase) const {
  const auto at = phase_first_ns_.find(experiment + "\n" + phase);
  if (at == phase_first_ns_.end()) return std::nullopt;
  return static_cast<double>(at->second - t0_ns) / 1e9;
}

LaneSeries LaneSeriesFold::series(int64_t t0_ns, double end_s) const {
  LaneSeries s;
  s.ttft_ms = ttft_ms(t0_ns);
  s.ttft_stride = ttft_.stride();
  s.output_tok_s = rate_.points(t0_ns, end_s);
  s.itl_sample_ms = itl_.values();
  s.itl_gaps_seen = itl_.seen();
  s.tokens_per_event_sample = tokens_per_event_.values();
  s.decode_vs_context = decode_ctx_;
  s.ttft_vs_context = ttft_ctx_;
  s.ttft_per_pass = ttft_pass_;
  s.lateness_ms = traffic_.lateness(t0_ns);
  s.lateness_stride = traffic_.lateness_stride();
  s.ttft_by_turn = traffic_.ttft_by_turn();
  s.capacity_probes = traffic_.capacity_probes();
  s.requests = requests_;
  s.failed = failed_;
  s.start_s = start_s(t0_ns);
  for (const auto& [key, first_ns] : phase_first_ns_)
    s.phase_start_s[key] = static_cast<double>(first_ns - t0_ns) / 1e9;
  return s;
}

}  // namespace lb::ui
