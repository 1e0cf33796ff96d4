#include "ui/run/live_run_data.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::ui {

TrafficRequest LiveRunData::traffic_request(const metrics::RequestRecord& record,
                                            const metrics::RequestMetrics& m) const {
  TrafficRequest r;
  r.kind = kinds_.kind_of(record.experiment);
  r.phase = QString::fromStdString(record.phase);
  r.ok = m.ok;
  r.warmup = record.warmup;
  r.turn = record.turn;
  r.ttft_ms = m.ttft_ms;
  r.tpot_ms = m.tpot_ms;
  r.t_sched_ns = record.t_sched_ns;
  r.t_sent_ns = record.result.t_sent_ns;
  return r;
}

void LiveRunData::reset(int64_t t0_ns, QStringList lanes) {
  t0_ns_ = t0_ns;
  lanes_ = std::move(lanes);
  settled_ = false;
  data_.clear();
}

std::set<QString> LiveRunData::add(const std::vector<metrics::RequestRecord>& records) {
  std::set<QString> changed;
  std::set<std::pair<QString, QString>> changed_phases;
  for (const metrics::RequestRecord& record : records) {
    const QString lane = QString::fromStdString(record.lane_id);
    if (!lanes_.contains(lane)) lanes_ << lane;
    add_one(data_[lane], record);
    changed.insert(lane);
    changed_phases.emplace(lane, QString::fromStdString(record.phase));
  }
  // Each phase is summarised once per batch, however many of its requests the batch holds.
  for (const auto& [lane, phase] : changed_phases) refresh_phase(data_[lane], phase);
  return changed;
}

std::set<QString> LiveRunData::settle() {
  settled_ = true;
  std::set<QString> lanes;
  for (auto& [name, lane] : data_) {
    for (PhaseStat& stat : lane.phases) refresh_phase(lane, stat.phase);
    lanes.insert(name);
  }
  return lanes;
}

void LiveRunData::refresh_phase(Lane& lane, const QString& phase) const {
  metrics::LaneSummary summary = lane.by_phase.at(phase).summary();
  models::FigureIntervals intervals = lane.phase_intervals[phase].intervals(settled_);
  for (PhaseStat& stat : lane.phases)
    if (stat.phase == phase) {
      stat.summary = std::move(summary);
      stat.intervals = std::move(intervals);
      return;
    }
  lane.phases.push_back({phase, std::move(summary), std::move(intervals)});
}

void LiveRunData::add_one(Lane& lane, const metrics::RequestRecord& record) {
  const metrics::RequestMetrics m = metrics::compute_request_metrics(record);
  const int64_t scheduled = record.t_sched_ns > 0 ? record.t_sched_ns : record.result.t_sent_ns;
  if (scheduled > 0) lane.start_ns = std::min(lane.start_ns, scheduled);
  if (!record.warmup && record.result.t_sent_ns > 0) {
    const auto [at, added] =
        lane.phase_first_sent_ns.try_emplace(record.phase, record.result.t_sent_ns);
    if (!added) at->second = std::min(at->second, record.result.t_sent_ns);
  }
  lane.all.add(record, m);
  lane.all_intervals.add(record, m);
  const QString phase = QString::fromStdString(record.phase);
  lane.by_phase
      .try_emplace(phase, metrics::SloSpec{}, kEventSample, metrics::ValueStorage::Memory,
                   LiveIntervals::kRequestSample)
      .first->second.add(record, m);
  lane.phase_intervals[phase].add(record, m);
  lane.traffic.add(traffic_request(record, m));
  if (!m.ok) {
    ++lane.failed;
    return;
  }
  if (record.warmup) return;  // recorded, but excluded from what the charts aggregate
  add_points(lane, record, m);
}

