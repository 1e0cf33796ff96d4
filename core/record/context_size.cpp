#include "core/record/context_size.h"

#include "core/record/json_member.h"

namespace lb::record {

std::vector<ContextSizeRecord> read_context_sweep(const nlohmann::json& rows) {
  std::vector<ContextSizeRecord> out;
  if (!rows.is_array()) return out;
  for (const nlohmann::json& row : rows) {
    if (!row.is_object()) continue;
    ContextSizeRecord r;
    r.status = member_text(row, "status");
    r.reason = member_text(row, "reason");
    r.target_tokens = member_number(row, "target_tokens");
    const nlohmann::json& sized = member(row, "sized_tokens");  // {"value": n, "provenance": p}
    r.sized_tokens = member_figure(row, "sized_tokens");
    r.sized_provenance = member_text(sized, "provenance");
    r.prompt_tokens = member_number(row, "prompt_tokens");
    r.completed = member_number(row, "completed");
    r.ttft_ms = member_number(row, "ttft_ms");
    r.effective_prefill_tok_s = member_number(row, "effective_prefill_tok_s");
    r.decode_tok_s = member_number(row, "decode_tok_s");
    r.e2el_ms = member_number(row, "e2el_ms");
    if (const nlohmann::json& pass = member(row, "retrieval_pass"); pass.is_boolean())
      r.retrieval_pass = pass.get<bool>();
    r.retrieval_passed = member_number(row, "retrieval_passed");
    r.retrieval_attempts = member_number(row, "retrieval_attempts");
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace lb::record
