#include "ui/run/run_controller.h"

#include <algorithm>
#include <chrono>

#include "core/net/steady_clock.h"
#include "core/report/concurrency_knee.h"
#include "core/run/plan_runner.h"

namespace lb::ui {
namespace {

// What the page needs of a finished run, read on the run's thread: the summary as types and each
// swept lane's line.
RunOutcome outcome_of(run::RunResult result) {
  RunOutcome outcome;
  outcome.exit_code = result.exit_code;
  outcome.interrupted = result.interrupted;
  outcome.errors = std::move(result.errors);
  outcome.requests_written = result.requests_written;
  if (!result.summary.is_object()) return outcome;
  record::FileFields fields("summary.json");
  outcome.summary = record::read_run_summary(result.summary, fields);
  outcome.summary_damage = fields.damage();
  for (const report::SweepSummary& sweep : report::sweep_summaries(outcome.summary, {}))
    outcome.sweep_lines.push_back("Lane " + sweep.lane +
                                  ", concurrency sweep: " + report::describe_sweep(sweep));
  return outcome;
}

}  // namespace

RunController::RunController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<lb::ui::RunOutcome>();
  timer_.setInterval(kDrainIntervalMs);
  connect(&timer_, &QTimer::timeout, this, &RunController::drain);
}

RunController::~RunController() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

bool RunController::start(plan::Plan plan, const QString& out_dir, QString* error, bool append,
                          bool allow_launch, plan::Environment env) {
  if (running()) {
    *error = tr("A run is already in progress");
    return false;
  }
  std::string why;
  if (!append && !run::run_folder_usable(out_dir.toStdString(), &why)) {
    *error = QString::fromStdString(why);
    return false;
  }
  run_lanes_.clear();
  for (const plan::Lane& lane : plan.lanes) run_lanes_ << QString::fromStdString(lane.id);
  data_.reset(steady_now_ns(), run_lanes_);
  experiments_.clear();
  ExperimentKinds kinds;
  for (const plan::Experiment& e : plan.experiments) {
    experiments_.push_back(
        {QString::fromStdString(e.name_or_kind()), QString::fromStdString(e.kind)});
    kinds.add(e.name_or_kind(), e.kind);
  }
  data_.set_experiment_kinds(std::move(kinds));
  experiment_index_ = -1;
  experiment_.clear();
  stats_.set_rows({});
  phase_stats_.set_phase_rows({});
  progress_.clear();
  servers_.clear();
  emit servers_changed();
  fraction_ = eta_s_ = experiment_eta_s_ = -1;
  experiment_started_s_ = 0;
  durations_s_.clear();
  phase_text_ = tr("Preparing lanes…");
  run_dir_ = out_dir;
  stop_.store(false);
  stop_requested_ns_ = 0;
  still_stopping_ = false;
  sink_ = std::make_unique<StagingSink>();
  run::RunOptions options;
  options.out_dir = out_dir.toStdString();
  options.append = append;
  options.allow_launch = allow_launch;
  options.environment = std::move(env);
#ifdef LANEBENCH_VERSION
  options.client_version = LANEBENCH_VERSION;
#endif
  thread_ = std::thread([this, plan = std::move(plan), options, sink = sink_.get()]() mutable {
    RunOutcome outcome;
    try {
      run::PlanRunner runner(std::move(plan), options, *sink);
      outcome = outcome_of(runner.run(stop_));
    } catch (const std::exception& e) {
      outcome.exit_code = run::kExitInput;
      outcome.errors.push_back(std::string("The run stopped on an internal error: ") + e.what());
    }
    sink->finish(std::move(outcome));
  });
  timer_.start();
  return true;
}

void RunController::stop() {
  if (!running() || stop_requested_ns_ != 0) return;
  stop_.store(true);
  stop_requested_ns_ = steady_now_ns();
  phase_text_ = tr("Stopping…");
}

void RunController::note_slow_stop() {
  if (still_stopping_ || stop_requested_ns_ == 0) return;
  if (steady_now_ns() - stop_requested_ns_ < int64_t{kStillStoppingMs} * 1'000'000) return;
  still_stopping_ = true;
  phase_text_ =
      tr("Still stopping: waiting for the lanes to finish cancelling; finished requests "
         "are kept");
  emit updated({});
}

