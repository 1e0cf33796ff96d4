#pragma once
// MetricsRegistry: the server-side counters and histograms of one lane, rendered as Prometheus
// text with vLLM's metric names (vllm:*). Engine counters (tokens, prefix cache, spec decode)
// come from the EngineModel snapshot; latencies are observed by the server in real seconds,
// i.e. what a client measures at the lane's time scale.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine_model.h"
#include "profile.h"

namespace lb::sim {

class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void observe(double value);
  void render(std::string& out, const std::string& name, const std::string& labels) const;

 private:
  std::vector<double> bounds_;
  std::vector<int64_t> counts_;  // per bucket, not cumulative; last = +Inf
  double sum_ = 0.0;
  int64_t count_ = 0;
};

class MetricsRegistry {
 public:
  explicit MetricsRegistry(const Profile& profile);

  void observe_ttft_s(double s) { ttft_.observe(s); }
  void observe_itl_s(double s) { itl_.observe(s); }
  void observe_e2e_s(double s) { e2e_.observe(s); }
  void count_finished(const std::string& finish_reason) { ++finished_[finish_reason]; }

  // time_scale: real seconds per model second (SimConfig::time_scale), for the energy counter.
  std::string render(const EngineSnapshot& engine, double time_scale = 1.0) const;

 private:
  Profile profile_;
  Histogram ttft_;
  Histogram itl_;
  Histogram e2e_;
  std::map<std::string, int64_t> finished_;
};

}  // namespace lb::sim
