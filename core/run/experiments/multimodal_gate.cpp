#include "core/run/experiments/multimodal_gate.h"

#include <map>

#include "core/compare/fact_check.h"

namespace lb::run {
namespace {

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

record::MultimodalGateRecord gate_over(MediaApi api, const plan::PromptSet& set) {
  record::MultimodalGateRecord gate;
  gate.api = to_string(api);
  gate.route = media_api_route(api);
  gate.prompts = set.name;
  return gate;
}

struct Tally {
  record::MultimodalGateRecord gate;  // kinds and prompts not sent
  std::vector<record::GateFailure> failures;
  int64_t passed = 0, attempts = 0;
};

record::GateResult result_of(Tally t, int64_t total) {
  record::GateResult g;
  g.status = t.passed == total && total > 0 ? record::GateStatus::Pass : record::GateStatus::Fail;
  g.passed = t.passed;
  g.attempts = t.attempts;
  g.repeat = total;
  g.score = score_text(t.passed, total);
  g.failures = std::move(t.failures);
  for (auto& [kind, k] : t.gate.kinds)
    k.score = k.total == 0 && k.unsupported_by_api > 0 ? std::string(kUnsupportedByApi)
                                                       : score_text(k.passed, k.total);
  if (total == 0 && !t.gate.not_sent.empty()) {
    g.status = record::GateStatus::Unsupported;
    t.gate.unsupported = kUnsupportedByApi;
    g.why = t.gate.not_sent[0].why;
  }
  g.more = record::to_json(t.gate);
  return g;
}

// The lane's server refused the media (WHY, "HTTP 400: <the server's message>") after ATTEMPTS
// prompts: the lane does not take images or videos at all.
record::GateResult refused(MediaApi api, const plan::PromptSet& set, std::string why,
                           int64_t attempts, int64_t total) {
  record::GateResult g;
  g.status = record::GateStatus::Unsupported;
  g.why = std::move(why);
  g.attempts = attempts;
  g.repeat = total;
  g.score = score_text(0, total);
  record::MultimodalGateRecord gate = gate_over(api, set);
  gate.unsupported = kMultimodalUnsupported;
  g.more = record::to_json(gate);
  return g;
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

record::GateResult run_multimodal_gate(ExperimentContext& ctx, GateIo& io,
                                       const plan::PromptSet& set, MediaApi api) {
  Tally t;
  t.gate = gate_over(api, set);
  std::vector<const plan::PromptSpec*> sendable;
  for (const auto& prompt : set.prompts) {
    if (std::string why = media_api_refusal(api, prompt); !why.empty()) {
      const std::string kind = multimodal_kind(prompt);
      ++t.gate.kinds[kind].unsupported_by_api;
      t.gate.not_sent.push_back({prompt.id, kind, std::move(why)});
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
    if (!call_ok && r.error != net::ErrorKind::Refused && says_media_unsupported(r))
      return refused(api, set, r.error_message, t.attempts + 1, total);
    ++t.attempts;
    ++t.gate.kinds[kind].total;
    std::string why = call_ok ? missed_facts(prompt, r.content)
                              : std::string(net::to_string(r.error)) + ": " + r.error_message;
    if (why.empty()) {
      ++t.passed;
      ++t.gate.kinds[kind].passed;
    } else {
      record::GateFailure failure;
      failure.why = std::move(why);
      failure.more = {{"id", prompt.id}, {"kind", kind}};
      t.failures.push_back(std::move(failure));
    }
  }
  const bool stopped = ctx.stopped() && t.attempts < total && t.failures.empty();
  const int64_t attempts = t.attempts;
  record::GateResult g = result_of(std::move(t), total);
  if (stopped) {
    g.status = record::GateStatus::Stopped;
    g.why = "stopped by the user after " + std::to_string(attempts) + " of " +
            std::to_string(total) + " prompt(s)";
  }
  return g;
}

}  // namespace lb::run
