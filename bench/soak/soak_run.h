#pragma once
// A soak: an in-process lanebench-sim lane with faults injected into a fixed share of requests
// (500s, drops, 429s, stalls, chosen per request with x-sim-fault so each has a known expected
// outcome) and N concurrent streams from the engine's StreamClient, closed loop, for a duration.
// Every request is accounted for by outcome; RSS and open descriptors are sampled from
// /proc/self; event arrival is compared with the simulator's trace.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "arrival_lag.h"
#include "process_sampler.h"

namespace lb::bench {

struct SoakConfig {
  double duration_s = 600;
  int streams = 512;
  double sample_every_s = 5;
  double warmup_s = 60;            // samples before this are not judged for flatness
  double fault_rate = 0.01;        // per fault kind: 500, drop, 429, stall
  int input_words = 96;            // prompt size
  int output_tokens = 128;         // per request (ignore_eos)
  double decode_tok_s = 20;        // per stream, model time; streams * rate = events/s
  double time_scale = 1.0;         // simulator real time = model time * scale
  int64_t idle_timeout_ms = 1500;  // a stalled stream ends as IdleTimeout after this
  uint64_t seed = 1;
  bool progress = true;  // a line on stderr per sample
};

struct SoakResult {
  double elapsed_s = 0;
  int64_t submitted = 0;
  int64_t finished = 0;
  // injected fault ("none", "500", "drop", "429", "stall") -> outcome ("ok" or an error kind)
  std::map<std::string, std::map<std::string, int64_t>> outcomes;
  int64_t unexpected = 0;       // outcome differs from what the injected fault must give
  int64_t unmatched_trace = 0;  // OK requests whose trace never showed [DONE] in time
  double requests_per_s = 0;
  double events_per_s = 0;
  LagFigures lag;
  std::vector<ProcessSample> samples;
  FlatnessFigures rss_mb;
  FlatnessFigures open_fds;
};

SoakResult run_soak(const SoakConfig& config);

}  // namespace lb::bench