double RunController::elapsed_s() const {
  return data_.t0_ns() > 0 ? static_cast<double>(steady_now_ns() - data_.t0_ns()) / 1e9 : 0;
}

void RunController::drain() {
  note_slow_stop();
  if (!sink_ || !sink_->pending()) return;
  const int64_t start_ns = steady_now_ns();
  StagedBatch batch = sink_->take();
  ++drains_;
  if (batch.experiment_names) name_experiments(*batch.experiment_names);
  const std::set<QString> changed = add_records(batch.records);
  apply_progress(batch.progress);
  for (const auto& [level, text] : batch.messages)
    emit message(static_cast<int>(level), QString::fromStdString(text));
  if (!batch.servers.empty()) {
    for (auto& [lane, state] : batch.servers) servers_[lane] = std::move(state);
    emit servers_changed();
  }
  if (!batch.gates.empty()) emit gates_scored(batch.gates);
  for (const auto& [index, section] : batch.sections_done)
    emit section_done(static_cast<int>(index), section);
  refresh_stats(changed);
  QStringList changed_list(changed.begin(), changed.end());
  emit updated(changed_list);
  emit drained(steady_now_ns() - start_ns, static_cast<int>(batch.records.size()));
  if (batch.outcome) {
    // Every trial is over: the newest counts, and every interval is made current.
    const std::set<QString> settled = data_.settle();
    refresh_stats(settled);
    emit updated(QStringList(settled.begin(), settled.end()));
    timer_.stop();
    if (thread_.joinable()) thread_.join();  // the runner has returned: join is immediate
    fraction_ = batch.outcome->interrupted ? fraction_ : 1.0;
    eta_s_ = 0;
    phase_text_ = batch.outcome->interrupted ? tr("Stopped") : tr("Finished");
    stop_requested_ns_ = 0;
    emit finished(*batch.outcome, run_dir_);
  }
}

std::set<QString> RunController::add_records(const std::vector<metrics::RequestRecord>& records) {
  std::set<QString> changed;
  size_t begin = 0;
  for (size_t i = 0; i <= records.size(); ++i) {
    if (i < records.size() && records[i].experiment == experiment_) continue;
    if (i > begin) {
      const std::vector<metrics::RequestRecord> part(records.begin() + static_cast<long>(begin),
                                                     records.begin() + static_cast<long>(i));
      for (const QString& lane : data_.add(part)) changed.insert(lane);
    }
    if (i < records.size()) begin_experiment(records[i].experiment);
    begin = i;
  }
  return changed;
}

// The run's names for the plan's experiments (an added one may run as NAME-2: the engine says so
// before it starts), for the requests and progress that carry them.
void RunController::name_experiments(const std::vector<std::string>& names) {
  ExperimentKinds kinds;
  for (size_t i = 0; i < experiments_.size() && i < names.size(); ++i) {
    experiments_[i].name = QString::fromStdString(names[i]);
    kinds.add(names[i], experiments_[i].kind.toStdString());
  }
  data_.set_experiment_kinds(std::move(kinds));
}

void RunController::begin_experiment(const std::string& name) {
  const QString qname = QString::fromStdString(name);
  int index = -1;
  for (int i = 0; i < static_cast<int>(experiments_.size()); ++i)
    if (experiments_[i].name == qname) index = i;
  if (index < 0) index = std::min(experiment_index_ + 1, static_cast<int>(experiments_.size()) - 1);
  const bool first = experiment_.empty();
  experiment_ = name;
  if (index < 0) return;
  if (!first) durations_s_.push_back(elapsed_s() - experiment_started_s_);
  experiment_started_s_ = elapsed_s();
  experiment_index_ = index;
  // The time axis stays the run's; the series, histograms and tables are this experiment's.
  if (!first) {
    emit experiment_ending();
    data_.reset(data_.t0_ns(), run_lanes_);
  }
  progress_.clear();
  // Until the new experiment reports progress, the label says which one runs, not the last
  // one's "20/20".
  const auto count = static_cast<int>(experiments_.size());
  fraction_ = count > 1 ? static_cast<double>(index) / count : -1;
  eta_s_ = experiment_eta_s_ = -1;
  if (stop_requested_ns_ == 0)
    phase_text_ =
        count > 1 ? tr("Experiment %1 of %2: %3").arg(index + 1).arg(count).arg(qname) : qname;
  emit experiment_started(index, qname, experiments_[static_cast<size_t>(index)].kind);
}

