#pragma once
// decision.json in a run folder: what the qualification concluded, why, when, and the gate
// results it was based on. Written by the Decision page and read by the report.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lb::report {

enum class Decision { Promote, Challenger, Reject };
// "promote", "challenger", "reject"
const char* decision_name(Decision decision);
// What a reader sees, e.g. "challenger, no promotion".
const char* decision_label(Decision decision);
std::optional<Decision> decision_from_name(std::string_view name);

struct DecisionRecord {
  Decision decision = Decision::Challenger;
  std::string rationale;
  std::string decided_at;  // ISO 8601 UTC, e.g. "2026-11-29T21:45:59Z"; now when saved empty
  nlohmann::json gates;    // snapshot of the gate table the decision was taken on
};

inline constexpr const char* kDecisionFile = "decision.json";

nlohmann::json decision_to_json(const DecisionRecord& record);
// Fills error (naming the field) and returns nullopt on a malformed record.
std::optional<DecisionRecord> decision_from_json(const nlohmann::json& json, std::string* error);

// Writes DIR/decision.json through a temporary file and a rename: a crash never leaves half a
// decision. Fills decided_at with the current time when empty.
bool save_decision(const std::string& dir, const DecisionRecord& record, std::string* error);
// nullopt when there is no decision.json or it is malformed (error says which).
std::optional<DecisionRecord> load_decision(const std::string& dir, std::string* error = nullptr);

}  // namespace lb::report
