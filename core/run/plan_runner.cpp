#include "core/run/plan_runner.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

#include "core/files/safe_file_name.h"
#include "core/metrics/prometheus_text.h"
#include "core/metrics/server_counters.h"
#include "core/net/secret_text.h"
#include "core/net/stream_client.h"
#include "core/plan/sweep_expansion.h"
#include "core/record/figure_comparison.h"
#include "core/record/run_folder_writer.h"
#include "core/record/summary_sections.h"
#include "core/run/experiments/experiment.h"
#include "core/run/experiments/performance_gates.h"
#include "core/run/experiments/sweeps_section.h"
#include "core/run/experiments/trial_runner.h"
#include "core/run/folder/run_append.h"
#include "core/run/lanes/environment_info.h"
#include "core/run/lanes/lane_preparation.h"
#include "core/run/launch/launched_lanes.h"
#include "core/run/shard_record.h"

namespace lb::run {
namespace {

std::string experiment_name(const plan::Experiment& spec) { return spec.name_or_kind(); }

std::vector<LaneRuntime*> lanes_for(const plan::Experiment& spec, std::vector<LaneRuntime>& lanes) {
  std::vector<LaneRuntime*> out;
  if (spec.skips_lane) return out;  // a later client of the split lane: its first runs this
  for (auto& lane : lanes)
    if (spec.runs_on(lane.plan.id)) out.push_back(&lane);
  return out;
}

// /metrics before and after one experiment, saved as .prom files and differenced.
class MetricsSnapshots {
 public:
  MetricsSnapshots(net::StreamClient& client, record::RunFolderWriter& writer)
      : client_(client), writer_(writer) {}

  void before(const std::vector<LaneRuntime*>& lanes, const std::string& experiment) {
    before_.clear();
    for (LaneRuntime* lane : lanes) {
      std::string text;
      if (!take(*lane, experiment, "before", text)) continue;
      // A lane's first snapshot of the run; a run that gains an experiment keeps its own.
      const std::string first = "metrics/" + files::safe_file_name(lane->plan.id) + ".before.prom";
      if (lanes_with_before_.insert(lane->plan.id).second &&
          !std::filesystem::exists(writer_.path(first)))
        writer_.write_file(first, text);
      before_[lane->plan.id] = std::move(text);
    }
  }

  void after(const std::vector<LaneRuntime*>& lanes, const std::string& experiment,
             nlohmann::json& section) {
    for (LaneRuntime* lane : lanes) {
      std::string text;
      if (!take(*lane, experiment, "after", text)) continue;
      writer_.write_file("metrics/" + files::safe_file_name(lane->plan.id) + ".after.prom", text);
      auto it = before_.find(lane->plan.id);
      if (it == before_.end()) continue;
      const auto b = metrics::extract_server_counters(metrics::parse_prometheus_text(it->second));
      const auto a = metrics::extract_server_counters(metrics::parse_prometheus_text(text));
      section["lanes"][lane->plan.id]["server_counters_delta"] =
          metrics::to_json(metrics::delta(b, a));
    }
  }

 private:
  bool take(LaneRuntime& lane, const std::string& experiment, const char* when, std::string& text) {
    if (!lane.probe.metrics_available) return false;
    if (!LaneProbe(client_).scrape_metrics(lane.endpoint, text)) return false;
    writer_.write_file("metrics/" + files::safe_file_name(lane.plan.id) + "." +
                           files::safe_file_name(experiment) + "." + when + ".prom",
                       text);
    return true;
  }

