#pragma once
// A lane's chart series, folded one finished request at a time: the one fold behind the live Run
// page (LiveRunData, as requests drain) and a reopened run (StoredSeriesBuilder, block by block
// from requests.jsonl), so a reopened run draws what the live one did:
//  - TTFT per request against its send time: every request, then every stride-th
//    (ThinnedPoints);
//  - output tokens per 1 s of wall time, by when each event arrived (RateBins);
//  - uniform samples of the gaps between events (ITL) and of the server's per-event token counts,
//    the histograms' input (ReservoirSample);
//  - decode rate and TTFT against prompt length (a context sweep's requests), TTFT per pass (a
//    prefix-cache experiment's);
//  - the traffic kinds' series: a trace's send lateness, sessions' TTFT by turn, a capacity
//    search's probes (TrafficSeries);
//  - when the lane, and each phase of each experiment, sent its first request.
// Failed requests and warm-ups count in `requests` and `failed` (and as a capacity probe's errors),
// and in no chart. Memory is bounded whatever the number of requests, except for the context and
// prefix-cache points (one per request of those experiments, which are short by design).
#include <QPointF>
#include <QString>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/metrics/summary.h"
#include "core/record/experiment_kind.h"
#include "ui/run/bounded_samples.h"
#include "ui/run/traffic_series.h"
#include "widgets/chart/chart_types.h"

namespace lb::ui {

// One finished request as the charts need it (a live record's or a requests.jsonl line's).
struct ChartRequest {
  TrafficRequest traffic;  // kind, phase, outcome, turn, TTFT, TPOT, schedule and send stamps
  std::string_view experiment;
  std::string_view phase;
  double decode_tok_s = -1;
  int64_t prompt_tokens = -1;
  int64_t output_tokens = -1;
  // Each event's arrival after the send in ns (NaN where not known), and the tokens each carried
  // as the server counted them (NaN where it did not; empty when it counted none).
  std::span<const double> event_offsets_ns;
  std::span<const float> event_tokens;
};

// One phase of a lane on the per-concurrency and Pareto charts: where it sits on the x axis
// (LaneSeriesFold::phase_x), its median decode rate with the 95 % interval, and its aggregate
// output rate; NaN where not known.
struct PhasePoint {
  double x = NAN;
  double decode_p50_tok_s = NAN;
  double decode_lo = NAN;
  double decode_hi = NAN;
  double output_tok_s = NAN;
};
// By x, phases without a place on the axis last, in the order they came.
void sort_by_x(std::vector<PhasePoint>& points);
// PHASE's point from its FIGURES (a live phase's or summary.json's), the interval left unknown.
PhasePoint phase_point(std::string_view phase, const metrics::LaneSummary& figures);

// A lane's series as the charts draw them; x in s since the run's start where x is a time.
struct LaneSeries {
  std::vector<QPointF> ttft_ms;  // (sent at, TTFT in ms), by x: every ttft_stride-th request
  int64_t ttft_stride = 1;
  std::vector<QPointF> output_tok_s;  // (end of its 1 s bucket, output tokens per s), by x
  std::vector<double> itl_sample_ms;  // gaps between consecutive events, a uniform sample
  int64_t itl_gaps_seen = 0;          // of all the gaps
  std::vector<double> tokens_per_event_sample;  // when the server counted every event's tokens
  std::vector<QPointF> decode_vs_context;       // (prompt tokens, decode tok/s), by x
  std::vector<QPointF> ttft_vs_context;         // (prompt tokens, TTFT in s), by x
  std::vector<QPointF> ttft_per_pass;           // (pass: 1 cold, 2 warm, 3 control; TTFT in ms)
  // (scheduled at, send lateness in ms) per sent trace request, by x; every lateness_stride-th.
  std::vector<QPointF> lateness_ms;
  int64_t lateness_stride = 1;
  std::vector<QPointF> ttft_by_turn;          // (turn, 1 = the first; median TTFT in ms)
  std::vector<ProbeFigures> capacity_probes;  // the capacity search's, in the order they ran
  int64_t requests = 0;  // every request of the lane, failures and warm-ups included
  int64_t failed = 0;
  double start_s = 0;  // its first request's schedule (else send)
  // Each phase's first measured send, by "experiment\nphase" (failures included: a steady
  // window's clock starts there).
  std::map<std::string, double> phase_start_s;
  // Its throughput levels' steady-state windows, each at its steady output throughput (placed
  // from the run's summary, not folded from requests).
  std::vector<widgets::XSpan> steady_windows;
};

// Output tokens over time in bins of a whole number of milliseconds that divides 1 s, anchored at
// a stamp near the run's start. Once the run's origin is known the bins fall into the 1 s buckets
// whole: exactly when the origin is the anchor (unless a later request is earlier still), else
// to within one bin. Bins widen (1, 2, 5, 10 ... 1000 ms) to stay within kMaxBins; at 1 s they
// grow, up to kMaxSpanS: tokens further than that from the others (a damaged run folder's
// stamps) are left out, not given a bin each.
class RateBins {
 public:
  static constexpr size_t kMaxBins = size_t{1} << 14;
  static constexpr double kBucketS = 1.0;
  static constexpr int64_t kMaxSpanS = 7 * 24 * 3600;  // a week
  explicit RateBins(int64_t anchor_ns) : anchor_ns_(anchor_ns) {}
  void add(int64_t at_ns, double tokens);
  // (end of bucket in s since t0, tokens per s), from the first non-empty bucket to the last one
  // that ends by END_S.
  std::vector<QPointF> points(int64_t t0_ns,
                              double end_s = std::numeric_limits<double>::infinity()) const;

