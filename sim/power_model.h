#pragma once
// PowerModel: the modelled board power of the lane's GPUs and the energy they used since the
// engine started, as DCGM's DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counts it (sim/README.md,
// "Energy"). Power is idle_watts with nothing to do, busy_watts while a prefill step runs
// (compute bound), and in between while only decodes run: 40 % of the way at one sequence,
// rising linearly to busy_watts at max_num_seqs (memory bound at low batch).
#include "profile.h"

namespace lb::sim {

class PowerModel {
 public:
  explicit PowerModel(const Profile& profile) : profile_(profile) {}

  // Accrues the energy up to model time now_s at the old load, then switches to the new one.
  void set_load(double now_s, bool prefill_running, int decoding);
  // Joules used from model time 0 to now_s (>= the last set_load time).
  double joules(double now_s) const;
  double watts() const { return watts_; }

 private:
  const Profile& profile_;
  double joules_ = 0;
  double since_s_ = 0;
  double watts_ = -1;  // -1 until the first set_load: idle
};

}  // namespace lb::sim