  net::StreamClient& client_;
  record::RunFolderWriter& writer_;
  std::map<std::string, std::string> before_;
  std::set<std::string> lanes_with_before_;
};

}  // namespace

// Performance experiments compare every lane with the first on each phase both ran; regression
// and gates runs judge outputs and functions, not speed.
namespace {

bool compares_lanes(record::ExperimentKind kind) {
  switch (kind) {
    case record::ExperimentKind::Throughput:
    case record::ExperimentKind::Speculative:
    case record::ExperimentKind::ContextSweep:
    case record::ExperimentKind::PrefixCache:
    case record::ExperimentKind::Trace:
    case record::ExperimentKind::Sessions:
      return true;
    default:
      return false;
  }
}

}  // namespace

void add_lane_comparisons(record::ExperimentKind kind, const std::vector<std::string>& ids,
                          const std::vector<metrics::PhaseSamples>& samples,
                          nlohmann::json& section) {
  if (ids.size() < 2 || !compares_lanes(kind)) return;
  section["comparisons"] = record::comparisons_json(metrics::lane_comparisons(ids, samples));
}

bool run_folder_usable(const std::string& dir, std::string* why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return true;
  if (!fs::is_directory(dir, ec)) {
    if (why) *why = dir + " exists and is not a directory";
    return false;
  }
  if (!fs::is_empty(dir, ec)) {
    if (why) *why = dir + " is not empty; choose a new folder for this run";
    return false;
  }
  return true;
}

PlanRunner::PlanRunner(plan::Plan plan, RunOptions options, RunSink& sink)
    : plan_(std::move(plan)), options_(std::move(options)), sink_(sink) {}

namespace {

struct RunState {
  net::StreamClient& client;
  record::RunFolderWriter& writer;
  RunSink& sink;
  const std::atomic<bool>& stop;
  MetricsSnapshots snapshots;
  const plan::Environment& env;
  std::vector<std::string> blockers;
  // A plan with managed lanes runs each experiment in passes (its other lanes, then each
  // managed lane alone): its performance gates, which may pair lanes of different passes, are
  // judged once all passes are done (judge_deferred_gates).
  bool defer_gates = false;
  // In a client of a split lane: where its phases meet the lane's other clients.
  std::shared_ptr<SplitBarrier> split_barrier;
};

// Runs the experiment on `selected` into `section`, which a managed lane's pass may extend
// later (core/run/launch/launched_lanes.h); `samples` gathers every lane's phase values for
// comparisons.
void run_experiment_on(const plan::Experiment& spec, const std::vector<LaneRuntime*>& selected,
                       RunState& s, nlohmann::json& section,
                       std::vector<metrics::PhaseSamples>& samples) {
  const std::string name = experiment_name(spec);
  if (section.is_null()) section = {{"name", name}, {"kind", spec.kind}};
  auto experiment = make_experiment(spec);
  if (!experiment) {
    s.sink.on_message(MessageLevel::Warning,
                      "experiment kind " + spec.kind + " is not implemented yet; skipped");
    section["status"] = "not_implemented";
    return;
  }
  if (!section.contains("started_at")) section["started_at"] = utc_now_iso8601();
  if (selected.empty()) return;
  s.sink.on_message(MessageLevel::Info, "experiment " + name);
  s.snapshots.before(selected, name);
  ExperimentContext ctx(s.client, s.sink, s.writer, s.stop, spec, selected, section);
  ctx.set_split_barrier(s.split_barrier);
  run_trials(*experiment, ctx);
  samples.insert(samples.end(), ctx.phase_samples().begin(), ctx.phase_samples().end());
  if (!s.defer_gates) judge_performance_gates(ctx);
  s.blockers.insert(s.blockers.end(), ctx.blockers().begin(), ctx.blockers().end());
  s.snapshots.after(selected, name, section);
  section["finished_at"] = utc_now_iso8601();
  section["status"] = s.stop.load() ? "interrupted" : "done";
}

nlohmann::json run_experiment(const plan::Experiment& spec, std::vector<LaneRuntime>& lanes,
                              RunState& s, std::vector<metrics::PhaseSamples>& samples) {
  nlohmann::json section;
  const auto selected = lanes_for(spec, lanes);
  run_experiment_on(spec, selected, s, section, samples);
  std::vector<std::string> ids;
  for (const LaneRuntime* lane : selected) ids.push_back(lane->plan.id);
  add_lane_comparisons(kind_of(spec), ids, samples, section);
  return section;
}

// The lanes of the plan an experiment runs on, in plan order, that have phase values.
std::vector<std::string> lanes_with_samples(const plan::Plan& plan,
                                            const std::vector<metrics::PhaseSamples>& samples) {
  std::vector<std::string> ids;
  for (const auto& lane : plan.lanes)
    if (std::any_of(samples.begin(), samples.end(),
                    [&](const metrics::PhaseSamples& p) { return p.lane == lane.id; }))
      ids.push_back(lane.id);
  return ids;
}

// Runs the managed lanes after the others, each experiment extending its section.
std::vector<std::string> run_managed_lanes(
    const plan::Plan& plan, RunState& s, const std::string& run_dir, nlohmann::json& summary,
    record::SummarySections& sections, std::vector<std::vector<metrics::PhaseSamples>>& samples,
    const std::function<void(const LaneRuntime&)>& on_ready) {
  auto section = [&](size_t i) -> nlohmann::json& { return sections[i]; };
  LaunchedLanesHooks hooks;
  hooks.on_ready = on_ready;
  hooks.run_experiment = [&](size_t i, LaneRuntime& lane) {
    run_experiment_on(plan.experiments[i], {&lane}, s, section(i), samples[i]);
    add_lane_comparisons(kind_of(plan.experiments[i]), lanes_with_samples(plan, samples[i]),
                         samples[i], section(i));
    sections.write(s.writer);
  };
  hooks.on_record = [&](const std::string& id, const nlohmann::json& record) {
    summary["servers"][id] = record;
    sections.write(s.writer);
  };
  auto failures = run_launched_lanes(plan, run_dir, s.client, s.sink, s.stop, hooks, s.env);
  for (size_t i = 0; i < plan.experiments.size(); ++i) {  // no lane of it could run
    if (section(i).is_null())
      section(i) = {{"name", experiment_name(plan.experiments[i])},
                    {"kind", plan.experiments[i].kind}};
    if (!section(i).contains("status"))
      section(i)["status"] = s.stop.load() ? "interrupted" : "not_run";
  }
  return failures;
}

// Judges each experiment's performance gates on the phase values of all its passes.
void judge_deferred_gates(const plan::Plan& plan, RunState& s, record::SummarySections& sections,
                          const std::vector<std::vector<metrics::PhaseSamples>>& samples) {
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    const auto& gates = plan.experiments[i].performance_gates;
    nlohmann::json& section = sections[i];
    if (gates.empty() || section.value("status", "") == "not_implemented") continue;
    GateJudgements out = judge_performance_gates(gates, samples[i], s.stop.load());
    section["performance_gates"] = std::move(out.judged);
    for (const std::string& why : out.blockers) section["blockers"].push_back(why);
    s.blockers.insert(s.blockers.end(), out.blockers.begin(), out.blockers.end());
  }
}

// Tells the sink that experiment I is over, once summary.json holds its section: the section as
// the file has it (secret values redacted), typed.
void announce_section(RunState& s, record::SummarySections& sections, size_t i,
                      const std::vector<std::string>& secrets) {
  if (sections[i].is_null()) return;  // not started: the run was stopped before it
  nlohmann::json written = sections[i];
  net::redact_secret_values(written, secrets);
  record::FileFields fields("summary.json");
  s.writer.after_written(
      [&sink = s.sink, i, section = record::read_experiment_section(written, fields)] {
        sink.on_section_done(i, section);
      });
}

// The out dir takes a new run (new or empty), or with options.append already holds a run the
// plan fits into. False with result filled when neither.
bool check_out_dir(const RunOptions& options, plan::Plan& plan, RunSink& sink,
                   std::optional<ExistingRun>& existing, RunResult& result) {
  std::string why;
  std::vector<std::string> notes;
  if (options.append && !plan.sweep.axes.empty()) {
    result.errors.push_back(
        "a plan with a sweep runs into a new run folder only (--out), not into an existing run");
    result.exit_code = kExitInput;
    return false;
  }
  if (options.append) {
    existing = read_existing_run(options.out_dir, &why);
    if (existing && !fit_plan_into_run(plan, *existing, &notes, &why)) existing.reset();
  }
  if (options.append ? !existing : !run_folder_usable(options.out_dir, &why)) {
    result.errors.push_back(why);
    result.exit_code = kExitInput;
    return false;
  }
  for (const std::string& note : notes) sink.on_message(MessageLevel::Info, note);
  return true;
}

// summary.json as the experiments start: a new run's header, or the run being added to (then
// also its plan and environment with the additions, and its blockers so far).
// *written_environment is environment.json as it now stands.
nlohmann::json begin_summary(const std::optional<ExistingRun>& existing, const plan::Plan& plan,
                             const nlohmann::json& environment, record::RunFolderWriter& writer,
                             std::vector<std::string>& blockers,
                             nlohmann::json* written_environment) {
  nlohmann::json summary;
  *written_environment = environment;
  if (existing) {
    std::vector<std::string> names;
    for (const auto& spec : plan.experiments) names.push_back(spec.name);
    writer.write_json("plan.json", appended_plan_json(*existing, plan));
    *written_environment = appended_environment_json(*existing, environment, names);
    writer.write_json("environment.json", *written_environment);
    summary = existing->summary;
    if (summary["run"].is_object() && summary["run"]["blockers"].is_array())
      for (const auto& b : summary["run"]["blockers"])
        if (b.is_string()) blockers.push_back(b.get<std::string>());
  } else {
    summary["run"] = {{"name", plan.name}, {"started_at", utc_now_iso8601()}};
  }
  if (!summary["experiments"].is_array()) summary["experiments"] = nlohmann::json::array();
  return summary;
}

// Where a split lane's clients meet: the folder given, else the one the run folder is in (the
// fleet's shared output folder).
std::string split_sync_dir(const RunOptions& options) {
  if (!options.split_sync_dir.empty()) return options.split_sync_dir;
  const auto parent = std::filesystem::absolute(options.out_dir).lexically_normal().parent_path();
  return parent.empty() ? "." : parent.string();
}

// A shard runs into a new folder, on one lane of PLAN with its sweep expanded.
bool check_shard(const RunOptions& options, const plan::Plan& plan, RunResult& result) {
  std::string why;
  plan::Plan expanded = plan::expand_sweep(plan).plan;
  if (options.append)
    why = "a shard runs into a new run folder only (--out), not into an existing run";
  else
    keep_shard_lanes(expanded, *options.shard, &why);
  if (why.empty()) return true;
  result.errors.push_back(why);
  result.exit_code = kExitInput;
  return false;
}

// A scheduler may run a shard's task again in the same folder: a finished shard is kept (and
// nothing runs), an unfinished one of the same plan starts over. False with RESULT set when the
// run is over before it starts.
bool reuse_shard_folder(const RunOptions& options, const plan::Plan& plan, RunSink& sink,
                        RunResult& result) {
  const ShardSpec& spec = *options.shard;
  const std::string shard =
      "shard " + std::to_string(spec.index) + "/" + std::to_string(spec.count);
  switch (shard_folder_state(options.out_dir, spec, plan_sha256(plan::resolved_plan_json(plan)))) {
    case ShardFolderState::Finished:
      sink.on_message(MessageLevel::Info,
                      shard + " already finished in " + options.out_dir + "; nothing to run");
      result.exit_code = kExitOk;
      return false;
    case ShardFolderState::Unfinished: {
      sink.on_message(MessageLevel::Warning,
                      shard + " did not finish in " + options.out_dir + "; starting it over there");
      std::error_code ec;
      for (const auto& entry : std::filesystem::directory_iterator(options.out_dir, ec))
        std::filesystem::remove_all(entry.path(), ec);
      return true;
    }
    case ShardFolderState::Empty:
    case ShardFolderState::Other:
      break;
  }
  return true;
}

// A shard's gates may pair its lane with another shard's: the merge judges them, as a plan with
// managed lanes judges them after its passes. A client of a split lane meets the lane's other
// clients at each phase.
void set_up_passes(RunState& state, const plan::Plan& plan, const RunOptions& options,
                   const nlohmann::json& plan_json) {
  state.defer_gates = plan.launches_servers() || options.shard.has_value();
  if (const auto client = options.shard ? split_client_of(plan) : std::nullopt)
    state.split_barrier =
        std::make_shared<SplitBarrier>(split_sync_dir(options), plan_sha256(plan_json), *client,
                                       plan.split->clients, plan.split->sync_timeout_s);
}

// Each experiment in plan order, its section written as it ends and announced at once, unless
// managed lanes extend it later.
void run_experiments(const plan::Plan& plan, std::vector<LaneRuntime>& lanes, RunState& state,
                     record::SummarySections& sections,
                     std::vector<std::vector<metrics::PhaseSamples>>& samples,
                     const std::vector<std::string>& keys_used) {
  std::vector<std::string> names;
  for (const auto& spec : plan.experiments) names.push_back(experiment_name(spec));
  state.sink.on_experiments_named(names);
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    if (state.stop.load()) break;
    sections[i] = run_experiment(plan.experiments[i], lanes, state, samples[i]);
    sections.write(state.writer);
    if (!plan.launches_servers()) announce_section(state, sections, i, keys_used);
  }
}

