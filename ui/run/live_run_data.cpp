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

LiveRunData::Lane& LiveRunData::lane(const QString& id) {
  return data_.try_emplace(id, t0_ns_).first->second;
}

const LiveRunData::Lane* LiveRunData::find(const QString& id) const {
  const auto it = data_.find(id);
  return it == data_.end() ? nullptr : &it->second;
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
    add_one(this->lane(lane), record);
    changed.insert(lane);
    changed_phases.emplace(lane, QString::fromStdString(record.phase));
  }
  // Each phase is summarised once per batch, however many of its requests the batch holds.
  for (const auto& [lane, phase] : changed_phases) refresh_phase(this->lane(lane), phase);
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
  lane.all.add(record, m);
  lane.all_intervals.add(record, m);
  const QString phase = QString::fromStdString(record.phase);
  lane.by_phase
      .try_emplace(phase, metrics::SloSpec{}, kEventSample, metrics::ValueStorage::Memory,
                   LiveIntervals::kRequestSample)
      .first->second.add(record, m);
  lane.phase_intervals[phase].add(record, m);

  const net::StreamResult& r = record.result;
  std::vector<double> offsets_ns;
  std::vector<float> tokens;
  offsets_ns.reserve(r.events.size());
  bool counted = !r.events.empty();
  for (const net::EventArrival& e : r.events) {
    offsets_ns.push_back(static_cast<double>(e.arrival_ns - r.t_sent_ns));
    counted = counted && e.tokens >= 0;
  }
  if (counted)
    for (const net::EventArrival& e : r.events) tokens.push_back(static_cast<float>(e.tokens));
  ChartRequest request;
  request.traffic = traffic_request(record, m);
  request.experiment = record.experiment;
  request.phase = record.phase;
  request.decode_tok_s = m.decode_tok_s;
  request.prompt_tokens = m.prompt_tokens;
  request.output_tokens = m.output_tokens;
  request.event_offsets_ns = offsets_ns;
  request.event_tokens = tokens;
  lane.series.add(request);
}

std::optional<double> LiveRunData::phase_start_s(const QString& lane, const std::string& experiment,
                                                 const std::string& phase) const {
  const Lane* l = find(lane);
  return l ? l->series.phase_start_s(t0_ns_, experiment, phase) : std::nullopt;
}

double LiveRunData::lane_start_s(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.start_s(t0_ns_) : 0.0;
}

std::vector<QPointF> LiveRunData::ttft_over_time(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.ttft_ms(t0_ns_) : std::vector<QPointF>{};
}

int64_t LiveRunData::ttft_stride(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.ttft_stride() : 1;
}

std::vector<QPointF> LiveRunData::output_rate_over_time(const QString& lane, double now_s) const {
  const Lane* l = find(lane);
  return l ? l->series.output_tok_s(t0_ns_, now_s) : std::vector<QPointF>{};
}

const std::vector<double>& LiveRunData::itl_sample_ms(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.itl_sample_ms() : empty_;
}

const std::vector<double>& LiveRunData::tokens_per_event_sample(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.tokens_per_event_sample() : empty_;
}

const std::vector<QPointF>& LiveRunData::decode_vs_context(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.decode_vs_context() : no_points_;
}

const std::vector<QPointF>& LiveRunData::ttft_vs_context(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.ttft_vs_context() : no_points_;
}

bool LiveRunData::has_context_points() const {
  for (const auto& [name, lane] : data_)
    if (!lane.series.ttft_vs_context().empty()) return true;
  return false;
}

const std::vector<PhaseStat>& LiveRunData::phases(const QString& lane) const {
  auto it = data_.find(lane);
  return it == data_.end() ? no_phases_ : it->second.phases;
}

double LiveRunData::phase_x(const QString& phase) {
  return LaneSeriesFold::phase_x(phase.toStdString());
}

std::vector<PhasePoint> LiveRunData::phase_points(const QString& lane) const {
  std::vector<PhasePoint> out;
  for (const PhaseStat& stat : phases(lane)) {
    PhasePoint p = phase_point(stat.phase.toStdString(), stat.summary);
    if (const models::FigureInterval* i = stat.intervals.find("median_decode_tok_s")) {
      p.decode_lo = i->lo;
      p.decode_hi = i->hi;
    }
    out.push_back(p);
  }
  sort_by_x(out);
  return out;
}

LaneSeries LiveRunData::series(const QString& lane, double now_s) const {
  const Lane* l = find(lane);
  return l ? l->series.series(t0_ns_, now_s) : LaneSeries{};
}

const std::vector<QPointF>& LiveRunData::ttft_per_pass(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.ttft_per_pass() : no_points_;
}

const TrafficSeries& LiveRunData::traffic(const QString& lane) const {
  const Lane* l = find(lane);
  return l ? l->series.traffic() : no_traffic_;
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
  const Lane* l = find(lane);
  return l ? l->series.failed() : 0;
}

}  // namespace lb::ui
