#pragma once
// The search of an SLO capacity experiment, apart from any server: which load to probe next,
// given the verdicts so far. Doubling from the start load until a probe fails (or max_load
// passes), then bisection between the highest passing and the lowest failing load until they are
// at most `resolution` apart. A start load that fails is bisected down towards 0 (rate) or ends
// the search (concurrency 1 cannot go lower).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb::run {

struct CapacityProbe {
  double load = 0;  // concurrency, or req/s
  bool pass = false;
  double ttft_p99_ms = -1;
  double tpot_p99_ms = -1;
  double goodput_req_s = -1;  // requests meeting every SLO / probe duration
  int64_t completed = 0;
  int64_t errors = 0;
  std::string
      binding;  // the failed SLO most over its limit ("ttft_p99_ms", "errors", ...); "" = pass
  double duration_s = 0;
};

class CapacitySearch {
 public:
  // integer_loads: concurrency (loads are whole numbers, at least 1).
  CapacitySearch(double start, double max_load, double resolution, bool integer_loads);

  // The next load to probe; nullopt when the search is done.
  std::optional<double> next() const;
  void record(const CapacityProbe& probe);

  const std::vector<CapacityProbe>& probes() const { return probes_; }
  // The highest passing load; nullopt when none passed.
  std::optional<double> capacity() const { return best_pass_; }
  // The probe at the capacity, and the lowest failing one (whose binding SLO stopped the search).
  const CapacityProbe* capacity_probe() const;
  const CapacityProbe* limiting_probe() const;
  // True when the highest load tried (max_load) passed: the capacity is at least that.
  bool reached_max() const { return best_pass_ && *best_pass_ >= max_load_; }

 private:
  double snap(double load) const;

  double start_, max_load_, resolution_;
  bool integer_loads_;
  std::optional<double> best_pass_;
  std::optional<double> lowest_fail_;
  std::vector<CapacityProbe> probes_;
};

}  // namespace lb::run