// A plan that starts server programs runs only where that is allowed.
bool launch_refused(const plan::Plan& plan, const RunOptions& options, RunResult& result) {
  if (!plan.launches_servers() || options.allow_launch) return false;
  result.errors.push_back(
      "this plan starts server programs (launch blocks); it runs only when starting them is "
      "allowed (lanebench-cli run --allow-launch)");
  result.exit_code = kExitInput;
  return true;
}

// Lanes that cannot be used end the run before any experiment, with each lane's error.
bool lanes_refused(const LanePreparation& prep, const std::atomic<bool>& stop, RunResult& result) {
  if (prep.errors.empty()) return false;
  result.errors = prep.errors;
  result.interrupted = stop.load();
  result.exit_code = result.interrupted         ? kExitInterrupted
                     : prep.only_servers_failed ? kExitLanes
                                                : kExitInput;
  return true;
}

// Every secret the run may meet: the lanes' keys and each managed server's launch secrets.
std::vector<std::string> secrets_of(const std::vector<LaneRuntime>& lanes, const plan::Plan& plan,
                                    const plan::Environment& environment) {
  std::vector<std::string> keys;
  for (const auto& lane : lanes)
    if (std::string key = api_key_of(lane.endpoint); !key.empty()) keys.push_back(std::move(key));
  for (const auto& lane : plan.lanes) {
    if (!lane.launch) continue;
    for (auto& secret : plan::launch_secret_values(*lane.launch)) keys.push_back(secret);
    // A managed lane's key is read again when its server is up; the value is the same.
    if (auto key = plan::resolve_api_key(lane, environment)) keys.push_back(*key);
  }
  return keys;
}