void LiveRunData::add_points(Lane& lane, const metrics::RequestRecord& record,
                             const metrics::RequestMetrics& m) const {
  const net::StreamResult& r = record.result;
  const double sent_s = static_cast<double>(r.t_sent_ns - t0_ns_) / 1e9;
  if (m.ttft_ms >= 0) lane.ttft.add(QPointF(sent_s, m.ttft_ms));

  // Tokens per event: the server's count when every event has one, else the request's tokens
  // spread evenly (so MTP lanes are never undercounted by counting events).
  bool exact = !r.events.empty();
  for (const net::EventArrival& e : r.events) exact = exact && e.tokens >= 0;
  const double even =
      r.events.empty() || m.output_tokens <= 0
          ? 0
          : static_cast<double>(m.output_tokens) / static_cast<double>(r.events.size());
  for (const net::EventArrival& e : r.events) {
    const double at_s = static_cast<double>(e.arrival_ns - t0_ns_) / 1e9;
    if (at_s >= 0) {
      const auto bucket = static_cast<size_t>(at_s / kRateBucketS);
      if (lane.tokens_per_bucket.size() <= bucket) lane.tokens_per_bucket.resize(bucket + 1, 0.0);
      lane.tokens_per_bucket[bucket] += exact ? e.tokens : even;
    }
  }
  // By the experiment's kind, not its name: a plan may name a context sweep "long prompts".
  const std::optional<record::ExperimentKind> kind = kinds_.kind_of(record.experiment);
  if (kind == record::ExperimentKind::PrefixCache && m.ttft_ms >= 0) {
    const double pass = phase_x(QString::fromStdString(record.phase));
    if (!std::isnan(pass)) insert_sorted(lane.ttft_pass, QPointF(pass, m.ttft_ms));
  }
  if (kind == record::ExperimentKind::ContextSweep && m.prompt_tokens > 0) {
    if (m.decode_tok_s > 0)
      insert_sorted(lane.decode_ctx, QPointF(static_cast<double>(m.prompt_tokens), m.decode_tok_s));
    if (m.ttft_ms >= 0)
      insert_sorted(lane.ttft_ctx,
                    QPointF(static_cast<double>(m.prompt_tokens), m.ttft_ms / 1000.0));
  }
}

std::optional<double> LiveRunData::phase_start_s(const QString& lane,
                                                 const std::string& phase) const {
  const auto it = data_.find(lane);
  if (it == data_.end()) return std::nullopt;
  const auto at = it->second.phase_first_sent_ns.find(phase);
  if (at == it->second.phase_first_sent_ns.end()) return std::nullopt;
  return static_cast<double>(at->second - t0_ns_) / 1e9;
}

double LiveRunData::lane_start_s(const QString& lane) const {
  auto it = data_.find(lane);
  if (it == data_.end() || it->second.start_ns == std::numeric_limits<int64_t>::max()) return 0;
  return std::max(0.0, static_cast<double>(it->second.start_ns - t0_ns_) / 1e9);
}

const std::vector<QPointF>& LiveRunData::ttft_over_time(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? no_points_ : it->second.ttft.points();
}

int64_t LiveRunData::ttft_stride(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? 1 : it->second.ttft.stride();
}

std::vector<QPointF> LiveRunData::output_rate_over_time(const QString& lane, double now_s) const {
  std::vector<QPointF> out;
  auto it = data_.find(lane);
  if (it == data_.end()) return out;
  const std::vector<double>& buckets = it->second.tokens_per_bucket;
  // A lane that started late (lanes may run one after another) begins at its first token.
  size_t first = 0;
  while (first < buckets.size() && buckets[first] == 0) ++first;
  for (size_t b = first; b < buckets.size(); ++b) {
    const double start_s = static_cast<double>(b) * kRateBucketS;
    if (start_s + kRateBucketS > now_s) break;  // still filling: would dip misleadingly
    out.emplace_back(start_s + kRateBucketS, buckets[b] / kRateBucketS);
  }
  return out;
}

const std::vector<double>& LiveRunData::itl_sample_ms(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? empty_ : it->second.all.itl_sample();
}

const std::vector<double>& LiveRunData::tokens_per_event_sample(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? empty_ : it->second.all.tokens_per_event_sample();
}

