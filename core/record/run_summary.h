#pragma once
// A run folder's summary.json as types. The engine writes it, the report, the Decision page, the
// Run page's tables and the CLI read it; every reader goes through read_run_summary, so a damaged
// or older file reads the same way everywhere: what could be read, plus one sentence per thing
// that could not (FileFields).
//
// RunSummary -> ExperimentSection (one per experiment, in run order) -> LaneRecord (one per lane)
// -> PhaseRecord (one per phase, in run order: "c8", "cold", "4096", ...). Members this version
// does not type yet (the per-kind extras such as a prefix-cache section's passes) travel in each
// level's `more`, so to_json(read_run_summary(x)) writes a folder of this version back byte for
// byte.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/bootstrap.h"
#include "core/metrics/summary.h"
#include "core/record/capacity_record.h"
#include "core/record/concurrency_sweep_record.h"
#include "core/record/context_size.h"
#include "core/record/determinism_floor.h"
#include "core/record/energy_record.h"
#include "core/record/experiment_kind.h"
#include "core/record/file_fields.h"
#include "core/record/kv_capacity_record.h"
#include "core/record/load_baseline_record.h"
#include "core/record/multimodal_gate_record.h"
#include "core/record/pair_outcome.h"
#include "core/record/prefix_cache_record.h"
#include "core/record/sessions_record.h"
#include "core/record/speculative_record.h"
#include "core/record/steady_state_record.h"
#include "core/record/sweep_record.h"
#include "core/record/trace_record.h"

namespace lb::record {

// A figure's 95 % interval as the phase recorded it ("intervals": {"median_ttft_ms": {...}}).
struct Interval {
  double lo = NAN;
  double hi = NAN;
  double level = NAN;
  int64_t n = -1;      // values behind it (requests or trials); -1 when not recorded
  std::string basis;   // "requests" or "trials"
  std::string method;  // "bca", "percentile", ...
  nlohmann::json more = nlohmann::json::object();
  bool known() const { return std::isfinite(lo) && std::isfinite(hi); }
  // Over trials, the figure the interval is about (the mean of the per-trial figures); NaN when
  // the file did not say.
  double estimate() const;
};

// One phase of one lane: the figures metrics::summarize computed from its requests, and their
// intervals.
struct PhaseRecord {
  std::string name;
  metrics::LaneSummary figures;
  std::map<std::string, Interval> intervals;  // by figure key: "median_ttft_ms", ...
  // Members not typed, and members the figures would write otherwise than the file had them (an
  // imported tool's provenance, a whole number written as a fraction): written over the figures.
  nlohmann::json more = nlohmann::json::object();
  // Figure members the file did not have (an imported tool's aggregates): not written back.
  std::vector<std::string> absent;

  const Interval* interval(std::string_view figure) const;
  bool interrupted() const;  // the phase was cut short by a stop
  // Its steady-state window ("steady_state", docs/metrics.md) when one was found and reads
  // whole: seconds from the phase's first send, and the output throughput within it.
  struct SteadyWindow {
    double start_s = 0;
    double end_s = 0;
    double output_throughput = 0;
    bool short_window = false;
  };
  std::optional<SteadyWindow> steady_window() const;
  // The whole steady-state block of a closed-loop level; nullopt when the phase has none.
  std::optional<SteadyStateRecord> steady_state() const;
  // Why the phase has no energy figure although energy was asked for: "unsupported" or
  // "refused", and the reason the lane gave (docs/metrics.md, "Energy"); nullopt otherwise.
  struct EnergyGap {
    std::string status;
    std::string why;
  };
  std::optional<EnergyGap> energy_gap() const;
  // Its energy and cost blocks; nullopt when the phase has none.
  std::optional<PhaseEnergyRecord> energy() const;
  std::optional<PhaseCostRecord> cost() const;
  // Why FIGURE has no interval ("n/a (1 trial)"); "" when the file gave no reason.
  std::string interval_unavailable(std::string_view figure) const;
};

// A gate's outcome, as summary.json records a check and the gate table shows a cell.
enum class GateStatus { Pass, Fail, Unsupported, NotRun, Stopped };
const char* to_string(GateStatus status);  // "pass", "fail", "unsupported", "not run", "stopped"
GateStatus gate_status_from(std::string_view text);  // NotRun for anything else

struct GateFailure {
  std::optional<int64_t> attempt;  // which of the check's repeats failed; a multimodal gate's
                                   // failures name their prompt instead (in `more`)
  std::string why;
  nlohmann::json more = nlohmann::json::object();
};

// One gate check of one lane. Also what the engine reports live as each check is scored.
struct GateResult {
  std::string lane_id;
  std::string check;  // "json", "tools", "multimodal (responses)", ...
  GateStatus status = GateStatus::NotRun;
  int64_t passed = 0;
  int64_t attempts = 0;
  int64_t repeat = 0;
  std::string score;  // "3/3"
  std::string why;    // why it is unsupported or stopped; "" otherwise
  std::vector<GateFailure> failures;
  nlohmann::json more = nlohmann::json::object();  // per-kind counts of the multimodal check