// The run's header completed and summary.json written, last.
void finish_run(RunState& state, nlohmann::json& summary, std::vector<std::string> blockers,
                RunResult& result) {
  result.interrupted = state.stop.load();
  summary["run"]["finished_at"] = utc_now_iso8601();
  summary["run"]["interrupted"] = result.interrupted;
  blockers.insert(blockers.end(), state.blockers.begin(), state.blockers.end());
  summary["run"]["blockers"] = blockers;
  state.writer.write_json("summary.json", summary);
}

// Every write error told, the secrets redacted from what the caller sees, and the exit code.
void close_run(RunState& state, bool servers_failed, const std::vector<std::string>& keys_used,
               RunResult& result) {
  state.writer.flush();
  // A file that could not be written (a full disk, no permission) means records were lost: the
  // run failed, whatever its gates say, and each message names the file.
  const std::vector<std::string> write_errors = state.writer.take_errors();
  for (const auto& e : write_errors) {
    state.sink.on_message(MessageLevel::Error, e);
    result.errors.push_back(e);
  }
  result.requests_written = state.writer.requests_written();
  // As written to summary.json; also what `run --json` prints.
  net::redact_secret_values(result.summary, keys_used);
  for (auto& e : result.errors) e = net::redact_secret_text(e, keys_used);
  if (result.interrupted)
    result.exit_code = kExitInterrupted;
  else if (!state.blockers.empty() || servers_failed || !write_errors.empty())
    result.exit_code = kExitFailed;
}

}  // namespace

