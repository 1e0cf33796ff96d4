#include "core/record/run_summary.h"

#include "core/record/json_member.h"

namespace lb::record {

const Interval* PhaseRecord::interval(std::string_view figure) const {
  const auto it = intervals.find(std::string(figure));
  return it == intervals.end() ? nullptr : &it->second;
}

std::optional<PhaseRecord::SteadyWindow> PhaseRecord::steady_window() const {
  const std::optional<SteadyStateRecord> steady = steady_state();
  if (!steady || !steady->found || !steady->window_s || std::isnan(steady->output_throughput))
    return std::nullopt;  // none, or damaged: nothing to draw
  return SteadyWindow{steady->window_s->first, steady->window_s->second, steady->output_throughput,
                      steady->short_window};
}

std::optional<SteadyStateRecord> PhaseRecord::steady_state() const {
  return read_steady_state(member(more, "steady_state"));
}

std::optional<PhaseRecord::EnergyGap> PhaseRecord::energy_gap() const {
  const nlohmann::json& energy = member(more, "energy");
  for (const char* status : {"unsupported", "refused"})
    if (member(energy, status).is_string()) return EnergyGap{status, member_text(energy, status)};
  return std::nullopt;
}

std::optional<PhaseEnergyRecord> PhaseRecord::energy() const {
  return read_phase_energy(member(more, "energy"));
}

std::optional<PhaseCostRecord> PhaseRecord::cost() const {
  return read_phase_cost(member(more, "cost"));
}

std::string PhaseRecord::interval_unavailable(std::string_view figure) const {
  return member_text(member(more, "intervals_unavailable"), std::string(figure).c_str());
}

double Interval::estimate() const { return member_number(more, "estimate"); }

std::optional<DeterminismFloor> ExperimentSection::determinism_floor() const {
  return read_determinism_floor(member(more, "floor"));
}

std::optional<DeterminismFloor> LaneRecord::determinism_floor() const {
  return read_determinism_floor(member(more, "determinism"));
}

std::vector<ContextSizeRecord> LaneRecord::context_sweep() const {
  return read_context_sweep(member(more, "context_sweep"));
}

std::optional<CapacityRecord> LaneRecord::capacity() const {
  return read_capacity(member(more, "capacity"));
}

std::optional<LoadBaselineRecord> LaneRecord::load_baseline() const {
  return read_load_baseline(member(more, "load_baseline"));
}

std::optional<SessionsRecord> LaneRecord::sessions() const {
  return read_sessions(member(more, "sessions"));
}

std::optional<ConcurrencySweepRecord> LaneRecord::concurrency_sweep() const {
  return read_concurrency_sweep(member(more, "concurrency_sweep"));
}

std::optional<KvCapacityRecord> LaneRecord::kv_capacity() const {
  return read_kv_capacity(member(more, "kv_capacity"));
}

std::optional<PrefixCacheRecord> LaneRecord::prefix_cache() const {
  return read_prefix_cache(member(more, "prefix_cache"));
}

std::vector<SpeculativeLevelRecord> LaneRecord::speculative() const {
  return read_speculative(member(more, "speculative"));
}

std::optional<TraceScheduleRecord> LaneRecord::trace_schedule() const {
  return read_trace_schedule(member(more, "schedule"));
}

std::vector<SweepAxisRecord> RunSummary::sweeps() const {
  return read_sweeps(member(more, "sweeps"));
}

std::string ExperimentSection::status() const { return member_text(more, "status"); }

std::vector<std::string> RunHeader::server_failures() const {
  std::vector<std::string> out;
  if (const nlohmann::json& failures = member(more, "server_failures"); failures.is_array())
    for (const nlohmann::json& failure : failures)
      if (failure.is_string()) out.push_back(failure.get<std::string>());
  return out;
}

std::string ExperimentSection::prompt_set() const { return member_text(more, "prompt_set"); }

std::optional<TraceSourceRecord> ExperimentSection::trace() const {
  return read_trace_source(member(more, "trace"));
}

CapacitySlo ExperimentSection::capacity_slo() const {
  return read_capacity_slo(member(more, "slo"));
}

Comparison::Method Comparison::method() const {
  Method m;
  m.level = member_number(more, "level");
  m.basis = member_text(more, "basis");
  m.name = member_text(more, "method");
  m.resamples = member_number(more, "resamples");
  m.n_baseline = member_number(more, "n_baseline");
  m.needed = member_number(more, m.basis == "trials" ? "trials_needed" : "requests_needed");
  return m;
}

std::vector<PerformanceGateRecord> ExperimentSection::performance_gates() const {
  std::vector<PerformanceGateRecord> out;
  const nlohmann::json& list = member(more, "performance_gates");
  if (!list.is_array()) return out;
  for (const nlohmann::json& g : list) {
    if (!g.is_object()) continue;
    PerformanceGateRecord r;
    r.baseline = member_text(g, "baseline");
    r.candidate = member_text(g, "candidate");
    r.phase = member_text(g, "phase");
    r.figure = member_text(g, "figure");
    r.rule = member_text(g, "rule");
    r.threshold = member_number(g, "threshold");
    r.outcome = member_text(g, "outcome");
    r.trials_needed = member_number(g, "trials_needed");
    r.requests_needed = member_number(g, "requests_needed");
    r.statement = member_text(g, "statement");
    if (const nlohmann::json& c = member(g, "comparison"); c.is_object()) {
      FileFields ignored("summary.json");  // read as absent where damaged, as every member here
      r.comparison = read_comparison(c, "", ignored);
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<FloorVerdictRecord> ExperimentSection::floor_verdicts() const {
  std::vector<FloorVerdictRecord> out;
  for (PairOutcome& p : pair_outcomes())
    if (p.floor_verdict) out.push_back(std::move(*p.floor_verdict));
  return out;
}

std::vector<PairOutcome> ExperimentSection::pair_outcomes() const {
  if (!is(ExperimentKind::Regression)) return {};
  return read_pair_outcomes(member(more, "comparisons"));
}

std::vector<SampledOutcome> ExperimentSection::sampled_outcomes() const {
  if (!is(ExperimentKind::SampledRegression)) return {};
  std::vector<SampledOutcome> out = read_sampled_outcomes(member(more, "comparisons"));
  for (SampledOutcome& o : out) o.samples_per_prompt = member_number(more, "samples");
  return out;
}

bool PhaseRecord::interrupted() const { return member_flag(more, "interrupted"); }

std::vector<std::string> phase_names_in_order(const nlohmann::json& lane_section) {
  std::vector<std::string> out;
  if (!lane_section.is_object()) return out;
  const auto phases = lane_section.find("phases");
  if (phases == lane_section.end() || !phases->is_object()) return out;
  const auto order = lane_section.find("phase_order");
  if (order != lane_section.end() && order->is_array())
    for (const auto& p : *order)
      if (p.is_string() && phases->contains(p.get<std::string>())) out.push_back(p);
  if (out.empty())
    for (auto it = phases->begin(); it != phases->end(); ++it) out.push_back(it.key());
  return out;
}

const char* to_string(GateStatus status) {
  switch (status) {
    case GateStatus::Pass:
      return "pass";
    case GateStatus::Fail:
      return "fail";
    case GateStatus::Unsupported:
      return "unsupported";
    case GateStatus::Stopped:
      return "stopped";
    case GateStatus::NotRun:
      break;
  }
  return "not run";
}

GateStatus gate_status_from(std::string_view text) {
  for (GateStatus s :
       {GateStatus::Pass, GateStatus::Fail, GateStatus::Unsupported, GateStatus::Stopped})
    if (text == to_string(s)) return s;
  return GateStatus::NotRun;
}

std::string GateResult::reason() const { return failures.empty() ? why : failures.front().why; }

const PhaseRecord* LaneRecord::phase(std::string_view name) const {
  for (const PhaseRecord& p : phases)
    if (p.name == name) return &p;
  return nullptr;
}

const GateResult* LaneRecord::gate(std::string_view check) const {
  for (const GateResult& g : gates)
    if (g.check == check) return &g;
  return nullptr;
}

const LaneRecord* ExperimentSection::lane(std::string_view id) const {
  for (const LaneRecord& l : lanes)
    if (l.id == id) return &l;
  return nullptr;
}

const PhaseRecord* ExperimentSection::phase(std::string_view lane_id,
                                            std::string_view phase_name) const {
  const LaneRecord* l = lane(lane_id);
  return l ? l->phase(phase_name) : nullptr;
}

std::vector<std::string> ExperimentSection::phase_order(
    const std::vector<std::string>& lane_ids) const {
  for (const std::string& id : lane_ids) {
    const LaneRecord* l = lane(id);
    if (!l || l->phases.empty()) continue;
    std::vector<std::string> order;
    for (const PhaseRecord& p : l->phases) order.push_back(p.name);
    return order;
  }
  return {};
}

const Comparison* ExperimentSection::comparison(std::string_view candidate, std::string_view phase,
                                                std::string_view figure) const {
  for (const Comparison& c : comparisons)
    if (c.candidate == candidate && c.phase == phase && c.figure == figure) return &c;
  return nullptr;
}

std::vector<const ExperimentSection*> RunSummary::of_kind(ExperimentKind kind) const {
  std::vector<const ExperimentSection*> out;
  for (const ExperimentSection& s : experiments)
    if (s.is(kind)) out.push_back(&s);
  return out;
}

}  // namespace lb::record
