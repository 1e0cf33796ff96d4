#include "core/report/decision_record.h"

#include <filesystem>
#include <sstream>

#include "core/compare/review_record.h"
#include "core/files/confined_write.h"
#include "core/files/regular_file.h"
#include "core/report/gate_table.h"

namespace lb::report {
namespace {

void set_error(std::string* error, std::string message) {
  if (error) *error = std::move(message);
}

}  // namespace

const char* decision_name(Decision decision) {
  switch (decision) {
    case Decision::Promote:
      return "promote";
    case Decision::Challenger:
      return "challenger";
    case Decision::Reject:
      return "reject";
  }
  return "challenger";
}

const char* decision_label(Decision decision) {
  switch (decision) {
    case Decision::Promote:
      return "promote";
    case Decision::Challenger:
      return "challenger, no promotion";
    case Decision::Reject:
      return "reject";
  }
  return "challenger, no promotion";
}

std::optional<Decision> decision_from_name(std::string_view name) {
  if (name == "promote") return Decision::Promote;
  if (name == "challenger") return Decision::Challenger;
  if (name == "reject") return Decision::Reject;
  return std::nullopt;
}

std::string decision_headline(const DecisionRecord& record) {
  std::string text = decision_label(record.decision);
  if (record.candidate.empty()) return text;
  if (record.decision == Decision::Promote)
    return text + " " + record.candidate +
           (record.baseline.empty() ? std::string() : " over " + record.baseline);
  text += (record.decision == Decision::Challenger ? ": " : " ") + record.candidate;
  return record.baseline.empty() ? text : text + " (baseline " + record.baseline + ")";
}

nlohmann::json decision_to_json(const DecisionRecord& record) {
  nlohmann::json j = {{"decision", decision_name(record.decision)},
                      {"candidate", record.candidate},
                      {"baseline", record.baseline},
                      {"rationale", record.rationale},
                      {"decided_at", record.decided_at},
                      {"gates", record.gates}};
  if (!record.overridden_gates.empty())
    j["override"] = {{"gates", record.overridden_gates},
                     {"note",
                      "promoted although these gates of the candidate were pending or "
                      "failed; the rationale says why"}};
  return j;
}

std::optional<DecisionRecord> decision_from_json(const nlohmann::json& json, std::string* error) {
  if (!json.is_object()) {
    set_error(error, "decision.json: expected an object");
    return std::nullopt;
  }
  const auto name = json.find("decision");
  if (name == json.end() || !name->is_string() || !decision_from_name(name->get<std::string>())) {
    set_error(error,
              "decision.json: \"decision\" must be \"promote\", \"challenger\" or \"reject\"");
    return std::nullopt;
  }
  DecisionRecord record;
  record.decision = *decision_from_name(name->get<std::string>());
  const auto rationale = json.find("rationale");
  if (rationale != json.end() && !rationale->is_string()) {
    set_error(error, "decision.json: \"rationale\" must be a string");
    return std::nullopt;
  }
  if (rationale != json.end()) record.rationale = rationale->get<std::string>();
  const auto at = json.find("decided_at");
  if (at == json.end() || !at->is_string() || !compare::parse_iso8601_utc(at->get<std::string>())) {
    set_error(error, "decision.json: \"decided_at\" must be an ISO 8601 UTC time");
    return std::nullopt;
  }
  record.decided_at = at->get<std::string>();
  for (const char* key : {"candidate", "baseline"}) {
    const auto lane = json.find(key);
    if (lane == json.end()) continue;
    if (!lane->is_string()) {
      set_error(error, std::string("decision.json: \"") + key + "\" must be a lane id (a string)");
      return std::nullopt;
    }
    (key[0] == 'c' ? record.candidate : record.baseline) = lane->get<std::string>();
  }
  if (const auto o = json.find("override"); o != json.end()) {
    const auto gates = o->is_object() ? o->find("gates") : o->end();
    if (!o->is_object() || gates == o->end() || !gates->is_array()) {
      set_error(error, "decision.json: \"override\" must hold a \"gates\" list");
      return std::nullopt;
    }
    for (const auto& g : *gates) {
      if (!g.is_string()) {
        set_error(error, "decision.json: override.gates must be a list of strings");
        return std::nullopt;
      }
      record.overridden_gates.push_back(g.get<std::string>());
    }
  }
  const auto gates = json.find("gates");
  record.gates = gates != json.end() ? *gates : nlohmann::json(nullptr);
  return record;
}

bool save_decision(const std::string& dir, const DecisionRecord& record, std::string* error) {
  DecisionRecord copy = record;
  if (copy.decided_at.empty())
    copy.decided_at = compare::format_iso8601_utc(std::chrono::system_clock::now());
  const std::string text =
      decision_to_json(copy).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // Into the run folder's own writer: a decision.json planted as a link is replaced, not
  // written through.
  return files::write_confined(dir, kDecisionFile, text, error);
}

std::optional<DecisionRecord> load_decision(const std::string& dir, std::string* error) {
  constexpr size_t kMaxDecisionBytes = 16 * files::kMiB;
  const auto path = std::filesystem::path(dir) / kDecisionFile;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    set_error(error, "");
    return std::nullopt;
  }
  std::string read_error;
  const auto text = files::read_regular_file(path.string(), kMaxDecisionBytes, &read_error);
  if (!text) {
    set_error(error, "decision.json: " + files::error_reason(read_error, path.string()));
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded()) {
    set_error(error, "decision.json: not valid JSON (cut short?)");
    return std::nullopt;
  }
  return decision_from_json(json, error);
}

void set_gate_snapshot(DecisionRecord& record, const GateTable* table) {
  record.gates = table ? gate_table_to_json(*table) : nlohmann::json();
}

}  // namespace lb::report