RunResult PlanRunner::run(const std::atomic<bool>& stop) {
  RunResult result;
  if (launch_refused(plan_, options_, result)) return result;
  if (options_.shard && !check_shard(options_, plan_, result)) return result;
  if (options_.shard && !reuse_shard_folder(options_, plan_, sink_, result)) return result;
  std::optional<ExistingRun> existing;
  // An appended plan's experiments may be renamed here to fit the run (fit_plan_into_run).
  if (!check_out_dir(options_, plan_, sink_, existing, result)) return result;
  // A sweep's points are lanes of their own from here on (plan/sweep_expansion.h).
  plan::SweptPlan swept = plan::expand_sweep(plan_);
  if (options_.shard) keep_shard_lanes(swept.plan, *options_.shard, nullptr);
  record::RunFolderWriter writer(options_.out_dir);
  if (!writer.ok()) {
    result.errors.push_back(writer.open_error());
    result.exit_code = kExitInput;
    return result;
  }
  // Stop cancels what is in flight, probes and /metrics fetches included, so a stopping run
  // never waits out a request's timeout.
  net::ClientOptions client_options;
  client_options.cancel_when = &stop;
  net::StreamClient client(client_options);
  const nlohmann::json plan_json = plan::resolved_plan_json(plan_);
  if (!existing) writer.write_json("plan.json", plan_json);
  const plan::Plan& plan = swept.plan;
  auto prep =
      prepare_lanes(without_launched_lanes(plan), client, sink_, stop, options_.environment);
  const nlohmann::json environment = environment_json(prep.lanes, options_.client_version);
  if (!existing) writer.write_json("environment.json", environment);
  std::optional<ShardRecord> shard;
  if (options_.shard)
    shard.emplace(*options_.shard, plan, plan_json, options_.client_version, writer);
  for (const LaneRuntime& lane : prep.lanes)
    if (shard && !stop.load()) shard->measure_clock(client, lane, stop);
  if (lanes_refused(prep, stop, result)) return result;
  const std::vector<std::string> keys_used = secrets_of(prep.lanes, plan, options_.environment);
  writer.set_secrets(keys_used);
  std::vector<std::string> blockers;
  nlohmann::json& summary = result.summary;
  nlohmann::json written_environment;
  summary = begin_summary(existing, plan_, environment, writer, blockers, &written_environment);
  record::SummarySections sections(summary, plan.experiments.size());
  RunState state{
      client, writer, sink_, stop, MetricsSnapshots(client, writer), options_.environment};
  set_up_passes(state, plan, options_, plan_json);
  std::vector<std::vector<metrics::PhaseSamples>> samples(plan.experiments.size());
  run_experiments(plan, prep.lanes, state, sections, samples, keys_used);
  bool servers_failed = false;
  if (plan.launches_servers()) {
    // Each managed lane as its server answered the probe joins environment.json.
    auto server_errors = run_managed_lanes(
        plan, state, options_.out_dir, summary, sections, samples, [&](const LaneRuntime& lane) {
          written_environment["lanes"][lane.plan.id] = lane_environment_json(lane);
          writer.write_json("environment.json", written_environment);
          if (shard) shard->measure_clock(client, lane, stop);
        });
    if (!shard) judge_deferred_gates(plan, state, sections, samples);
    summary["run"]["server_failures"] = server_errors;
    servers_failed = !server_errors.empty();
    result.errors.insert(result.errors.end(), server_errors.begin(), server_errors.end());
  }
  sections.settle();
  if (!swept.points.empty() && !shard) summary["sweeps"] = sweep_summary_json(swept, summary);
  finish_run(state, summary, std::move(blockers), result);
  for (size_t i = 0; i < sections.size() && plan.launches_servers(); ++i)
    announce_section(state, sections, i, keys_used);  // extended by the managed lanes till now
  close_run(state, servers_failed, keys_used, result);
  return result;
}

}  // namespace lb::run
