#pragma once
// A printable summary of everything a StreamResult says about a stream except the timestamps,
// so two parses of the same bytes (split differently) can be compared with one QCOMPARE.
#include <string>

#include "core/net/http_types.h"
#include "core/net/stream_parser.h"

namespace lb::net::testing {

inline std::string fingerprint(const StreamResult& r) {
  std::string s = "error=" + std::string(to_string(r.error)) + " msg=" + r.error_message;
  s += "\ncontent=" + r.content + "\nreasoning=" + r.reasoning + "\nfinish=" + r.finish_reason;
  s += "\nmodel=" + r.model + "\ntotal_events=" + std::to_string(r.total_events);
  s += "\nevents=";
  for (const auto& e : r.events) {
    s += "[" + std::to_string(e.content_bytes) + "," + std::to_string(e.reasoning_bytes) + "," +
         std::to_string(e.tokens) + "]";
  }
  for (const auto& t : r.tool_calls) {
    s += "\ntool " + std::to_string(t.index) + " id=" + t.id + " name=" + t.name +
         " args=" + t.arguments;
  }
  const Usage& u = r.usage;
  s += "\nusage=" + std::to_string(u.prompt_tokens) + "/" + std::to_string(u.completion_tokens) +
       " cached=" + std::to_string(u.cached_tokens) +
       " reasoning=" + std::to_string(u.reasoning_tokens);
  s += "\nspec=" + std::to_string(r.spec.num_drafts) + "/" +
       std::to_string(r.spec.num_draft_tokens) + "/" + std::to_string(r.spec.num_accepted_tokens) +
       " per_pos=";
  for (auto v : r.spec.accepted_per_position) s += std::to_string(v) + ",";
  s += "\ntimings=" + r.server_timings.dump();
  s += "\nlogprobs" + std::string(r.logprobs_seen ? "+" : "-") + "=";
  std::string logprobs_error;
  for (const auto& t : lb::net::resolved_logprobs(r, &logprobs_error)) {
    s += "[" + t.token + "|" + std::to_string(t.logprob) + "|" + std::to_string(t.id) + "|" +
         std::to_string(t.flags);
    for (const auto& a : t.top) s += "," + a.token + ":" + std::to_string(a.logprob);
    s += "]";
  }
  if (!logprobs_error.empty()) s += "\nlogprobs_error=" + logprobs_error;
  return s;
}

}  // namespace lb::net::testing
