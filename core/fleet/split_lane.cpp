#include "core/fleet/split_lane.h"

#include <algorithm>
#include <variant>

#include "core/metrics/steady_state.h"
#include "core/metrics/summary.h"
#include "core/record/phase_intervals.h"
#include "core/run/experiments/concurrency_sweep.h"
#include "core/run/experiments/trace_experiment.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;

double field_number(const json& j, const char* key) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  return it != j.end() && it->is_number() ? it->get<double>() : -1.0;
}

bool field_flag(const json& j, const char* key) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// The objectives the phase's goodput counted (its "slo"), as the clients' summaries name them.
metrics::SloSpec slo_of(const json& phase) {
  const json slo = phase.is_object() ? phase.value("slo", json()) : json();
  return {field_number(slo, "ttft_ms"), field_number(slo, "tpot_ms"), field_number(slo, "e2el_ms")};
}

// The energy the first client read of the lane's server over the phase (every client's load),
// per output token of all of them.
json energy_of(const json& first, int64_t output_tokens) {
  json energy = first.is_object() ? first.value("energy", json()) : json();
  const double joules = field_number(energy, "joules");
  if (joules <= 0 || output_tokens <= 0) return energy;
  energy["output_tokens"] = output_tokens;
  energy["joules_per_output_token"] = joules / static_cast<double>(output_tokens);
  energy["output_tokens_per_joule"] = static_cast<double>(output_tokens) / joules;
  energy["window_from"] = "the first client's readings, every client's output tokens";
  return energy;
}

struct SplitPhase {
  json summary;
  metrics::LaneSummary figures;
  bool interrupted = false;
  std::vector<metrics::RequestRecord> measured;
};

SplitPhase phase_of(const plan::Experiment& spec, const std::string& phase,
                    const std::vector<json>& clients, std::vector<metrics::RequestRecord> records) {
  SplitPhase out;
  int64_t warmups = 0, cancelled = 0;
  for (auto& r : records) {
    if (r.warmup)
      ++warmups;
    else
      out.measured.push_back(std::move(r));
  }
  std::sort(out.measured.begin(), out.measured.end(),
            [](const auto& a, const auto& b) { return a.result.t_done_ns < b.result.t_done_ns; });
  const json phases = clients.front().value("phases", json::object());
  const json first = phases.is_object() ? phases.value(phase, json::object()) : json::object();
  for (const json& c : clients) {
    const json all = c.value("phases", json());
    const json p = all.is_object() ? all.value(phase, json()) : json();
    out.interrupted = out.interrupted || field_flag(p, "interrupted") || p.is_null();
    cancelled += static_cast<int64_t>(std::max(0.0, field_number(p, "cancelled")));
  }
  metrics::RequestSamples samples;
  out.figures = metrics::summarize(out.measured, slo_of(first), &samples);
  out.figures.warmups_excluded = warmups;
  record::PhaseRecord written;
  written.figures = out.figures;
  record::set_intervals(written, record::intervals_over_requests(samples));
  json& j = written.more;
  j["interrupted"] = out.interrupted;
  j["cancelled"] = cancelled;
  if (first.contains("intervals_unavailable"))
    j["intervals_unavailable"] = first["intervals_unavailable"];
  j["energy"] = energy_of(first, out.figures.total_output_tokens);
  const auto rows = metrics::request_rows(out.measured);
  const auto* t = std::get_if<plan::ThroughputExperiment>(&spec.params);
  const metrics::OpenLoopTrim trim{spec.trim.warmup_s, spec.trim.cooldown_s,
                                   spec.trim.warmup_requests, spec.trim.cooldown_requests};
  if (t != nullptr && t->request_rate <= 0 && phase.size() > 1 && phase[0] == 'c')
    j["steady_state"] = metrics::to_json(
        metrics::steady_state_of(rows, std::atoll(phase.c_str() + 1), spec.steady_state_fraction));
  else if (trim.any())
    j["steady_state"] = metrics::to_json(metrics::trimmed_state_of(rows, trim));
  j["split"] = {{"clients", clients.size()},
                {"summarised_from", "every client's requests on one time line"}};
  out.summary = record::to_json(written);
  return out;
}

}  // namespace

std::set<ExperimentLane> split_pairs(const plan::Plan& plan) {
  std::set<ExperimentLane> out;
  if (!plan.split) return out;
  for (const auto& e : plan.experiments)
    if (e.runs_on(plan.split->lane) && plan::splits_load(e))
      out.insert({e.name_or_kind(), plan.split->lane});
  return out;
}

json split_lane_json(const plan::Experiment& spec, const std::string& lane,
                     const std::vector<json>& clients, const MergedRequests& requests) {
  json out = clients.front();
  std::vector<run::LevelFigures> levels;
  size_t scheduled = 0;
  bool interrupted = false;
  std::vector<metrics::RequestRecord> sent;
  // Each client scheduled the whole trace and sent its share.
  for (const json& c : clients)
    scheduled = std::max(
        scheduled,
        static_cast<size_t>(std::max(0.0, field_number(c.value("schedule", json()), "scheduled"))));
  const json order = out.value("phase_order", json::array());
  for (const json& name : order) {
    if (!name.is_string()) continue;
    const std::string phase = name.get<std::string>();
    const auto it = requests.split_records.find({spec.name_or_kind(), lane, phase});
    SplitPhase p = phase_of(
        spec, phase, clients,
        it == requests.split_records.end() ? std::vector<metrics::RequestRecord>() : it->second);
    interrupted = interrupted || p.interrupted;
    if (phase.size() > 1 && phase[0] == 'c')
      levels.push_back(run::level_figures(std::atoll(phase.c_str() + 1), p.figures,
                                          p.figures.failed, p.interrupted));
    sent.insert(sent.end(), std::make_move_iterator(p.measured.begin()),
                std::make_move_iterator(p.measured.end()));
    out["phases"][phase] = std::move(p.summary);
  }
  if (out.contains("concurrency_sweep") && !levels.empty())
    out["concurrency_sweep"] = record::to_json(
        run::sweep_record(levels, plan::ConcurrencyDoubling{}.min_gain, "list", std::nullopt));
  if (out.contains("schedule")) {
    run::PhaseOutcome outcome;
    outcome.records = std::move(sent);
    outcome.interrupted = interrupted;
    out["schedule"] = record::to_json(run::schedule_adherence(outcome, scheduled));
    out["schedule"]["clients"] = clients.size();
  }
  return out;
}

}  // namespace lb::fleet
