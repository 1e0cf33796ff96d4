#pragma once
// The charts of a finished (or interrupted) run, rebuilt from its requests.jsonl with the same
// definitions the live charts use: TTFT per request against its send time, output tokens per
// second in 1 s buckets, ITL and tokens-per-event samples (uniform, bounded: the histograms'
// input, as live), decode rate and TTFT against prompt length for a context sweep, and the
// traffic kinds' series (a trace's send lateness, sessions' TTFT by turn, a capacity search's
// probes) from the fold the live charts use (TrafficSeries). Warm-ups and failed requests are
// left out, as live (a failed request counts as its capacity probe's error).
//
// The series are folded one block of requests at a time (StoredSeriesBuilder), so reopening a run
// of a million requests holds the charts, never the requests.
#include <QPointF>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <map>
#include <vector>

#include "core/report/run_folder.h"
#include "ui/run/lane_series.h"
#include "ui/run/traffic_series.h"
#include "widgets/chart/chart_types.h"

namespace lb::ui {

// A reopened run's lane draws what the live one did: the same fold (lane_series.h), with a
// denser TTFT scatter (the page draws it once, not at every drain).
using StoredLaneSeries = LaneSeries;

struct StoredRunSeries {
  static constexpr size_t kMaxTtftPoints = 5'000;  // per lane; a scatter of more says no more
  QStringList lanes;                               // plan order
  std::map<QString, StoredLaneSeries> by_lane;
  CapacitySlo capacity_slo;  // the plan's capacity experiment's, for the SLO lines and marks
  // From the run's summary (add_summary): its experiments' kinds in run order (each once), and
  // by lane the levels of its throughput (else speculative) experiment for the per-concurrency
  // charts and those of its throughput (else first load-measuring) experiment for the Pareto
  // chart.
  std::vector<record::ExperimentKind> kinds;
  std::map<QString, std::vector<PhasePoint>> concurrency_phases;
  std::map<QString, std::vector<PhasePoint>> pareto_phases;
  bool has_context_points() const;
  bool has_lateness() const;
  bool has_turns() const;
  bool has_capacity_probes() const;
};

// What the traffic series need of a run's plan.json: the kind of each experiment its requests
// name, and the capacity SLOs.
struct StoredTrafficPlan {
  ExperimentKinds kinds;
  CapacitySlo capacity_slo;
  static StoredTrafficPlan from(const record::PlanHeadline& plan);
};

class StoredSeriesBuilder {
 public:
  explicit StoredSeriesBuilder(const QStringList& lanes, StoredTrafficPlan plan = {});
  // One block of requests.jsonl, in file order.
  void add_block(const std::vector<report::RequestPoint>& points);
  // LANE_ORDER (the plan's) first, then lanes only the requests named.
  StoredRunSeries finish(const QStringList& lane_order = {});

 private:
  void add(const report::RequestPoint& p);
  LaneSeriesFold& lane(const std::string& id);

  QStringList lanes_;
  StoredTrafficPlan plan_;
  std::map<QString, LaneSeriesFold> by_lane_;
  std::string last_id_;
  LaneSeriesFold* last_lane_ = nullptr;
  int64_t t0_ns_ = INT64_MAX;  // the earliest scheduled (or else sent) stamp seen
  int64_t anchor_ns_ = -1;     // the first block's: the folds' clock
};

// The steady-state windows the summary records for the throughput levels, placed on the run's
// time axis by each phase's first send.
void add_steady_windows(StoredRunSeries& series, const record::RunSummary& summary);
// What the charts take from the summary: the steady windows, the kinds and the levels' figures.
void add_summary(StoredRunSeries& series, const record::RunSummary& summary);

// All of a loaded folder's requests at once (RunFolder::requests).
StoredRunSeries stored_run_series(const report::RunFolder& folder);

}  // namespace lb::ui
