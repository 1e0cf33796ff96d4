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

class LiveRunData {
 public:
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
    std::vector<QPointF> decode_ctx, ttft_ctx;
    int64_t failed = 0;
  };
  void add_one(Lane& lane, const metrics::RequestRecord& record);

  int64_t t0_ns_ = 0;
  QStringList lanes_;
  std::map<QString, Lane> data_;
  std::vector<double> empty_;
};

}  // namespace lb::ui
