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
        r.kinds[kind] = {member_text(k, "score"), member_count(k, "total"),
                         member_count(k, "unsupported_by_api")};
  return r;
}

}  // namespace lb::record
