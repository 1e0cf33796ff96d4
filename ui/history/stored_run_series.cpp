#include "ui/history/stored_run_series.h"

#include "ui/run/chart_catalog.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lb::ui {
namespace {

// When the request was scheduled, else sent; -1 when neither is stored.
int64_t origin_stamp(const report::RequestPoint& p) {
  if (p.t_sched_ns > 0) return p.t_sched_ns;
  return p.t_sent_ns > 0 ? p.t_sent_ns : -1;
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

StoredSeriesBuilder::StoredSeriesBuilder(const QStringList& lanes, StoredTrafficPlan plan)
    : lanes_(lanes), plan_(std::move(plan)) {}

LaneSeriesFold& StoredSeriesBuilder::lane(const std::string& id) {
  if (last_lane_ && id == last_id_) return *last_lane_;
  const QString name = QString::fromStdString(id);
  if (!lanes_.contains(name)) lanes_ << name;
  last_id_ = id;
  last_lane_ =
      &by_lane_.try_emplace(name, std::max<int64_t>(anchor_ns_, 0), StoredRunSeries::kMaxTtftPoints)
           .first->second;
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

void StoredSeriesBuilder::add(const report::RequestPoint& p) {
  ChartRequest request;
  request.traffic = traffic_request(p, plan_.kinds);
  request.experiment = p.experiment;
  request.phase = p.phase;
  request.decode_tok_s = p.decode_tok_s;
  request.prompt_tokens = p.prompt_tokens;
  request.output_tokens = p.output_tokens;
  request.event_offsets_ns = p.event_offsets_ns;
  request.event_tokens = p.event_tokens;
  lane(p.lane).add(request);
}

StoredRunSeries StoredSeriesBuilder::finish(const QStringList& lane_order) {
  StoredRunSeries out;
  out.lanes = lane_order;
  out.capacity_slo = plan_.capacity_slo;
  for (const QString& lane : lanes_)
    if (!out.lanes.contains(lane)) out.lanes << lane;
  const int64_t t0 = t0_ns_ == INT64_MAX ? 0 : t0_ns_;
  for (const auto& [id, fold] : by_lane_) out.by_lane.emplace(id, fold.series(t0));
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

namespace {

// Each lane's levels of SECTION, as a live run's phases would give them.
std::map<QString, std::vector<PhasePoint>> phase_points(const record::ExperimentSection& section) {
  std::map<QString, std::vector<PhasePoint>> out;
  for (const record::LaneRecord& lane : section.lanes) {
    std::vector<PhasePoint>& points = out[QString::fromStdString(lane.id)];
    for (const record::PhaseRecord& phase : lane.phases) {
      PhasePoint p = phase_point(phase.name, phase.figures);
      if (const record::Interval* i = phase.interval("median_decode_tok_s"); i && i->known()) {
        p.decode_lo = i->lo;
        p.decode_hi = i->hi;
      }
      points.push_back(p);
    }
    sort_by_x(points);
  }
  return out;
}

}  // namespace

void add_summary(StoredRunSeries& series, const record::RunSummary& summary) {
  add_steady_windows(series, summary);
  using K = record::ExperimentKind;
  const record::ExperimentSection* levels = nullptr;
  const record::ExperimentSection* loads = nullptr;
  for (const record::ExperimentSection& e : summary.experiments) {
    if (!e.kind) continue;
    if (std::find(series.kinds.begin(), series.kinds.end(), *e.kind) == series.kinds.end())
      series.kinds.push_back(*e.kind);
    if (!levels && (e.is(K::Throughput) || e.is(K::Speculative))) levels = &e;
    if (levels && !levels->is(K::Throughput) && e.is(K::Throughput)) levels = &e;
    if (!loads && record::measures_load(*e.kind)) loads = &e;
    if (loads && !loads->is(K::Throughput) && e.is(K::Throughput)) loads = &e;
  }
  if (levels) series.concurrency_phases = phase_points(*levels);
  if (loads) series.pareto_phases = phase_points(*loads);
}

StoredRunSeries stored_run_series(const report::RunFolder& folder) {
  QStringList lanes;
  for (const std::string& id : folder.lane_ids()) lanes << QString::fromStdString(id);
  StoredSeriesBuilder builder(lanes, StoredTrafficPlan::from(folder.plan_headline));
  builder.add_block(folder.requests);
  StoredRunSeries series = builder.finish();
  add_summary(series, folder.record);
  return series;
}

}  // namespace lb::ui
