#include "run/multimodal_gate.h"

#include <map>

#include "compare/fact_check.h"

namespace lb::run {
namespace {

using nlohmann::json;

struct KindScore {
  int64_t passed = 0;
  int64_t total = 0;
};

std::string score_text(int64_t passed, int64_t total) {
  return std::to_string(passed) + "/" + std::to_string(total);
}

// Why the answer misses its facts; empty when every check passes.
std::string missed_facts(const plan::PromptSpec& prompt, const std::string& answer) {
  std::string why;
  for (const auto& result : compare::run_checks(prompt.checks, answer)) {
    if (result.status == compare::CheckStatus::Pass) continue;
    if (!why.empty()) why += "; ";
    why += plan::describe_check(prompt.checks[result.check_index]) +
           (result.detail.empty() ? "" : " (" + result.detail + ")");
  }
  return why;
}

json kinds_json(const std::map<std::string, KindScore>& kinds) {
  json out = json::object();
  for (const auto& [kind, s] : kinds)
    out[kind] = {
        {"passed", s.passed}, {"total", s.total}, {"score", score_text(s.passed, s.total)}};
  return out;
}

}  // namespace

std::string multimodal_kind(const plan::PromptSpec& prompt) {
  for (const char* kind : {"image", "video", "mixed"})
    if (prompt.category == kind) return kind;
  bool images = false, videos = false;
  for (const auto& m : prompt.media) (m.kind == plan::MediaKind::Video ? videos : images) = true;
  if (images && videos) return "mixed";
  if (videos) return "video";
  return images ? "image" : "text";
}

json run_multimodal_gate(ExperimentContext& ctx, GateIo& io, const plan::PromptSet& set) {
  std::map<std::string, KindScore> kinds;
  json failures = json::array();
  int64_t passed = 0, attempts = 0;
  const auto total = static_cast<int64_t>(set.prompts.size());
  for (const auto& prompt : set.prompts) {
    if (ctx.stopped()) break;
    const std::string kind = multimodal_kind(prompt);
    const net::StreamResult r = io.post_prompt(prompt);
    const bool call_ok = r.error == net::ErrorKind::None && r.http_status == 200;
    if (!call_ok && r.error != net::ErrorKind::Refused && says_media_unsupported(r)) {
      return {{"status", "unsupported"},
              {"unsupported", kMultimodalUnsupported},
              {"why", r.error_message},  // "HTTP 400: <the server's message>"
              {"passed", 0},
              {"attempts", attempts + 1},
              {"repeat", total},
              {"score", score_text(0, total)},
              {"prompts", set.name}};
    }
    ++attempts;
    ++kinds[kind].total;
    std::string why = call_ok ? missed_facts(prompt, r.content)
                              : std::string(net::to_string(r.error)) + ": " + r.error_message;
    if (why.empty()) {
      ++passed;
      ++kinds[kind].passed;
    } else {
      failures.push_back({{"id", prompt.id}, {"kind", kind}, {"why", std::move(why)}});
    }
  }
  json j = {{"status", passed == total && total > 0 ? "pass" : "fail"},
            {"passed", passed},
            {"attempts", attempts},
            {"repeat", total},
            {"score", score_text(passed, total)},
            {"kinds", kinds_json(kinds)},
            {"prompts", set.name}};
  if (!failures.empty()) j["failures"] = std::move(failures);
  return j;
}

}  // namespace lb::run