void RunController::apply_progress(const std::map<std::string, run::RunProgress>& progress) {
  for (const auto& [lane, p] : progress)
    if (!p.experiment.empty() && p.experiment != experiment_) begin_experiment(p.experiment);
  for (const auto& [lane, p] : progress)
    if (p.experiment == experiment_ || p.experiment.empty()) progress_[lane] = p;
  if (progress_.empty()) return;
  int64_t done = 0, total = 0, largest_total = 0;
  double eta = -1;
  QString phase;
  for (const auto& [lane, p] : progress_) {
    done += p.done;
    total += p.total;
    largest_total = std::max(largest_total, p.total);
    eta = std::max(eta, p.eta_s);
    phase = QString::fromStdString(p.experiment) +
            (p.phase.empty() ? QString() : " · " + QString::fromStdString(p.phase));
  }
  QStringList per_lane;  // "bf16 32/32" for each lane that reported
  for (const auto& [lane, p] : progress_)
    if (!lane.empty() && p.total > 0)
      per_lane << QString("%1 %2/%3").arg(QString::fromStdString(lane)).arg(p.done).arg(p.total);
  if (per_lane.size() > 1) phase += " — " + per_lane.join(", ");
  // Lanes that have not reported yet still have their share of the work ahead (lanes of one
  // experiment get the same workload).
  const auto lanes = static_cast<int64_t>(data_.lanes().size());
  const auto reported = static_cast<int64_t>(progress_.size());
  if (!progress_.count("") && reported < lanes) total += (lanes - reported) * largest_total;
  fraction_ =
      total > 0 ? std::min(1.0, static_cast<double>(done) / static_cast<double>(total)) : -1;
  eta_s_ = experiment_eta_s_ = eta;
  // A plan of several experiments: the fraction is of the whole plan, the text says which one.
  const auto count = static_cast<int>(experiments_.size());
  if (count > 1 && experiment_index_ >= 0) {
    if (fraction_ >= 0) fraction_ = (experiment_index_ + fraction_) / count;
    phase = tr("Experiment %1 of %2: %3").arg(experiment_index_ + 1).arg(count).arg(phase);
    eta_s_ = -1;  // the experiments ahead are not estimated
  }
  if (stop_requested_ns_ == 0) phase_text_ = phase;  // "Stopping…" stays until the run ends
}

double RunController::plan_eta_s() const {
  if (!running()) return -1;
  const auto count = static_cast<int>(experiments_.size());
  const int ahead = count - std::max(experiment_index_, 0) - 1;
  const double in_current = elapsed_s() - experiment_started_s_;
  double mean = -1;
  if (!durations_s_.empty()) {
    mean = 0;
    for (double d : durations_s_) mean += d;
    mean /= static_cast<double>(durations_s_.size());
  } else if (experiment_eta_s_ >= 0) {
    mean = in_current + experiment_eta_s_;  // the running one's projected length
  }
  double current = experiment_eta_s_;
  if (current < 0 && mean >= 0) current = std::max(0.0, mean - in_current);
  if (current < 0 || (ahead > 0 && mean < 0)) return -1;
  return current + std::max(ahead, 0) * std::max(mean, 0.0);
}

void RunController::refresh_stats(const std::set<QString>& changed) {
  if (changed.empty() && !stats_.rows().empty()) return;
  std::vector<models::LaneStatsRow> rows;
  for (const QString& lane : data_.lanes()) {
    // Only lanes with new requests are summarised again; the others keep their row.
    const models::LaneStatsRow* old = nullptr;
    for (const models::LaneStatsRow& r : stats_.rows())
      if (r.lane_id == lane) old = &r;
    if (old && !changed.count(lane)) {
      rows.push_back(*old);
      continue;
    }
    models::LaneStatsRow row;
    row.lane_id = lane;
    row.summary = data_.summary(lane);
    row.intervals = data_.intervals(lane);
    rows.push_back(std::move(row));
  }
  stats_.set_rows(std::move(rows));
  std::vector<models::PhaseStatsRow> phase_rows;
  for (const QString& lane : data_.lanes())
    for (const PhaseStat& stat : data_.phases(lane))
      phase_rows.push_back({stat.phase, {lane, stat.summary, 0, stat.intervals}});
  phase_stats_.set_phase_rows(std::move(phase_rows));
}

}  // namespace lb::ui
