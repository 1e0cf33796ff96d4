#pragma once
// Probes one lane the way a run prepares it (starting a sim: lane if needed, reading the key from
// its environment variable or the OS keyring, asking /v1/models, /version, /health and /metrics).
// Blocking: run it on a worker thread.
#include <QString>
#include <QThreadPool>

#include "core/plan/plan.h"

namespace lb::ui {

struct ProbeOutcome {
  bool ok = false;
  QString text;   // several lines: what the server is, or why it cannot be used
  QString model;  // the model a run would use ("" on failure)
};

// Its key, if any, is read from ENV, which must allow the variable for the lane's host.
ProbeOutcome probe_lane_blocking(const plan::Lane& lane,
                                 const plan::Environment& env = plan::Environment::of_process());

// The pool probes run on: their own, so a probe waiting on a slow or silent server (up to its
// timeouts) never holds up run loading or report export on Qt's global pool, nor they a probe.
QThreadPool& probe_pool();

}  // namespace lb::ui
