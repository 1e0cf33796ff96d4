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
#include "ui/run/bounded_samples.h"
#include "ui/run/traffic_series.h"
#include "widgets/chart/chart_types.h"

namespace lb::ui {

struct StoredLaneSeries {
  // (send time since run start in s, TTFT in ms), by x: every request's, or every
  // `ttft_stride`-th of a lane with more than kMaxTtftPoints.
  std::vector<QPointF> ttft_ms;
  int64_t ttft_stride = 1;
  std::vector<QPointF> output_tok_s;        // (end of 1 s bucket in s, output tokens per s)
  ReservoirSample itl_sample_ms;            // gaps between consecutive events
  ReservoirSample tokens_per_event_sample;  // when the server counted them
  std::vector<QPointF> decode_vs_context;   // (prompt tokens, decode tok/s), by x
  std::vector<QPointF> ttft_vs_context;     // (prompt tokens, TTFT in s), by x
  // (scheduled at in s since the run started, send lateness in ms) per sent trace request, by x;
  // every `lateness_stride`-th of a lane with many (as live).
  std::vector<QPointF> lateness_ms;
  int64_t lateness_stride = 1;
  std::vector<QPointF> ttft_by_turn;          // (turn, 1 = the first; median TTFT in ms)
  std::vector<ProbeFigures> capacity_probes;  // the capacity search's, in the order they ran
  int64_t requests = 0;                       // lines of this lane, failures and warm-ups included
  int64_t failed = 0;
  double start_s = 0;  // its first request's schedule, in s since the run started
  // Each phase's first send in s since the run started, by "experiment\nphase" (warm-ups left
  // out): where its summary's windows begin.
  std::map<std::string, double> phase_start_s;
  // Its closed-loop phases' steady-state windows (x in s since the run started), each at its
  // steady output throughput: add_steady_windows.
  std::vector<widgets::XSpan> steady_windows;
};

struct StoredRunSeries {
  static constexpr double kRateBucketS = 1.0;
  static constexpr size_t kMaxTtftPoints = 5'000;  // per lane; a scatter of more says no more
  QStringList lanes;                               // plan order
  std::map<QString, StoredLaneSeries> by_lane;
  CapacitySlo capacity_slo;  // the plan's capacity experiment's, for the SLO lines and marks
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

// Output tokens over time in bins of a whole number of milliseconds that divides 1 s, anchored at
// the first block's earliest request. Once the run's origin is known the bins fall into the 1 s
// buckets whole: exactly when the origin is the anchor (unless a later block holds an earlier
// request), else to within one bin. Bins widen (1, 2, 5, 10 ... 1000 ms) to stay within kMaxBins.
class RateBins {
 public:
  static constexpr size_t kMaxBins = size_t{1} << 14;
  explicit RateBins(int64_t anchor_ns) : anchor_ns_(anchor_ns) {}
  void add(int64_t at_ns, double tokens);
  // (end of bucket in s since t0, tokens per s), from the first non-empty bucket.
  std::vector<QPointF> points(int64_t t0_ns) const;

 private:
  void widen();
  int64_t anchor_ns_;
  int64_t width_ns_ = 1'000'000;
  int64_t first_ = 0;  // bin index of bins_[0], relative to the anchor
  std::vector<double> bins_;
};

class StoredSeriesBuilder {
 public:
  explicit StoredSeriesBuilder(const QStringList& lanes, StoredTrafficPlan plan = {});
  // One block of requests.jsonl, in file order.
  void add_block(const std::vector<report::RequestPoint>& points);
  // LANE_ORDER (the plan's) first, then lanes only the requests named.
  StoredRunSeries finish(const QStringList& lane_order = {});

 private:
  struct Lane {
    StoredLaneSeries series;
    std::vector<QPointF> ttft_raw;  // (send stamp in ns, TTFT in ms)
    int64_t ttft_seen = 0;
    std::unique_ptr<RateBins> rate;
    TrafficSeries traffic;
    int64_t start_ns = INT64_MAX;
    std::map<std::string, int64_t> phase_first_ns;  // by "experiment\nphase"
  };
  void add(const report::RequestPoint& p);
  Lane& lane(const std::string& id);
  void thin(Lane& lane);

  QStringList lanes_;
  StoredTrafficPlan plan_;
  std::map<QString, Lane> by_lane_;
  std::string last_id_;
  Lane* last_lane_ = nullptr;
  int64_t t0_ns_ = INT64_MAX;  // the earliest scheduled (or else sent) stamp seen
  int64_t anchor_ns_ = -1;     // the first block's, for the rate bins
};

// The steady-state windows the summary records for the throughput levels, placed on the run's
// time axis by each phase's first send.
void add_steady_windows(StoredRunSeries& series, const record::RunSummary& summary);

// All of a loaded folder's requests at once (RunFolder::requests).
StoredRunSeries stored_run_series(const report::RunFolder& folder);

}  // namespace lb::ui