  // Why it did not pass, in one line: the first failure's reason, else `why`.
  std::string reason() const;
  // A multimodal check's API, per-kind scores and refusal.
  MultimodalGateRecord multimodal() const { return read_multimodal_gate(more); }
};

struct LaneRecord {
  std::string id;
  std::vector<PhaseRecord> phases;  // in run order
  std::vector<GateResult> gates;    // a gates experiment's checks, by check name
  nlohmann::json more = nlohmann::json::object();

  const PhaseRecord* phase(std::string_view name) const;
  const GateResult* gate(std::string_view check) const;
  // A determinism experiment's floor on this lane; nullopt when the section has none.
  std::optional<DeterminismFloor> determinism_floor() const;
  // A context sweep's sizes on this lane, in run order; empty for the other kinds.
  std::vector<ContextSizeRecord> context_sweep() const;
  // A capacity experiment's search on this lane; nullopt for the other kinds.
  std::optional<CapacityRecord> capacity() const;
  // A regression's greedy A/A baseline under load on this lane; nullopt when it ran none.
  std::optional<LoadBaselineRecord> load_baseline() const;
  // A sessions experiment's figures on this lane; nullopt for the other kinds.
  std::optional<SessionsRecord> sessions() const;
  // A throughput experiment's concurrency sweep (knee and stop); nullopt when it recorded none.
  std::optional<ConcurrencySweepRecord> concurrency_sweep() const;
  // The KV cache capacity the lane's server exposed; nullopt when the section has none.
  std::optional<KvCapacityRecord> kv_capacity() const;
  // A prefix-cache experiment's passes and evidence; nullopt for the other kinds.
  std::optional<PrefixCacheRecord> prefix_cache() const;
  // A speculative experiment's levels, by concurrency; empty for the other kinds.
  std::vector<SpeculativeLevelRecord> speculative() const;
  // A trace replay's schedule adherence; nullopt for the other kinds.
  std::optional<TraceScheduleRecord> trace_schedule() const;
};

// A candidate lane's figure against the baseline lane's: the ratio, its interval and the verdict.
struct Comparison {
  std::string baseline;
  std::string candidate;
  std::string phase;
  std::string figure;  // the phase's figure key: "median_ttft_ms", ...
  std::string label;
  std::string statement;  // the whole finding in one sentence
  double ratio = NAN;
  double lo = NAN;
  double hi = NAN;
  metrics::Verdict verdict = metrics::Verdict::Unknown;
  nlohmann::json more = nlohmann::json::object();
  bool interval_known() const { return std::isfinite(lo) && std::isfinite(hi); }

  // How its interval was made, read from `more`; NaN or "" where the file did not say.
  struct Method {
    double level = NAN;  // 0.95
    std::string basis;   // "requests" or "trials": what the interval resamples
    std::string name;    // "bca", "percentile (expanded)", ...
    double resamples = NAN;
    double n_baseline = NAN;  // requests (or trials) of the baseline behind it
    // For a verdict within noise, the requests (or trials) per lane that would settle it.
    double needed = NAN;
  };
  Method method() const;
};

// A performance gate judged on a comparison (plan "performance_gates", docs/metrics.md).
struct PerformanceGateRecord {
  std::string baseline;
  std::string candidate;
  std::string phase;
  std::string figure;
  std::string rule;  // "min_ratio" or "max_ratio"
  double threshold = NAN;
  std::string outcome;  // "pass", "fail", "inconclusive"
  // For an inconclusive gate, the trials (or, with one trial, the requests) per lane that would
  // settle it; NaN when not said.
  double trials_needed = NAN, requests_needed = NAN;
  std::optional<Comparison> comparison;  // what it was judged on; nullopt when none could be made
  std::string statement;
};

struct ExperimentSection {
  std::string name;
  std::optional<ExperimentKind> kind;  // nullopt: a kind this version does not know
  std::string kind_name;               // as written
  std::vector<LaneRecord> lanes;       // by lane id
  // Figure ratios of each candidate lane against the first; a regression's pair outcomes, which
  // share the file's "comparisons" list, stay in `more` and read through pair_outcomes().
  std::vector<Comparison> comparisons;
  std::vector<std::string> blockers;
  nlohmann::json more = nlohmann::json::object();
  // "comparisons" or "blockers" when the file wrote that list empty (written back the same way).
  std::set<std::string> empty_lists;

