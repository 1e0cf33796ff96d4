#include "ui/history/run_folder_job.h"

#include <QDir>
#include <QFile>
#include <QtConcurrent/QtConcurrentRun>

#include "core/record/plan_headline.h"
#include "core/report/report_model.h"
#include "core/report/svg_chart.h"

namespace lb::ui {
namespace {

// What the traffic series need of plan.json, read before requests.jsonl is folded (the
// folder's own reading of it comes with the requests); nothing when it cannot be read.
StoredTrafficPlan traffic_plan_of(const QString& dir) {
  const auto plan = record::read_plan_headline(QFile::encodeName(dir).toStdString());
  return plan ? StoredTrafficPlan::from(*plan) : StoredTrafficPlan{};
}

// The effect charts come from summary.json alone: when it cannot be drawn, the rest still shows.
void add_effects(LoadedRun& run) {
  try {
    for (const report::ChartSpec& chart : report::effect_charts(*run.folder))
      run.effects.push_back({QString::fromStdString(chart.title),
                             QByteArray::fromStdString(report::render_svg_chart(chart))});
  } catch (const std::exception& e) {
    run.effects.clear();
    run.damage << QString("damaged: summary.json: its effects cannot be drawn (%1)").arg(e.what());
  }
}

}  // namespace

// Runs on a pool thread; QFuture::result() would rethrow in the GUI's slot, so anything a damaged
// folder makes the readers throw becomes the run's error instead.
std::shared_ptr<const LoadedRun> load_run(const QString& dir) {
  auto run = std::make_shared<LoadedRun>();
  run->dir = dir;
  try {
    std::string error;
    // The charts are folded block by block as requests.jsonl is read; the requests themselves
    // are not kept (the report and review read what they need on their own).
    StoredSeriesBuilder builder({}, traffic_plan_of(dir));
    const report::RequestBlockSink fold = [&builder](std::vector<report::RequestPoint>& points,
                                                     double) { builder.add_block(points); };
    run->folder = report::load_run_folder(dir.toStdString(), &error, &fold);
    if (!run->folder) {
      run->error = QString::fromStdString(error);
      return run;
    }
    QStringList lanes;
    for (const std::string& id : run->folder->lane_ids()) lanes << QString::fromStdString(id);
    run->series = builder.finish(lanes);
    add_summary(run->series, run->folder->record);
    run->decision = decision_view_of(*run->folder);
    run->damage = run->decision.damage;
    add_effects(*run);
  } catch (const std::exception& e) {
    run->folder.reset();
    run->series = {};
    run->error = QString("damaged: requests.jsonl or summary.json of %1: %2").arg(dir, e.what());
  }
  return run;
}

RunFolderJob::RunFolderJob(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<std::shared_ptr<const LoadedRun>>::finished, this, [this] {
    const auto run = watcher_.result();
    // A newer request came while this one ran: start it and drop this stale result.
    if (!queued_.isEmpty()) {
      const QString next = std::exchange(queued_, QString());
      running_generation_ = generation_;
      watcher_.setFuture(QtConcurrent::run([next] { return load_run(next); }));
      return;
    }
    if (running_generation_ == generation_) emit loaded(run);
  });
}

RunFolderJob::~RunFolderJob() { watcher_.waitForFinished(); }

void RunFolderJob::load(const QString& dir) {
  ++generation_;
  if (watcher_.isRunning()) {
    queued_ = dir;
    return;
  }
  running_generation_ = generation_;
  watcher_.setFuture(QtConcurrent::run([dir] { return load_run(dir); }));
}

}  // namespace lb::ui
