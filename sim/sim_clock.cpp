#include "sim_clock.h"

#include <algorithm>

namespace lb::sim {

void VirtualClock::call_at(double t_s, std::function<void()> fn) {
  queue_.push(Item{std::max(t_s, now_s_), next_order_++, std::move(fn)});
}

void VirtualClock::run(double until_s) {
  while (!queue_.empty() && queue_.top().t_s <= until_s) {
    Item item = queue_.top();
    queue_.pop();
    now_s_ = item.t_s;
    item.fn();
  }
}

}  // namespace lb::sim
