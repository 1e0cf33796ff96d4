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

nlohmann::json demo_qualification_plan();
// WORKSPACE's plans/demo-qualification.json, written when missing; false with *error when it
// cannot be written.
bool write_demo_plan(const QString& plans_dir, QString* error);

}  // namespace lb::ui
