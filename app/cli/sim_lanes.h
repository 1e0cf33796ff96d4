#pragma once
// Lets `sim:PROFILE` lanes start the built-in simulator in process, when this build has it.
namespace lb::cli {
void register_sim_lanes();
}  // namespace lb::cli
