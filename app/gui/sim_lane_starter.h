#pragma once
// Lets core/run start `sim:PROFILE` lanes in-process with the built-in simulator.
namespace lb::app {
void register_sim_lane_starter();
}