 private:
  void widen();
  int64_t anchor_ns_;
  int64_t width_ns_ = 1'000'000;
  int64_t first_ = 0;  // bin index of bins_[0], relative to the anchor
  std::vector<double> bins_;
};

class LaneSeriesFold {
 public:
  static constexpr size_t kEventSample = 10'000;  // ITL gaps and per-event counts kept
  // An event's arrival after its send beyond this (or before it) is a damaged stamp: left out.
  static constexpr double kMaxEventOffsetNs = 30.0 * 24 * 3600 * 1e9;
  // ANCHOR_NS: a stamp near the run's start (its start when known); the fold's clock. A TTFT
  // scatter keeps at most TTFT_CAPACITY points.
  LaneSeriesFold(int64_t anchor_ns, size_t ttft_capacity);
  void add(const ChartRequest& request);

  // The series on the run's clock, which starts at T0_NS; the output rate's buckets end by END_S
  // (a live run leaves out the bucket still filling). steady_windows stays empty.
  LaneSeries series(int64_t t0_ns, double end_s = std::numeric_limits<double>::infinity()) const;

  // Parts of series(), for a live run's drains.
  std::vector<QPointF> ttft_ms(int64_t t0_ns) const;
  int64_t ttft_stride() const { return ttft_.stride(); }
  std::vector<QPointF> output_tok_s(int64_t t0_ns, double end_s) const {
    return rate_.points(t0_ns, end_s);
  }
  const std::vector<double>& itl_sample_ms() const { return itl_.values(); }
  const std::vector<double>& tokens_per_event_sample() const { return tokens_per_event_.values(); }
  const std::vector<QPointF>& decode_vs_context() const { return decode_ctx_; }
  const std::vector<QPointF>& ttft_vs_context() const { return ttft_ctx_; }
  const std::vector<QPointF>& ttft_per_pass() const { return ttft_pass_; }
  const TrafficSeries& traffic() const { return traffic_; }
  int64_t requests() const { return requests_; }
  int64_t failed() const { return failed_; }
  // s since T0_NS; 0 when the lane has no stamp.
  double start_s(int64_t t0_ns) const;
  std::optional<double> phase_start_s(int64_t t0_ns, const std::string& experiment,
                                      const std::string& phase) const;

  // Where a phase sits on an x axis: "c32" -> 32, "4096" -> 4096, "cold"/"warm"/"control" ->
  // 1/2/3; NaN for anything else.
  static double phase_x(std::string_view phase);

 private:
  void add_events(const ChartRequest& request);
  double since_anchor_s(int64_t stamp_ns) const;

  int64_t anchor_ns_;
  ThinnedPoints ttft_;  // x in s since the anchor
  RateBins rate_;
  ReservoirSample itl_{kEventSample};
  ReservoirSample tokens_per_event_{kEventSample};
  std::vector<QPointF> decode_ctx_, ttft_ctx_, ttft_pass_;
  TrafficSeries traffic_;
  int64_t requests_ = 0;
  int64_t failed_ = 0;
  int64_t start_ns_ = std::numeric_limits<int64_t>::max();
  std::map<std::string, int64_t> phase_first_ns_;  // by "experiment\nphase"
};

}  // namespace lb::ui
