#pragma once
// What a multimodal gate check records beyond any gate's status and score (summary.json
// lanes.LANE.gates["multimodal"], docs/metrics.md): the API it went over, n/N per input kind, and
// whether the lane refused media. The engine fills it and to_json writes it; read tolerantly: a
// member of another type reads as absent, never a throw.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct MultimodalKindScore {
  std::string score;               // "9/10", or "unsupported by the API"
  int64_t passed = 0;              // prompts of the kind whose answer had its facts
  int64_t total = 0;               // prompts of the kind that were sent
  int64_t unsupported_by_api = 0;  // prompts the API could not carry, not sent
};

// A prompt of the check: one whose answer missed its facts, or one the API could not carry.
struct MultimodalPromptRecord {
  std::string id;
  std::string kind;  // "image", "video", "mixed", "text"
  std::string why;
};

struct MultimodalGateRecord {
  // The API as written: "chat", "responses" or "ollama"; a run from before the gate named its
  // API went over OpenAI chat.
  std::string api = "chat";
  std::string route = "/v1/chat/completions";
  std::string unsupported;  // "multimodal unsupported" when the lane refused media
  std::string prompts;      // the prompt set's name
  std::map<std::string, MultimodalKindScore> kinds;  // "image", "video", "mixed"
  std::vector<MultimodalPromptRecord> not_sent;      // prompts the API could not carry
};

// A multimodal gate's members beyond the common ones (GateResult::more).
MultimodalGateRecord read_multimodal_gate(const nlohmann::json& more);
// Those members as written: the kinds when any prompt was scored or the lane did not refuse
// media, the prompts not sent and their count when there are any.
nlohmann::json to_json(const MultimodalGateRecord& gate);

}  // namespace lb::record
