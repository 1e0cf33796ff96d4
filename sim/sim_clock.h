#pragma once
// SimClock: the time source the engine model runs on, in model seconds. The server maps it to
// steady_clock through the time scale (AsioSimClock); tests and calibration run the same model
// on VirtualClock, which jumps from one scheduled call to the next without waiting.
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace lb::sim {

class SimClock {
 public:
  virtual ~SimClock() = default;
  virtual double now_s() const = 0;
  // Calls `fn` once at model time `t_s` (or as soon as possible if that is in the past).
  virtual void call_at(double t_s, std::function<void()> fn) = 0;
};

class VirtualClock final : public SimClock {
 public:
  double now_s() const override { return now_s_; }
  void call_at(double t_s, std::function<void()> fn) override;
  // Runs scheduled calls in time order until none is left or the next is after `until_s`.
  void run(double until_s = 1e300);
  size_t pending() const { return queue_.size(); }

 private:
  struct Item {
    double t_s;
    uint64_t order;
    std::function<void()> fn;
    bool operator>(const Item& o) const { return t_s != o.t_s ? t_s > o.t_s : order > o.order; }
  };
  double now_s_ = 0.0;
  uint64_t next_order_ = 0;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue_;
};

}  // namespace lb::sim
