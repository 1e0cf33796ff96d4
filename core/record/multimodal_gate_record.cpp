#include "core/record/multimodal_gate_record.h"

#include "core/record/json_member.h"

namespace lb::record {

MultimodalGateRecord read_multimodal_gate(const nlohmann::json& more) {
  MultimodalGateRecord r;
  if (const std::string api = member_text(more, "api"); !api.empty()) r.api = api;
  if (const std::string route = member_text(more, "route"); !route.empty()) r.route = route;
  r.unsupported = member_text(more, "unsupported");
  r.prompts = member_text(more, "prompts");
  const nlohmann::json& kinds = member(more, "kinds");
  if (kinds.is_object())
    for (const auto& [kind, k] : kinds.items())
      if (k.is_object())
        r.kinds[kind] = {member_text(k, "score"), member_count(k, "passed"),
                         member_count(k, "total"), member_count(k, "unsupported_by_api")};
  const nlohmann::json& not_sent = member(more, "not_sent_prompts");
  if (not_sent.is_array())
    for (const nlohmann::json& p : not_sent)
      r.not_sent.push_back({member_text(p, "id"), member_text(p, "kind"), member_text(p, "why")});
  return r;
}

nlohmann::json to_json(const MultimodalGateRecord& gate) {
  nlohmann::json j = {{"api", gate.api}, {"route", gate.route}, {"prompts", gate.prompts}};
  if (!gate.unsupported.empty()) j["unsupported"] = gate.unsupported;
  if (!gate.kinds.empty() || gate.unsupported.empty()) {
    nlohmann::json kinds = nlohmann::json::object();
    for (const auto& [kind, k] : gate.kinds) {
      kinds[kind] = {{"passed", k.passed}, {"total", k.total}, {"score", k.score}};
      if (k.unsupported_by_api > 0) kinds[kind]["unsupported_by_api"] = k.unsupported_by_api;
    }
    j["kinds"] = std::move(kinds);
  }
  if (!gate.not_sent.empty()) {
    nlohmann::json prompts = nlohmann::json::array();
    for (const MultimodalPromptRecord& p : gate.not_sent)
      prompts.push_back({{"id", p.id}, {"kind", p.kind}, {"why", p.why}});
    j["not_sent"] = gate.not_sent.size();
    j["not_sent_prompts"] = std::move(prompts);
  }
  return j;
}

}  // namespace lb::record
