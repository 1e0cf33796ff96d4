// The phases of repeated trials: each (lane, phase) pools its trials' requests and keeps each
// trial's own figures, from which its intervals and the lanes' comparisons are made.
#include <algorithm>
#include <cmath>

#include "core/metrics/phase_cost.h"
#include "core/metrics/trial_intervals.h"
#include "core/record/phase_intervals.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

struct ExperimentContext::PooledPhase {
  std::vector<metrics::RequestRecord> records;  // every trial's measured requests
  std::vector<metrics::TrialValues> trials;     // each trial's figures
  std::vector<int64_t> trial_indexes;
  std::vector<metrics::LaneSummary> summaries;  // each trial's summary
  std::vector<metrics::PhaseEnergy> energies;   // each trial's energy
  int64_t warmups = 0;
  int64_t cancelled = 0;
  bool interrupted = false;
  size_t samples_at = 0;  // its entry in phase_samples_
};

namespace {

double mean_of(const std::vector<metrics::LaneSummary>& s, double metrics::LaneSummary::*field) {
  double sum = 0;
  size_t n = 0;
  for (const auto& x : s)
    if (x.completed > 0 && std::isfinite(x.*field) && x.*field >= 0) sum += x.*field, ++n;
  return n ? sum / double(n) : 0.0;
}

// The pooled summary's rates come from the trials: pooled requests span the pauses between
// trials (and, interleaved, the other lanes' turns), so the pooled duration would dilute them.
void rates_from_trials(metrics::LaneSummary& pooled, const std::vector<metrics::LaneSummary>& t) {
  pooled.duration_s = 0;
  for (const auto& x : t) pooled.duration_s += x.duration_s;
  pooled.request_throughput = mean_of(t, &metrics::LaneSummary::request_throughput);
  pooled.output_throughput = mean_of(t, &metrics::LaneSummary::output_throughput);
  pooled.total_token_throughput = mean_of(t, &metrics::LaneSummary::total_token_throughput);
  if (pooled.request_goodput >= 0)
    pooled.request_goodput = mean_of(t, &metrics::LaneSummary::request_goodput);
}

}  // namespace

void ExperimentContext::begin_trial(int64_t trial, int64_t trials,
                                    std::vector<LaneRuntime*> lanes) {
  trial_ = trial;
  trials_ = std::max<int64_t>(trials, 1);
  lanes_ = std::move(lanes);
}

void ExperimentContext::record_trial_phase(const LoadPhase& phase, const PhaseOutcome& outcome,
                                           const metrics::SloSpec& slo, int64_t warmups,
                                           const PhaseEnergyMeter& energy) {
  auto& slot = pooled_[{phase.lane->id, phase.phase}];
  const bool first = slot == nullptr;
  if (first) slot = std::make_shared<PooledPhase>();
  PooledPhase& p = *slot;
  p.records.insert(p.records.end(), outcome.records.begin(), outcome.records.end());
  p.summaries.push_back(metrics::summarize(outcome.records, slo));
  metrics::LaneSummary& trial_summary = p.summaries.back();
  p.energies.push_back(energy.energy(trial_summary.total_output_tokens));
  if (p.energies.back().measured()) trial_summary.energy_joules = p.energies.back().joules;
  trial_summary.usd_per_hour = cost_per_hour_of(phase.lane->id);
  p.trials.push_back(metrics::trial_values(p.summaries.back()));
  p.trial_indexes.push_back(trial_);
  p.warmups += warmups;
  p.cancelled += outcome.cancelled;
  p.interrupted = p.interrupted || outcome.interrupted;

  metrics::RequestSamples samples;
  metrics::LaneSummary summary = metrics::summarize(p.records, slo, &samples);
  summary.warmups_excluded = p.warmups;
  rates_from_trials(summary, p.summaries);
  record::PhaseRecord written;
  written.figures = summary;
  record::set_intervals(written, record::intervals_over_trials(p.trials));
  nlohmann::json& j = written.more;
  j["interrupted"] = p.interrupted;
  j["cancelled"] = p.cancelled;
  j["interval_method"] = metrics::kMethodOverTrials;
  j["trials"] = metrics::trial_figures_json(p.trials, p.trial_indexes);
  j["energy"] = metrics::to_json(metrics::pooled_energy(p.energies));
  if (const double usd = cost_per_hour_of(phase.lane->id); usd > 0)
    j["cost"] = metrics::cost_json(usd, summary.output_throughput);
  metrics::PhaseSamples entry{phase.lane->id, phase.phase, std::move(samples), p.trials};
  if (first) {
    p.samples_at = phase_samples_.size();
    phase_samples_.push_back(std::move(entry));
  } else {
    phase_samples_[p.samples_at] = std::move(entry);
  }
  auto& lane_section = section_["lanes"][phase.lane->id];
  lane_section["phases"][phase.phase] = record::to_json(written);
  if (first) lane_section["phase_order"].push_back(phase.phase);
}

void ExperimentContext::absorb(ExperimentContext& other) {
  phase_samples_.insert(phase_samples_.end(), other.phase_samples_.begin(),
                        other.phase_samples_.end());
  blockers_.insert(blockers_.end(), other.blockers_.begin(), other.blockers_.end());
  for (auto& [key, value] : other.section_.items()) {
    if (key == "lanes" && value.is_object()) {
      for (auto& [lane, lane_json] : value.items()) section_["lanes"][lane] = lane_json;
    } else if (value.is_array() && section_.contains(key) && section_[key].is_array()) {
      for (auto& v : value) section_[key].push_back(v);
    } else {
      section_[key] = value;
    }
  }
}

}  // namespace lb::run
