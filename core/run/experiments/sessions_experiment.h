#pragma once
// Multi-turn sessions (docs/sessions.md): synthetic sessions or ShareGPT conversations, each turn
// sending the whole history, `sessions` sessions at once, against each lane in turn as one phase
// "sessions". requests.jsonl records each turn's session and turn index; the lane's "sessions"
// section gives TTFT per turn index, the cached-token share per turn (provenance labelled) and
// each session's end-to-end time.
#include <vector>

#include "core/metrics/request_record.h"
#include "core/record/sessions_record.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {

class SessionsExperiment : public Experiment {
 public:
  void run(ExperimentContext& ctx) override;
};

// Per turn index (0 = first): requests, failed, TTFT p50/p99 (ms), mean prompt tokens and the
// cached-token share (Σ cached_tokens / Σ prompt_tokens from usage, provenance "server"; null
// when no response reported cached tokens). Then sessions_completed, sessions_failed and the
// session end-to-end time (first turn's send to last turn's end, s) p50/p99/mean over completed
// sessions.
record::SessionsRecord session_figures(const std::vector<metrics::RequestRecord>& records,
                                       size_t sessions);

}  // namespace lb::run
