#pragma once
// What the live charts and table show, accumulated on the GUI thread from drained batches of
// finished requests: per lane, the chart series (the fold a reopened run's charts use,
// lane_series.h) and the lane's and each phase's summary and intervals. Each request is folded in
// as it arrives and then dropped: summaries come from SummaryAccumulator, the TTFT scatter and the
// histograms from bounded samples, so a drain costs what it brings however long the run has gone
// on.
#include <QPointF>
#include <QString>
#include <QStringList>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/metrics/summary_accumulator.h"
#include "models/lane_stats_model.h"
#include "ui/run/lane_series.h"
#include "ui/run/live_intervals.h"
#include "ui/run/traffic_series.h"
#include "widgets/chart/chart_types.h"

namespace lb::ui {

// One phase of one lane (a context size, a prefix-cache pass, a concurrency level), summarised as
// the run folder's summary.json summarises it (metrics::SummaryAccumulator; the peak 1-second
// output and the most requests in flight are left at 0 while the run goes on).
struct PhaseStat {
  QString phase;
  metrics::LaneSummary summary;
  models::FigureIntervals intervals;  // its headline figures' intervals (live_intervals.h)
};

class LiveRunData {
 public:
  // ITL and tokens-per-event percentiles of the live tables come from a uniform sample of this
  // many values per lane and phase (SummaryAccumulator); summary.json has the exact ones. The
  // histograms bin the chart fold's own sample. The per-request figures keep a sample of
  // LiveIntervals::kRequestSample requests, so a run of any length holds bounded memory.
  static constexpr size_t kEventSample = 10'000;
  // The TTFT scatter's points per lane: it is redrawn at every drain.
  static constexpr size_t kTtftPoints = 300;

  void reset(int64_t t0_ns, QStringList lanes);
  // The kinds of the run's experiments by the name their requests carry (kept across reset).
  void set_experiment_kinds(ExperimentKinds kinds) { kinds_ = std::move(kinds); }
  // Adds finished requests; returns the lanes that changed.
  std::set<QString> add(const std::vector<metrics::RequestRecord>& records);
  // The run has ended: every trial is over, and every interval is made current. Returns the
  // lanes whose figures may have changed.
  std::set<QString> settle();

  QStringList lanes() const { return lanes_; }
  int64_t t0_ns() const { return t0_ns_; }
  // (send time since run start in s, TTFT in ms) sorted by x: every request while there are few,
  // then every ttft_stride()-th (at most ThinnedPoints' capacity points).
  std::vector<QPointF> ttft_over_time(const QString& lane) const;
  int64_t ttft_stride(const QString& lane) const;
  // (bucket start in s, output tokens per s); the newest bucket is left out while it is filling.
  std::vector<QPointF> output_rate_over_time(const QString& lane, double now_s) const;
  // Uniform samples (at most LaneSeriesFold::kEventSample values) of the ITL gaps and per-event
  // token counts, for the histograms; the exact figures are in summary.json.
  const std::vector<double>& itl_sample_ms(const QString& lane) const;
  const std::vector<double>& tokens_per_event_sample(const QString& lane) const;
  // Context sweep: (prompt tokens, decode tok/s) and (prompt tokens, TTFT in s), sorted by x.
  const std::vector<QPointF>& decode_vs_context(const QString& lane) const;
  const std::vector<QPointF>& ttft_vs_context(const QString& lane) const;
  bool has_context_points() const;
  // The lane's phases in the order they started, each summarised over its finished requests.
  const std::vector<PhaseStat>& phases(const QString& lane) const;
  // Each phase, sorted by its place on the x axis (LaneSeriesFold::phase_x; none last): its median
  // decode rate with the 95 % bootstrap interval over its finished requests (as summary.json
  // computes it; none while too few), and its aggregate output rate: the per-concurrency charts'
  // and the Pareto chart's points.
  std::vector<PhasePoint> phase_points(const QString& lane) const;
  // The lane's request series on the run's clock, the output rate's buckets that ended by NOW_S.
  LaneSeries series(const QString& lane, double now_s) const;
  // Prefix cache: (pass number 1 cold / 2 warm / 3 control, TTFT in ms) per request.
  const std::vector<QPointF>& ttft_per_pass(const QString& lane) const;
  // The lane's trace lateness, TTFT by turn and capacity probes so far (an empty series for an
  // unknown lane): lateness(t0_ns()) is on the run's clock.
  const TrafficSeries& traffic(const QString& lane) const;
  // SLO capacity: one entry per probe phase ("c8", "r2.5") of the capacity experiment in the
  // order the probes started, with its load and measured p99 figures so far.
  std::vector<ProbeFigures> capacity_probes(const QString& lane) const;
  // Where a phase sits on an x axis (LaneSeriesFold::phase_x).
  static double phase_x(const QString& phase);
  metrics::LaneSummary summary(const QString& lane) const;
  // The intervals of the lane's headline figures over all its requests (or trials).
  models::FigureIntervals intervals(const QString& lane) const;
  // When the lane's first request was scheduled, in s since the run started (0 when none is
  // known): lanes that run one after another overlay once their series are shifted by it.
  double lane_start_s(const QString& lane) const;
  // When PHASE of EXPERIMENT on LANE sent its first measured request, in s since t0 (where a
  // steady window begins); nullopt when it sent none.
  std::optional<double> phase_start_s(const QString& lane, const std::string& experiment,
                                      const std::string& phase) const;
  int64_t requests(const QString& lane) const;
  int64_t failed(const QString& lane) const;

 private:
  struct Lane {
    explicit Lane(int64_t t0_ns) : series(t0_ns, kTtftPoints) {}
    LaneSeriesFold series;
    metrics::SummaryAccumulator all{
        {}, kEventSample, metrics::ValueStorage::Memory, LiveIntervals::kRequestSample};
    std::map<QString, metrics::SummaryAccumulator> by_phase;
    mutable LiveIntervals all_intervals;  // a cache: made current when read
    std::map<QString, LiveIntervals> phase_intervals;
    std::vector<PhaseStat> phases;  // in the order the phases started
  };
  Lane& lane(const QString& id);
  const Lane* find(const QString& id) const;
  void add_one(Lane& lane, const metrics::RequestRecord& record);
  TrafficRequest traffic_request(const metrics::RequestRecord& record,
                                 const metrics::RequestMetrics& m) const;
  void refresh_phase(Lane& lane, const QString& phase) const;
  std::vector<PhaseStat> no_phases_;
  std::vector<QPointF> no_points_;
  TrafficSeries no_traffic_;
  ExperimentKinds kinds_;

  int64_t t0_ns_ = 0;
  bool settled_ = false;
  QStringList lanes_;
  std::map<QString, Lane> data_;
  std::vector<double> empty_;
};

}  // namespace lb::ui
