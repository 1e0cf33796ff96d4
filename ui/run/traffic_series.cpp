#include "ui/run/traffic_series.h"

#include <algorithm>
#include <cmath>

namespace lb::ui {

ExperimentKinds ExperimentKinds::from(const record::PlanHeadline& plan) {
  ExperimentKinds out;
  for (const record::PlannedExperiment& e : plan.experiments) out.add(e.name, e.kind);
  return out;
}

std::optional<record::ExperimentKind> ExperimentKinds::kind_of(
    const std::string& experiment) const {
  auto it = kinds_.find(experiment);
  // An experiment added to a run under a name the run already had is renamed "NAME-2".
  const size_t dash = experiment.rfind('-');
  if (it == kinds_.end() && dash != std::string::npos && dash + 1 < experiment.size() &&
      experiment.find_first_not_of("0123456789", dash + 1) == std::string::npos)
    it = kinds_.find(experiment.substr(0, dash));
  return record::experiment_kind_from(it == kinds_.end() ? experiment : it->second);
}

double TrafficSeries::probe_load(const QString& phase) {
  if (phase.size() < 2 || (phase[0] != 'c' && phase[0] != 'r')) return std::nan("");
  bool ok = false;
  const double load = phase.mid(1).toDouble(&ok);
  return ok && load > 0 ? load : std::nan("");
}

TrafficSeries::Probe& TrafficSeries::probe(const QString& phase, double load) {
  // Probes run one after another: the newest is nearly always the one asked for.
  for (auto it = probes_.rbegin(); it != probes_.rend(); ++it)
    if (it->phase == phase) return *it;
  probes_.emplace_back();
  probes_.back().phase = phase;
  probes_.back().load = load;
  return probes_.back();
}

void TrafficSeries::add(const TrafficRequest& r) {
  if (r.warmup) return;  // recorded, but excluded from what the charts aggregate
  if (r.kind == record::ExperimentKind::Capacity) {
    const double load = probe_load(r.phase);
    if (!std::isnan(load)) {
      Probe& p = probe(r.phase, load);
      if (!r.ok) {
        ++p.errors;
      } else {
        ++p.completed;
        if (r.ttft_ms >= 0) p.ttft_ms.insert(r.ttft_ms);
        if (r.tpot_ms >= 0 && std::isfinite(r.tpot_ms)) p.tpot_ms.insert(r.tpot_ms);
      }
    }
  }
  if (!r.ok) return;
  if (r.turn >= 0 && r.turn < kMaxTurns && r.ttft_ms >= 0) {
    const auto turn = static_cast<size_t>(r.turn);
    while (turn_ttft_ms_.size() <= turn) turn_ttft_ms_.emplace_back(kTurnSample);
    turn_ttft_ms_[turn].add(r.ttft_ms);
  }
  if (r.kind == record::ExperimentKind::Trace && r.t_sched_ns > 0 && r.t_sent_ns > 0)
    lateness_.add(QPointF(static_cast<double>(r.t_sched_ns),
                          static_cast<double>(r.t_sent_ns - r.t_sched_ns) / 1e6));
}

std::vector<QPointF> TrafficSeries::lateness(int64_t origin_ns) const {
  std::vector<QPointF> out = lateness_.points();
  // The stamps are whole nanoseconds, exact as doubles: the difference is exact too.
  for (QPointF& p : out) p.setX((p.x() - static_cast<double>(origin_ns)) / 1e9);
  return out;
}

std::vector<QPointF> TrafficSeries::ttft_by_turn() const {
  std::vector<QPointF> out;
  for (size_t t = 0; t < turn_ttft_ms_.size(); ++t) {
    if (turn_ttft_ms_[t].values().empty()) continue;
    std::vector<double> v = turn_ttft_ms_[t].values();
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    double median = *mid;
    if (v.size() % 2 == 0) median = (median + *std::max_element(v.begin(), mid)) / 2;
    out.emplace_back(static_cast<double>(t + 1), median);
  }
  return out;
}

std::vector<ProbeFigures> TrafficSeries::capacity_probes() const {
  std::vector<ProbeFigures> out;
  out.reserve(probes_.size());
  for (const Probe& p : probes_) {
    ProbeFigures f;
    f.load = p.load;
    f.completed = p.completed;
    f.errors = p.errors;
    if (!p.ttft_ms.empty()) f.ttft_p99_ms = p.ttft_ms.percentile(99);
    if (!p.tpot_ms.empty()) f.tpot_p99_ms = p.tpot_ms.percentile(99);
    out.push_back(f);
  }
  return out;
}

}  // namespace lb::ui
