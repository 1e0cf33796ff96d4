#include "core/record/context_size.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

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
    r.needle_depth = member_number(row, "needle_depth");
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json to_json(const ContextSizeRecord& r) {
  nlohmann::json j = {{"status", r.status}, {"target_tokens", count_or_null(r.target_tokens)}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (!r.measured()) return j;
  j["sized_tokens"] = labelled(count_or_null(r.sized_tokens), r.sized_provenance.c_str());
  j["prompt_tokens"] = count_or_null(r.prompt_tokens);
  j["completed"] = count_or_null(r.completed);
  j["ttft_ms"] = number_or_null(r.ttft_ms);
  j["effective_prefill_tok_s"] = number_or_null(r.effective_prefill_tok_s);
  j["decode_tok_s"] = number_or_null(r.decode_tok_s);
  j["e2el_ms"] = number_or_null(r.e2el_ms);
  if (std::isfinite(r.needle_depth)) j["needle_depth"] = r.needle_depth;
  if (r.retrieval_pass) {
    j["retrieval_pass"] = *r.retrieval_pass;
    j["retrieval_passed"] = count_or_null(r.retrieval_passed);
    j["retrieval_attempts"] = count_or_null(r.retrieval_attempts);
  }
  return j;
}

nlohmann::json to_json(const std::vector<ContextSizeRecord>& sizes) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ContextSizeRecord& size : sizes) rows.push_back(to_json(size));
  return rows;
}

}  // namespace lb::record
