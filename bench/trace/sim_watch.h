#pragma once
// SimWatch: reads a simulator's /metrics every few milliseconds on its own thread while a run
// goes on, so the bench can say from the simulator's side how fast it finished requests and how
// many it held at once, whatever the client measured.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace lb::bench {

struct SimWatchFigures {
  double finished = 0;          // requests the simulator finished while watched
  double completion_rate = -1;  // req/s from just before its first finish to its last one
  double max_in_engine = -1;    // most requests running + waiting at one reading
  int readings = 0;             // /metrics answers read
};

class SimWatch {
 public:
  // Starts reading METRICS_URL (http://127.0.0.1:PORT/metrics) every INTERVAL_MS.
  SimWatch(std::string metrics_url, int interval_ms);
  ~SimWatch();
  SimWatch(const SimWatch&) = delete;
  SimWatch& operator=(const SimWatch&) = delete;

  // Stops reading (once) and sums up what was read.
  SimWatchFigures stop();

 private:
  struct Reading {
    int64_t t_ns = 0;
    double finished = 0;   // vllm:request_success_total, every finish reason
    double in_engine = 0;  // vllm:num_requests_running + vllm:num_requests_waiting
  };
  void run();

  std::string url_;
  int interval_ms_;
  std::atomic<bool> stop_{false};
  std::vector<Reading> readings_;  // the watch thread's until joined
  std::thread thread_;
};

}  // namespace lb::bench
