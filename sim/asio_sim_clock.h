#pragma once
// AsioSimClock: runs the engine model in real time on an io_context. Model time t maps to
// steady_clock epoch + t * time_scale. Inside a scheduled callback now_s() is that callback's
// scheduled time, so the model never accumulates timer lateness. All scheduled calls share one
// steady_timer armed for the earliest of them (a heap), so a thousand streams cost one timer.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <queue>
#include <vector>

#include "core/net/steady_clock.h"
#include "sim_clock.h"

namespace lb::sim {

class AsioSimClock final : public SimClock {
 public:
  AsioSimClock(boost::asio::io_context& io, double time_scale);

  double now_s() const override;
  void call_at(double t_s, std::function<void()> fn) override;

  std::chrono::steady_clock::time_point to_steady(double t_s) const;
  double to_model_s(std::chrono::steady_clock::time_point tp) const;
  double time_scale() const { return time_scale_; }

 private:
  struct Item {
    double t_s;
    uint64_t order;
    std::function<void()> fn;
    bool operator>(const Item& o) const { return t_s != o.t_s ? t_s > o.t_s : order > o.order; }
  };
  void arm();
  void on_timer();

  boost::asio::io_context& io_;
  double time_scale_;
  std::chrono::steady_clock::time_point epoch_;
  double current_s_ = -1.0;  // scheduled time of the callback running now, -1 outside one
  boost::asio::steady_timer timer_;
  double armed_s_ = -1.0;     // deadline the timer waits for, -1 = idle
  bool dispatching_ = false;  // on_timer() re-arms once when it is done
  uint64_t next_order_ = 0;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue_;
};

int64_t steady_ns(std::chrono::steady_clock::time_point tp);

}  // namespace lb::sim
