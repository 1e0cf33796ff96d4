#pragma once
// The demo workspace's qualification plan: FP8 and FP8+MTP3 against the BF16 baseline on the
// demo's simulator lanes, every experiment a qualification needs (regression, functional gates,
// context sweep with needle retrieval, the prefix cache burst, speculative decoding) in about a
// minute and a half at the demo time scale.
#include <QString>
#include <nlohmann/json.hpp>

namespace lb::ui {

class Workspace;

inline constexpr const char* kDemoPlanFile = "demo-qualification.json";
inline constexpr const char* kDemoSweepFile = "demo-sweep-mtp-batch-tokens.json";

nlohmann::json demo_qualification_plan();
// WORKSPACE's plans/demo-qualification.json, written when missing; false with *error when it
// cannot be written.
bool write_demo_plan(const QString& plans_dir, QString* error);

// The MTP batch-token tuning sweep: the FP8 baseline and the FP8+MTP lane as managed
// lanebench-sim servers, the MTP lane restarted with each --max-num-batched-tokens value (about
// 20 s). SIM_PROGRAM is the simulator to start (a path, or a name looked up in PATH).
nlohmann::json demo_sweep_plan(const QString& sim_program);
// The simulator next to this program (installed side by side, or in the build tree's app/sim),
// else "lanebench-sim" from PATH.
QString sim_program_path();
bool write_demo_sweep_plan(const QString& plans_dir, QString* error);

}  // namespace lb::ui
