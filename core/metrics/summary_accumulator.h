#pragma once
// A LaneSummary built one request at a time, for summaries that must stay current while a run
// goes on (the workbench's live tables). Adding a request costs what that request brought; reading
// the summary costs the same however many requests came before. summarize() is this accumulator
// over all records plus the two figures that need every request at once: the peak of 1-second
// output windows and the most requests in flight. summary() leaves those two at 0. With
// ValueStorage::Spooled every figure's values go to disk (FigureStatistics), so a phase of any
// length is summarised exactly in memory that does not grow with it.
#include <cstdint>
#include <map>
#include <string>

#include "core/metrics/figure_statistics.h"
#include "core/metrics/order_statistics.h"
#include "core/metrics/summary.h"

namespace lb::metrics {

class SummaryAccumulator {
 public:
  // EVENT_SAMPLE > 0 (in memory): the per-event figures (ITL, tokens per event) from a uniform
  // sample of that many values; REQUEST_SAMPLE > 0: the per-request ones (TTFT, TPOT, ...) too.
  // A figure whose sample is not every value is marked Estimated. For live summaries, whose
  // memory must not grow with the run; summary.json has the exact figures.
  explicit SummaryAccumulator(SloSpec slo = {}, size_t event_sample = 0,
                              ValueStorage storage = ValueStorage::Memory,
                              size_t request_sample = 0);

  void add(const RequestRecord& record);
  // Same, with the record's metrics already computed (compute_request_metrics(record)).
  void add(const RequestRecord& record, const RequestMetrics& metrics);
  LaneSummary summary() const;
  // With an event sample size: the uniform samples behind the ITL and tokens-per-event
  // percentiles (for histograms); empty without one.
  const std::vector<double>& itl_sample() const { return itl_.sample(); }
  const std::vector<double>& tokens_per_event_sample() const { return tokens_per_event_.sample(); }
  int64_t requests() const { return measured_ + warmups_; }  // warm-ups included
  // Spooled: why some figure keeps its values in memory after all (a full disk); else empty.
  std::string spool_fallback_reason() const;

 private:
  // Provenances of per-request figures combined: any estimate makes the aggregate an estimate.
  struct ProvenanceMix {
    Provenance result = Provenance::None;
    void add(Provenance p);
  };
  // Sums of what requests reported in their usage; a sum stays -1 until one request reports it.
  struct UsageTotals {
    int64_t cached = -1, prompt_with_cached = 0;
    int64_t drafts = -1, draft_tokens = -1, accepted = -1;
    void add(const RequestRecord& r, const RequestMetrics& m);
    void write(LaneSummary& out) const;
  };
  void add_completed(const RequestRecord& record, const RequestMetrics& m);
  void keep_common(std::string& field, const std::string& value) const;

  SloSpec slo_;
  int64_t measured_ = 0, warmups_ = 0, completed_ = 0, failed_ = 0, good_ = 0;
  std::map<std::string, int64_t> errors_by_kind_;
  std::string lane_id_, experiment_, phase_;
  int64_t first_sent_ns_ = 0, last_done_ns_ = 0;
  int64_t input_tokens_ = 0, output_tokens_ = 0;
  ProvenanceMix input_provenance_, output_provenance_;
  FigureStatistics ttft_, ttft_content_, ttft_sched_, tpot_, e2el_, e2el_sched_, queue_, decode_;
  // Per-event: with an event sample size (in memory), sampled.
  FigureStatistics itl_, tokens_per_event_;
  int64_t coalesced_ = 0;
  UsageTotals usage_;
};

}  // namespace lb::metrics
