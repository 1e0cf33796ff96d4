#include "run/plan_runner.h"

#include <filesystem>
#include <set>

#include "metrics/prometheus_text.h"
#include "metrics/server_counters.h"
#include "net/stream_client.h"
#include "run/environment_info.h"
#include "run/experiment.h"
#include "run/lane_preparation.h"
#include "run/run_append.h"
#include "run/performance_gates.h"
#include "run/run_folder_writer.h"
#include "run/trial_runner.h"

namespace lb::run {
namespace {

std::string file_safe(std::string s) {
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) c = '_';
  return s;
}

std::string experiment_name(const plan::Experiment& spec) {
  return spec.name.empty() ? spec.kind : spec.name;
}

std::vector<LaneRuntime*> lanes_for(const plan::Experiment& spec, std::vector<LaneRuntime>& lanes) {
  std::vector<LaneRuntime*> out;
  for (auto& lane : lanes) {
    const bool wanted = spec.lanes.empty() || std::find(spec.lanes.begin(), spec.lanes.end(),
                                                        lane.plan.id) != spec.lanes.end();
    if (wanted) out.push_back(&lane);
  }
  return out;
}

// Performance experiments compare every lane with the first on each phase both ran; regression
// and gates runs judge outputs and functions, not speed.
bool compares_lanes(const std::string& kind) {
  return kind == "throughput" || kind == "speculative" || kind == "context_sweep" ||
         kind == "prefix_cache" || kind == "trace";
}

void add_lane_comparisons(const ExperimentContext& ctx, nlohmann::json& section) {
  std::vector<std::string> ids;
  for (const LaneRuntime* lane : ctx.lanes()) ids.push_back(lane->plan.id);
  if (ids.size() < 2 || !compares_lanes(ctx.spec().kind)) return;
  section["comparisons"] = metrics::lane_comparisons_json(ids, ctx.phase_samples());
}

// /metrics before and after one experiment, saved as .prom files and differenced.
class MetricsSnapshots {
 public:
  MetricsSnapshots(net::StreamClient& client, RunFolderWriter& writer)
      : client_(client), writer_(writer) {}

  void before(const std::vector<LaneRuntime*>& lanes, const std::string& experiment) {
    before_.clear();
    for (LaneRuntime* lane : lanes) {
      std::string text;
      if (!take(*lane, experiment, "before", text)) continue;
      // A lane's first snapshot of the run; a run that gains an experiment keeps its own.
      const std::string first = "metrics/" + file_safe(lane->plan.id) + ".before.prom";
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
      writer_.write_file("metrics/" + file_safe(lane->plan.id) + ".after.prom", text);
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
    writer_.write_file(
        "metrics/" + file_safe(lane.plan.id) + "." + file_safe(experiment) + "." + when + ".prom",
        text);
    return true;
  }

  net::StreamClient& client_;
  RunFolderWriter& writer_;
  std::map<std::string, std::string> before_;
  std::set<std::string> lanes_with_before_;
};

}  // namespace

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
  RunFolderWriter& writer;
  RunSink& sink;
  const std::atomic<bool>& stop;
  MetricsSnapshots snapshots;
  std::vector<std::string> blockers;
  bool forward_events = false;
};

nlohmann::json run_experiment(const plan::Experiment& spec, std::vector<LaneRuntime>& lanes,
                              RunState& s) {
  const std::string name = experiment_name(spec);
  nlohmann::json section = {{"name", name}, {"kind", spec.kind}};
  auto experiment = make_experiment(spec);
  if (!experiment) {
    s.sink.on_message(MessageLevel::Warning,
                      "experiment kind " + spec.kind + " is not implemented yet; skipped");
    section["status"] = "not_implemented";
    return section;
  }
  auto selected = lanes_for(spec, lanes);
  section["started_at"] = utc_now_iso8601();
  s.sink.on_message(MessageLevel::Info, "experiment " + name);
  s.snapshots.before(selected, name);
  ExperimentContext ctx(s.client, s.sink, s.writer, s.stop, spec, selected, section);
  ctx.set_forward_events(s.forward_events);
  run_trials(*experiment, ctx);
  add_lane_comparisons(ctx, section);
  judge_performance_gates(ctx);
  s.blockers.insert(s.blockers.end(), ctx.blockers().begin(), ctx.blockers().end());
  s.snapshots.after(selected, name, section);
  section["finished_at"] = utc_now_iso8601();
  section["status"] = s.stop.load() ? "interrupted" : "done";
  return section;
}

// The out dir takes a new run (new or empty), or with options.append already holds a run the
// plan fits into. False with result filled when neither.
bool check_out_dir(const RunOptions& options, plan::Plan& plan, RunSink& sink,
                   std::optional<ExistingRun>& existing, RunResult& result) {
  std::string why;
  std::vector<std::string> notes;
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
nlohmann::json begin_summary(const std::optional<ExistingRun>& existing, const plan::Plan& plan,
                             const nlohmann::json& environment, RunFolderWriter& writer,
                             std::vector<std::string>& blockers) {
  nlohmann::json summary;
  if (existing) {
    std::vector<std::string> names;
    for (const auto& spec : plan.experiments) names.push_back(spec.name);
    writer.write_json("plan.json", appended_plan_json(*existing, plan));
    writer.write_json("environment.json", appended_environment_json(*existing, environment, names));
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

}  // namespace

RunResult PlanRunner::run(const std::atomic<bool>& stop) {
  RunResult result;
  std::optional<ExistingRun> existing;
  if (!check_out_dir(options_, plan_, sink_, existing, result)) return result;
  RunFolderWriter writer(options_.out_dir);
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
  if (!existing) writer.write_json("plan.json", plan::resolved_plan_json(plan_));
  auto prep = prepare_lanes(plan_, client, sink_, stop);
  const nlohmann::json environment = environment_json(prep.lanes, options_.client_version);
  if (!existing) writer.write_json("environment.json", environment);
  if (!prep.errors.empty()) {
    result.errors = prep.errors;
    result.interrupted = stop.load();
    result.exit_code = result.interrupted ? kExitInterrupted : kExitInput;
    return result;
  }
  std::vector<std::string> keys;
  for (const auto& lane : prep.lanes)
    if (std::string key = api_key_of(lane.endpoint); !key.empty()) keys.push_back(std::move(key));
  writer.set_secrets(std::move(keys));
  std::vector<std::string> blockers;
  nlohmann::json& summary = result.summary;
  summary = begin_summary(existing, plan_, environment, writer, blockers);
  RunState state{client, writer, sink_, stop, MetricsSnapshots(client, writer)};
  state.forward_events = options_.forward_events;
  for (const auto& spec : plan_.experiments) {
    if (stop.load()) break;
    summary["experiments"].push_back(run_experiment(spec, prep.lanes, state));
    writer.write_json("summary.json", summary);
  }
  result.interrupted = stop.load();
  summary["run"]["finished_at"] = utc_now_iso8601();
  summary["run"]["interrupted"] = result.interrupted;
  blockers.insert(blockers.end(), state.blockers.begin(), state.blockers.end());
  summary["run"]["blockers"] = blockers;
  writer.write_json("summary.json", summary);
  writer.flush();
  for (auto& e : writer.take_errors()) {
    sink_.on_message(MessageLevel::Error, e);
    result.errors.push_back(std::move(e));
  }
  result.requests_written = writer.requests_written();
  if (result.interrupted)
    result.exit_code = kExitInterrupted;
  else if (!state.blockers.empty())
    result.exit_code = kExitFailed;
  return result;
}

}  // namespace lb::run
