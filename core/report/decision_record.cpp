#include "report/decision_record.h"

#include <filesystem>
#include <sstream>

#include "compare/review_record.h"
#include "files/confined_write.h"
#include "files/regular_file.h"

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

nlohmann::json decision_to_json(const DecisionRecord& record) {
  return {{"decision", decision_name(record.decision)},
          {"rationale", record.rationale},
          {"decided_at", record.decided_at},
          {"gates", record.gates}};
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
  record.gates = json.value("gates", nlohmann::json(nullptr));
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
    set_error(error, read_error);
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded()) {
    set_error(error, "decision.json is not valid JSON");
    return std::nullopt;
  }
  return decision_from_json(json, error);
}

}  // namespace lb::report
