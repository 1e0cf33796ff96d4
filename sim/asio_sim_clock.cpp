#include "asio_sim_clock.h"

#include <boost/asio/steady_timer.hpp>
#include <memory>

namespace lb::sim {

AsioSimClock::AsioSimClock(boost::asio::io_context& io, double time_scale)
    : io_(io), time_scale_(time_scale), epoch_(std::chrono::steady_clock::now()) {}

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
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, to_steady(t_s));
  timer->async_wait([this, timer, t_s, fn = std::move(fn)](const boost::system::error_code& ec) {
    if (ec) return;  // io_context stopping
    const double saved = current_s_;
    current_s_ = std::max(t_s, saved);
    fn();
    current_s_ = saved;
  });
}

int64_t steady_ns(std::chrono::steady_clock::time_point tp) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(tp.time_since_epoch()).count();
}

int64_t steady_now_ns() { return steady_ns(std::chrono::steady_clock::now()); }

}  // namespace lb::sim
