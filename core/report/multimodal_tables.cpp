// The report's multimodal gate table: per lane and API (OpenAI chat, Responses, Ollama's
// /api/chat), its result and n/N per input kind (image, video, mixed), so a lane that answers
// images but not videos shows it, a kind the API cannot carry reads "unsupported by the API", and
// a lane that refused media reads "multimodal unsupported" with the server's reason.
#include "core/record/experiment_kind.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

// As the run layer records a lane that refused media (core/run/experiments/multimodal_gate.h).
constexpr const char* kMultimodalUnsupported = "multimodal unsupported";

// The gate's results per API: the lane's chat API (OpenAI chat or Ollama's), then Responses.
constexpr const char* kMultimodalKeys[] = {"multimodal", "multimodal (responses)"};

// "9/10"; "5/5 (5 unsupported by the API)" when the API could not carry some of the kind's
// prompts; "unsupported by the API" when it could carry none.
std::string kind_cell(const json& gate, const char* kind) {
  const json& k = json_at(gate, {"kinds", kind});
  if (!k.is_object()) return "";
  const std::string score = k.value("score", "");
  const int64_t not_sent = k.value("unsupported_by_api", int64_t{0});
  if (not_sent == 0 || k.value("total", int64_t{0}) == 0) return score;
  return score + " (" + std::to_string(not_sent) + " unsupported by the API)";
}

std::string result_cell(const json& gate) {
  const std::string status = gate.value("status", "");
  if (status != "unsupported") return status;
  const std::string why = gate.value("why", "");
  return gate.value("unsupported", "unsupported") + (why.empty() ? "" : " (" + why + ")");
}

// The API a gate went over, as the table names it; a run from before the gate named its API
// went over OpenAI chat.
std::string api_cell(const json& gate) {
  const std::string api = gate.value("api", "chat");
  const std::string route = gate.value("route", "/v1/chat/completions");
  if (api == "responses") return "Responses API (" + route + ")";
  if (api == "ollama") return "Ollama (" + route + ")";
  return "OpenAI chat (" + route + ")";
}

ReportTable multimodal_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  const std::string name = string_at(e, {"name"});
  t.title = name.empty() || name == record::to_string(record::ExperimentKind::Gates)
                ? "Multimodal gate"
                : "Multimodal gate (" + name + ")";
  t.header = {"Lane", "API", "Result", "Image", "Video", "Mixed", "All", "Prompt set"};
  for (const auto& lane : lanes) {
    for (const char* key : kMultimodalKeys) {
      const json& gate = json_at(e, {"lanes", lane.c_str(), "gates", key});
      if (!gate.is_object()) continue;
      t.rows.push_back({lane, api_cell(gate), result_cell(gate), kind_cell(gate, "image"),
                        kind_cell(gate, "video"), kind_cell(gate, "mixed"), gate.value("score", ""),
                        gate.value("prompts", "")});
    }
  }
  t.note =
      "Each prompt is sent once with its images and videos at temperature 0 and passes when "
      "every fact check of the prompt holds; n/N per input kind. Multimodal unsupported: the "
      "lane refused media (the server's reason in brackets), which is a result of its own, not "
      "a failed answer. Unsupported by the API: the API cannot carry that kind (the Responses "
      "API and Ollama's /api/chat take no video), so its prompts were not sent and are not in "
      "n/N.";
  return t;
}

}  // namespace

std::vector<ReportTable> multimodal_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  const auto lanes = folder.lane_ids();
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Gates))
    tables.push_back(multimodal_table(*e, lanes));
  return tables;
}

std::vector<std::string> multimodal_caveats(const RunFolder& folder) {
  std::vector<std::string> out;
  const auto lanes = folder.lane_ids();
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Gates)) {
    std::vector<std::string> with, without;
    for (const auto& lane : lanes) {
      // A lane answered media when one of its APIs did; it refused them when every one did.
      std::string answered, refused;
      for (const char* key : kMultimodalKeys) {
        const json& gate = json_at(*e, {"lanes", lane.c_str(), "gates", key});
        if (!gate.is_object()) continue;
        const bool refusal = gate.value("unsupported", "") == kMultimodalUnsupported;
        std::string& slot = refusal ? refused : answered;
        if (slot.empty()) slot = lane + " (" + gate.value("score", "") + ")";
      }
      if (!answered.empty())
        with.push_back(answered);
      else if (!refused.empty())
        without.push_back(refused);
    }
    if (with.empty()) continue;
    for (const auto& lane : without)
      out.push_back("Lane " + lane.substr(0, lane.find(" (")) +
                    " is multimodal unsupported: it refused images and videos, while lane " +
                    with.front() +
                    " answered them. It is not a drop-in replacement for traffic with media.");
  }
  return out;
}

}  // namespace lb::report
