// The report's multimodal gate table: per lane and API (OpenAI chat, Responses, Ollama's
// /api/chat), its result and n/N per input kind (image, video, mixed), so a lane that answers
// images but not videos shows it, a kind the API cannot carry reads "unsupported by the API", and
// a lane that refused media reads "multimodal unsupported" with the server's reason.
#include "core/record/experiment_kind.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using record::GateResult;

// As the run layer records a lane that refused media (core/run/experiments/multimodal_gate.h).
constexpr const char* kMultimodalUnsupported = "multimodal unsupported";

// The gate's results per API: the lane's chat API (OpenAI chat or Ollama's), then Responses.
constexpr const char* kMultimodalKeys[] = {"multimodal", "multimodal (responses)"};

// "9/10"; "5/5 (5 unsupported by the API)" when the API could not carry some of the kind's
// prompts; "unsupported by the API" when it could carry none.
std::string kind_cell(const record::MultimodalGateRecord& gate, const char* kind) {
  const auto k = gate.kinds.find(kind);
  if (k == gate.kinds.end()) return "";
  const record::MultimodalKindScore& score = k->second;
  if (score.unsupported_by_api == 0 || score.total == 0) return score.score;
  return score.score + " (" + std::to_string(score.unsupported_by_api) + " unsupported by the API)";
}

std::string result_cell(const GateResult& gate, const record::MultimodalGateRecord& multimodal) {
  if (gate.status != record::GateStatus::Unsupported) return record::to_string(gate.status);
  const std::string what = multimodal.unsupported.empty() ? "unsupported" : multimodal.unsupported;
  return what + (gate.why.empty() ? "" : " (" + gate.why + ")");
}

// The API a gate went over, as the table names it.
std::string api_cell(const record::MultimodalGateRecord& gate) {
  if (gate.api == "responses") return "Responses API (" + gate.route + ")";
  if (gate.api == "ollama") return "Ollama (" + gate.route + ")";
  return "OpenAI chat (" + gate.route + ")";
}

// The lane's multimodal checks, one per API it ran them over.
std::vector<const GateResult*> multimodal_gates(const record::ExperimentSection& e,
                                                const std::string& lane) {
  std::vector<const GateResult*> out;
  if (const record::LaneRecord* l = e.lane(lane))
    for (const char* key : kMultimodalKeys)
      if (const GateResult* gate = l->gate(key)) out.push_back(gate);
  return out;
}

ReportTable multimodal_table(const record::ExperimentSection& e,
                             const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = e.name.empty() || e.name == record::to_string(record::ExperimentKind::Gates)
                ? "Multimodal gate"
                : "Multimodal gate (" + e.name + ")";
  t.header = {"Lane", "API", "Result", "Image", "Video", "Mixed", "All", "Prompt set"};
  for (const auto& lane : lanes)
    for (const GateResult* gate : multimodal_gates(e, lane)) {
      const record::MultimodalGateRecord m = gate->multimodal();
      t.rows.push_back({lane, api_cell(m), result_cell(*gate, m), kind_cell(m, "image"),
                        kind_cell(m, "video"), kind_cell(m, "mixed"), gate->score, m.prompts});
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
  for (const record::ExperimentSection* e : folder.record.of_kind(record::ExperimentKind::Gates))
    tables.push_back(multimodal_table(*e, lanes));
  return tables;
}

std::vector<std::string> multimodal_caveats(const RunFolder& folder) {
  std::vector<std::string> out;
  const auto lanes = folder.lane_ids();
  for (const record::ExperimentSection* e : folder.record.of_kind(record::ExperimentKind::Gates)) {
    std::vector<std::string> with, without;
    for (const auto& lane : lanes) {
      // A lane answered media when one of its APIs did; it refused them when every one did.
      std::string answered, refused;
      for (const GateResult* gate : multimodal_gates(*e, lane)) {
        const bool refusal = gate->multimodal().unsupported == kMultimodalUnsupported;
        std::string& slot = refusal ? refused : answered;
        if (slot.empty()) slot = lane + " (" + gate->score + ")";
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