std::vector<QPointF> LiveRunData::decode_vs_context(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? std::vector<QPointF>{} : it->second.decode_ctx;
}

std::vector<QPointF> LiveRunData::ttft_vs_context(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? std::vector<QPointF>{} : it->second.ttft_ctx;
}

bool LiveRunData::has_context_points() const {
  for (const auto& [name, lane] : data_)
    if (!lane.ttft_ctx.empty()) return true;
  return false;
}

const std::vector<PhaseStat>& LiveRunData::phases(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? no_phases_ : it->second.phases;
}

double LiveRunData::phase_x(const QString& phase) {
  if (phase == "cold") return 1;
  if (phase == "warm") return 2;
  if (phase == "control") return 3;
  bool ok = false;
  const double n = (phase.startsWith('c') ? phase.mid(1) : phase).toDouble(&ok);
  return ok ? n : std::nan("");
}

std::vector<QPointF> LiveRunData::phase_series(const QString& lane, PhaseMeasure measure) const {
  std::vector<QPointF> out;
  for (const PhaseStat& stat : phases(lane)) {
    const double x = phase_x(stat.phase);
    const metrics::LaneSummary& s = stat.summary;
    if (std::isnan(x) || s.completed == 0) continue;
    double y = std::nan("");
    switch (measure) {
      case PhaseMeasure::TtftP50Ms:
        y = s.ttft_ms.count > 0 ? s.ttft_ms.median : y;
        break;
      case PhaseMeasure::DecodeP50TokS:
        y = s.decode_tok_s.count > 0 ? s.decode_tok_s.median : y;
        break;
      case PhaseMeasure::OutputTokS:
        y = s.output_throughput;
        break;
    }
    if (!std::isnan(y)) insert_sorted(out, QPointF(x, y));
  }
  return out;
}

std::vector<QPointF> LiveRunData::pareto_points(const QString& lane) const {
  std::vector<QPointF> out;
  for (const PhaseStat& stat : phases(lane)) {
    const metrics::LaneSummary& s = stat.summary;
    if (s.completed == 0 || s.decode_tok_s.count == 0 || !(s.output_throughput >= 0)) continue;
    insert_sorted(out, QPointF(s.output_throughput, s.decode_tok_s.median));
  }
  return out;
}

std::vector<widgets::PointInterval> LiveRunData::phase_intervals(const QString& lane,
                                                                 PhaseMeasure measure) const {
  std::vector<widgets::PointInterval> out;
  const char* key = measure == PhaseMeasure::TtftP50Ms       ? "median_ttft_ms"
                    : measure == PhaseMeasure::DecodeP50TokS ? "median_decode_tok_s"
                                                             : "output_throughput";
  for (const PhaseStat& stat : phases(lane)) {
    const double x = phase_x(stat.phase);
    const models::FigureInterval* i = stat.intervals.find(key);
    if (std::isnan(x) || !i) continue;
    out.push_back({x, i->lo, i->hi});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  return out;
}

std::vector<QPointF> LiveRunData::ttft_per_pass(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? std::vector<QPointF>{} : it->second.ttft_pass;
}

const TrafficSeries& LiveRunData::traffic(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? no_traffic_ : it->second.traffic;
}

std::vector<ProbeFigures> LiveRunData::capacity_probes(const QString& lane) const {
  return traffic(lane).capacity_probes();
}

metrics::LaneSummary LiveRunData::summary(const QString& lane) const {
  auto it = data_.find(lane);
  if (it == data_.end()) return {};
  return it->second.all.summary();
}

models::FigureIntervals LiveRunData::intervals(const QString& lane) const {
  auto it = data_.find(lane);
  if (it == data_.end()) return {};
  return it->second.all_intervals.intervals(settled_);
}

int64_t LiveRunData::requests(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? 0 : it->second.all.requests();
}

int64_t LiveRunData::failed(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? 0 : it->second.failed;
}

}  // namespace lb::ui
