#include "asio_sim_clock.h"

#include <algorithm>

namespace lb::sim {

AsioSimClock::AsioSimClock(boost::asio::io_context& io, double time_scale)
    : io_(io), time_scale_(time_scale), epoch_(std::chrono::steady_clock::now()), timer_(io) {}

double AsioSimClock::now_s() const {
  if (current_s_ >= 0.0) return current_s_;
  return to_model_s(std::chrono::steady_clock::now());
}

std::chrono::steady_clock::time_point AsioSimClock::to_steady(double t_s) const {
  const auto real = std::chrono::duration<double>(t_s * time_scale_);
  return epoch_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(real);
}

double AsioSimClock::to_model_s(std::chrono::steady_clock::time_point tp) const {
  return std::chrono::duration<double>(tp - epoch_).count() / time_scale_;
}

void AsioSimClock::call_at(double t_s, std::function<void()> fn) {
  queue_.push(Item{t_s, next_order_++, std::move(fn)});
  arm();
}

void AsioSimClock::arm() {
  if (dispatching_ || queue_.empty()) return;
  const double next_s = queue_.top().t_s;
  if (armed_s_ >= 0.0 && armed_s_ <= next_s) return;  // already waiting for something earlier
  armed_s_ = next_s;
  timer_.expires_at(to_steady(next_s));  // cancels a later wait, whose handler sees an error
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // re-armed earlier, or the io_context is stopping
    on_timer();
  });
}

void AsioSimClock::on_timer() {
  armed_s_ = -1.0;
  dispatching_ = true;
  // A deadline closer than kSpin is waited for by spinning: re-arming the timer costs a
  // timerfd_settime and an epoll round trip, about as long as the wait, and makes dense event
  // trains late. Spinning is bounded so the reactor still serves sockets every kMaxDispatch.
  constexpr auto kSpin = std::chrono::microseconds(60);
  constexpr auto kMaxDispatch = std::chrono::milliseconds(1);
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    auto now = std::chrono::steady_clock::now();
    const double due_s = to_model_s(now);
    while (!queue_.empty() && queue_.top().t_s <= due_s) {
      Item item = std::move(const_cast<Item&>(queue_.top()));
      queue_.pop();
      const double saved = current_s_;
      current_s_ = std::max(item.t_s, saved);
      item.fn();
      current_s_ = saved;
    }
    if (queue_.empty()) break;
    now = std::chrono::steady_clock::now();
    const auto next = to_steady(queue_.top().t_s);
    if (next - now > kSpin || now - started > kMaxDispatch) break;
    while (std::chrono::steady_clock::now() < next) {
    }
  }
  dispatching_ = false;
  arm();
}

int64_t steady_ns(std::chrono::steady_clock::time_point tp) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(tp.time_since_epoch()).count();
}

}  // namespace lb::sim
