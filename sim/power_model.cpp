#include "power_model.h"

#include <algorithm>

namespace lb::sim {

void PowerModel::set_load(double now_s, bool prefill_running, int decoding) {
  joules_ = joules(now_s);
  since_s_ = now_s;
  const double span = profile_.busy_watts - profile_.idle_watts;
  double share = 0;
  if (prefill_running) {
    share = 1;
  } else if (decoding > 0) {
    const double batch_room = std::max(1, profile_.max_num_seqs - 1);
    share = 0.4 + 0.6 * std::min(1.0, (decoding - 1) / batch_room);
  }
  watts_ = profile_.idle_watts + span * share;
}

double PowerModel::joules(double now_s) const {
  const double watts = watts_ < 0 ? profile_.idle_watts : watts_;
  return joules_ + watts * std::max(0.0, now_s - since_s_);
}

}  // namespace lb::sim
