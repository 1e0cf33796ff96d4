#include "core/run/experiments/multimodal_gate.h"

#include <map>

#include "core/compare/fact_check.h"

namespace lb::run {
namespace {

using nlohmann::json;

struct KindScore {
  int64_t passed = 0;
  int64_t total = 0;
  int64_t not_sent = 0;  // the API cannot carry the prompt's media
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
  for (const auto& [kind, s] : kinds) {
    json k = {{"passed", s.passed},
              {"total", s.total},
              {"score", s.total == 0 && s.not_sent > 0 ? std::string(kUnsupportedByApi)
                                                       : score_text(s.passed, s.total)}};
    if (s.not_sent > 0) k["unsupported_by_api"] = s.not_sent;
    out[kind] = std::move(k);
  }
  return out;
}

struct Tally {
  std::map<std::string, KindScore> kinds;
  json failures = json::array();
  json not_sent = json::array();
  int64_t passed = 0, attempts = 0;
};

json result_json(const Tally& t, int64_t total, MediaApi api, const plan::PromptSet& set) {
  const char* status = t.passed == total && total > 0 ? "pass" : "fail";
  json j = {{"status", status},
            {"api", to_string(api)},
            {"route", media_api_route(api)},
            {"passed", t.passed},
            {"attempts", t.attempts},
            {"repeat", total},
            {"score", score_text(t.passed, total)},
            {"kinds", kinds_json(t.kinds)},
            {"prompts", set.name}};
  if (!t.failures.empty()) j["failures"] = t.failures;
  if (!t.not_sent.empty()) {
    j["not_sent"] = t.not_sent.size();
    j["not_sent_prompts"] = t.not_sent;
  }
  if (total == 0 && !t.not_sent.empty()) {
    j["status"] = "unsupported";
    j["unsupported"] = kUnsupportedByApi;
    j["why"] = t.not_sent[0]["why"];
  }
  return j;
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

std::vector<MediaApi> multimodal_apis(const LaneRuntime& lane, const std::string& multimodal_api,
                                      bool responses_passed) {
  if (lane.probe.kind == ServerKind::Ollama) return {MediaApi::Ollama};
  if (multimodal_api == "responses") return {MediaApi::Responses};
  if (multimodal_api == "both") return {MediaApi::Chat, MediaApi::Responses};
  if (responses_passed) return {MediaApi::Chat, MediaApi::Responses};
  return {MediaApi::Chat};
}

std::string multimodal_gate_key(MediaApi api) {
  return api == MediaApi::Responses ? "multimodal (responses)" : "multimodal";
}

json run_multimodal_gate(ExperimentContext& ctx, GateIo& io, const plan::PromptSet& set,
                         MediaApi api) {
  Tally t;
  std::vector<const plan::PromptSpec*> sendable;
  for (const auto& prompt : set.prompts) {
    if (std::string why = media_api_refusal(api, prompt); !why.empty()) {
      const std::string kind = multimodal_kind(prompt);
      ++t.kinds[kind].not_sent;
      t.not_sent.push_back({{"id", prompt.id}, {"kind", kind}, {"why", std::move(why)}});
    } else {
      sendable.push_back(&prompt);
    }
  }
  const auto total = static_cast<int64_t>(sendable.size());
  for (const plan::PromptSpec* p : sendable) {
    if (ctx.stopped()) break;
    const plan::PromptSpec& prompt = *p;
    const std::string kind = multimodal_kind(prompt);
    const net::StreamResult r = io.post_prompt(prompt, api);
    const bool call_ok = r.error == net::ErrorKind::None && r.http_status == 200;
    if (!call_ok && ctx.stopped()) break;  // cut short by Stop: nothing said about the lane
    if (!call_ok && r.error != net::ErrorKind::Refused && says_media_unsupported(r)) {
      return {{"status", "unsupported"},
              {"unsupported", kMultimodalUnsupported},
              {"why", r.error_message},  // "HTTP 400: <the server's message>"
              {"api", to_string(api)},
              {"route", media_api_route(api)},
              {"passed", 0},
              {"attempts", t.attempts + 1},
              {"repeat", total},
              {"score", score_text(0, total)},
              {"prompts", set.name}};
    }
    ++t.attempts;
    ++t.kinds[kind].total;
    std::string why = call_ok ? missed_facts(prompt, r.content)
                              : std::string(net::to_string(r.error)) + ": " + r.error_message;
    if (why.empty()) {
      ++t.passed;
      ++t.kinds[kind].passed;
    } else {
      t.failures.push_back({{"id", prompt.id}, {"kind", kind}, {"why", std::move(why)}});
    }
  }
  json j = result_json(t, total, api, set);
  if (ctx.stopped() && t.attempts < total && t.failures.empty()) {
    j["status"] = "stopped";
    j["why"] = "stopped by the user after " + std::to_string(t.attempts) + " of " +
               std::to_string(total) + " prompt(s)";
  }
  return j;
}

}  // namespace lb::run
