#pragma once
// The charts of a finished (or interrupted) run, rebuilt from its requests.jsonl with the same
// definitions the live charts use: TTFT per request against its send time, output tokens per
// second in 1 s buckets, ITL and tokens-per-event samples (uniform, bounded: the histograms'
// input, as live), and decode rate and TTFT against prompt length for a context sweep. Warm-ups
// and failed requests are left out, as live.
#include <QPointF>
#include <QString>
#include <QStringList>
#include <map>
#include <vector>

#include "report/run_folder.h"
#include "ui/run/bounded_samples.h"

namespace lb::ui {

struct StoredLaneSeries {
  std::vector<QPointF> ttft_ms;             // (send time since run start in s, TTFT in ms), by x
  std::vector<QPointF> output_tok_s;        // (end of 1 s bucket in s, output tokens per s)
  ReservoirSample itl_sample_ms;            // gaps between consecutive events
  ReservoirSample tokens_per_event_sample;  // when the server counted them
  std::vector<QPointF> decode_vs_context;   // (prompt tokens, decode tok/s), by x
  std::vector<QPointF> ttft_vs_context;     // (prompt tokens, TTFT in s), by x
  int requests = 0;                         // lines of this lane, failures and warm-ups included
  int failed = 0;
};

struct StoredRunSeries {
  static constexpr double kRateBucketS = 1.0;
  QStringList lanes;  // plan order
  std::map<QString, StoredLaneSeries> by_lane;
  bool has_context_points() const;
};

StoredRunSeries stored_run_series(const report::RunFolder& folder);

}  // namespace lb::ui