  bool is(ExperimentKind k) const { return kind == k; }
  const LaneRecord* lane(std::string_view id) const;
  const PhaseRecord* phase(std::string_view lane_id, std::string_view phase_name) const;
  // The experiment's phases in run order, from the first of `lane_ids` that has any.
  std::vector<std::string> phase_order(const std::vector<std::string>& lane_ids) const;
  // A regression's floor, when it measured one, and its candidates' verdicts against it, in
  // the file's order; read from `more`, a member of another type read as absent.
  std::optional<DeterminismFloor> determinism_floor() const;
  std::vector<FloorVerdictRecord> floor_verdicts() const;
  // A regression's candidates against the baseline, and a sampled regression's, in the file's
  // order; empty for the other kinds.
  std::vector<PairOutcome> pair_outcomes() const;
  std::vector<SampledOutcome> sampled_outcomes() const;
  // The experiment's performance gates, in the file's order (read from `more`).
  std::vector<PerformanceGateRecord> performance_gates() const;
  // A capacity experiment's SLOs (NaN where none was set).
  CapacitySlo capacity_slo() const;
  // "done"; "interrupted", "not_implemented" or "not_run" when it did not run whole.
  std::string status() const;
  // The prompt set a regression or sampled regression compared on; "" for the other kinds.
  std::string prompt_set() const;
  // A trace replay's trace (path, format, requests, speed-up); nullopt for the other kinds.
  std::optional<TraceSourceRecord> trace() const;
  // The comparison of CANDIDATE's FIGURE at PHASE with the baseline; nullptr when none.
  const Comparison* comparison(std::string_view candidate, std::string_view phase,
                               std::string_view figure) const;
};

struct RunHeader {
  std::string name;
  std::string started_at;
  std::string finished_at;  // "" while the run goes or when it was killed
  std::optional<bool> interrupted;
  std::vector<std::string> blockers;
  bool empty_blockers = false;  // the file wrote "blockers": []
  nlohmann::json more = nlohmann::json::object();
  // One sentence per managed lane whose server could not serve, in the file's order.
  std::vector<std::string> server_failures() const;
};

struct RunSummary {
  RunHeader run;
  std::vector<ExperimentSection> experiments;      // in run order
  nlohmann::json more = nlohmann::json::object();  // "servers", "sweeps"

  std::vector<const ExperimentSection*> of_kind(ExperimentKind kind) const;
  bool has(ExperimentKind kind) const { return !of_kind(kind).empty(); }
  // A swept plan's axes, each with its points and best value; empty for a plan without a sweep.
  std::vector<SweepAxisRecord> sweeps() const;
};

// summary.json's object (or any part that is not one: then an empty summary and a note).
RunSummary read_run_summary(const nlohmann::json& summary, FileFields& fields);
// The file's text parsed and read; a text that is not JSON is noted.
RunSummary read_run_summary_text(std::string_view text, FileFields& fields);

// One experiment's object of summary.json's "experiments" list.
ExperimentSection read_experiment_section(const nlohmann::json& section, FileFields& fields);
// One lane's object of a section's "lanes" (LANE_ID its key).
LaneRecord read_lane_record(const std::string& lane_id, const nlohmann::json& lane,
                            FileFields& fields);

// One comparison object (an experiment's "comparisons" entry, a performance gate's "comparison").
Comparison read_comparison(const nlohmann::json& comparison, const std::string& path,
                           FileFields& fields);

nlohmann::json to_json(const RunSummary& summary);
nlohmann::json to_json(const ExperimentSection& section);
nlohmann::json to_json(const Interval& interval);
nlohmann::json to_json(const PhaseRecord& phase);  // without its name (the key above it)
nlohmann::json to_json(const Comparison& comparison);
nlohmann::json to_json(const GateResult& gate);  // without lane and check (the keys above it)
// One gate check's object of summary.json (lanes.LANE.gates.CHECK) as a GateResult.
GateResult read_gate_result(const std::string& lane_id, const std::string& check,
                            const nlohmann::json& gate, const std::string& path,
                            FileFields& fields);

// The phases of a lane section of summary.json ({"phase_order": [...], "phases": {...}}) in run
// order: the names phase_order lists that have a phase, else (an older or hand-made file) the
// phases in the object's order. For readers that walk the file's JSON itself.
std::vector<std::string> phase_names_in_order(const nlohmann::json& lane_section);

// The LaneSummary fields of a phase object; the members it does not know are left in *rest.
metrics::LaneSummary read_lane_summary(const nlohmann::json& phase, std::string_view path,
                                       FileFields& fields, nlohmann::json* rest);

}  // namespace lb::record
