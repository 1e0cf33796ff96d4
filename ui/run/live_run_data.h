#pragma once
// What the live charts and table show, accumulated on the GUI thread from drained batches of
// finished requests: per lane, TTFT per request over time, output tokens per second over time,
// ITL and tokens-per-event samples, context-length points, and the lane summary.
#include <QPointF>
#include <QString>
#include <QStringList>
#include <map>
#include <set>
#include <vector>

#include "metrics/request_metrics.h"
#include "metrics/summary.h"

namespace lb::ui {

// One phase of one lane (a context size, a prefix-cache pass, a concurrency level), summarised
// exactly as the run folder's summary.json summarises it (metrics::summarize over its records).
struct PhaseStat {
  QString phase;
  metrics::LaneSummary summary;
};

class LiveRunData {
 public:
  enum class PhaseMeasure { TtftP50Ms, DecodeP50TokS, OutputTokS };

  static constexpr double kRateBucketS = 1.0;  // output tok/s is counted per 1 s of wall time

  void reset(int64_t t0_ns, QStringList lanes);
  // Adds finished requests; returns the lanes that changed.
  std::set<QString> add(const std::vector<metrics::RequestRecord>& records);

  QStringList lanes() const { return lanes_; }
  int64_t t0_ns() const { return t0_ns_; }
  // (send time since run start in s, TTFT in ms), in completion order sorted by x.
  std::vector<QPointF> ttft_over_time(const QString& lane) const;
  // (bucket start in s, output tokens per s); the newest bucket is left out while it is filling.
  std::vector<QPointF> output_rate_over_time(const QString& lane, double now_s) const;
  const std::vector<double>& itl_ms(const QString& lane) const;
  const std::vector<double>& tokens_per_event(const QString& lane) const;
  // Context sweep: (prompt tokens, decode tok/s) and (prompt tokens, TTFT in s), sorted by x.
  std::vector<QPointF> decode_vs_context(const QString& lane) const;
  std::vector<QPointF> ttft_vs_context(const QString& lane) const;
  bool has_context_points() const;
  // The lane's phases in the order they started, each summarised over its finished requests.
  const std::vector<PhaseStat>& phases(const QString& lane) const;
  // (phase position, measure) per phase, sorted by x; phases without a position are left out.
  std::vector<QPointF> phase_series(const QString& lane, PhaseMeasure measure) const;
  // Prefix cache: (pass number 1 cold / 2 warm / 3 control, TTFT in ms) per request.
  std::vector<QPointF> ttft_per_pass(const QString& lane) const;
  // Where a phase sits on an x axis: "c32" -> 32, "4096" -> 4096, "cold"/"warm"/"control" ->
  // 1/2/3; NaN for anything else.
  static double phase_x(const QString& phase);
  metrics::LaneSummary summary(const QString& lane) const;
  int64_t requests(const QString& lane) const;
  int64_t failed(const QString& lane) const;

 private:
  struct Lane {
    std::vector<metrics::RequestRecord> records;  // texts stripped
    std::vector<QPointF> ttft;
    std::vector<double> tokens_per_bucket;
    std::vector<double> itl_ms;
    std::vector<double> tokens_per_event;
    std::vector<QPointF> decode_ctx, ttft_ctx, ttft_pass;
    std::map<QString, std::vector<metrics::RequestRecord>> by_phase;
    std::vector<PhaseStat> phases;
    int64_t failed = 0;
  };
  void add_one(Lane& lane, const metrics::RequestRecord& record);
  static void refresh_phase(Lane& lane, const QString& phase);
  std::vector<PhaseStat> no_phases_;

  int64_t t0_ns_ = 0;
  QStringList lanes_;
  std::map<QString, Lane> data_;
  std::vector<double> empty_;
};

}  // namespace lb::ui
