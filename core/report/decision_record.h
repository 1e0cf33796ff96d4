#pragma once
// decision.json in a run folder: what the qualification concluded, why, when, and the gate
// results it was based on. Written by the Decision page and read by the report.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  std::string candidate;  // the lane decided on; empty in a record that named none
  std::string baseline;   // the lane it was compared with (the run's first lane)
  std::string rationale;
  // Promote taken although these gates of the candidate were pending or failed, each as the
  // gate table showed it ("Regression review: review pending: 10 pair(s)"), after the user
  // confirmed it; the rationale is the override's. Empty = no override.
  std::vector<std::string> overridden_gates;
  std::string decided_at;  // ISO 8601 UTC, e.g. "2026-11-29T21:45:59Z"; now when saved empty
  nlohmann::json gates;    // snapshot of the gate table the decision was taken on
};

struct GateTable;
// Takes TABLE (the gate table the decision was taken on, as the page showed it) into RECORD's
// snapshot; none: null.
void set_gate_snapshot(DecisionRecord& record, const GateTable* table);

inline constexpr const char* kDecisionFile = "decision.json";

// What a reader sees first: "promote fp8 over bf16", "reject fp8-mtp3 (baseline bf16)",
// "challenger, no promotion" when no lane is named.
std::string decision_headline(const DecisionRecord& record);

nlohmann::json decision_to_json(const DecisionRecord& record);
// Fills error (naming the field) and returns nullopt on a malformed record.
std::optional<DecisionRecord> decision_from_json(const nlohmann::json& json, std::string* error);

// Writes DIR/decision.json through a temporary file and a rename: a crash never leaves half a
// decision. Fills decided_at with the current time when empty.
bool save_decision(const std::string& dir, const DecisionRecord& record, std::string* error);
// nullopt when there is no decision.json or it is malformed (error says which).
std::optional<DecisionRecord> load_decision(const std::string& dir, std::string* error = nullptr);

}  // namespace lb::report
