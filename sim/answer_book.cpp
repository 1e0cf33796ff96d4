#include "answer_book.h"

#include <sstream>

#include "builtin_answers.h"
#include "media_answer.h"
#include "sampled_answer.h"
#include "schema_instance.h"
#include "text_filler.h"
#include "tokenizer.h"

namespace lb::sim {
namespace {

using nlohmann::json;

int64_t reasoning_tokens_for(const std::string& effort) {
  if (effort == "low") return 24;
  if (effort == "medium") return 96;
  if (effort == "high") return 320;
  return 0;
}

std::string tool_call_id(uint64_t seed, size_t index) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "chatcmpl-tool-%016llx%02zx",
                static_cast<unsigned long long>(seed), index);
  return buf;
}

AnswerPlan tool_followup(const GenRequest& request) {
  std::vector<std::string> results;
  for (auto it = request.messages.rbegin(); it != request.messages.rend() && it->role == "tool";
       ++it) {
    results.insert(results.begin(), it->text.substr(0, 240));
  }
  AnswerPlan plan;
  plan.content = "Based on the tool result";
  plan.content += results.size() > 1 ? "s: " : ": ";
  for (size_t i = 0; i < results.size(); ++i) {
    plan.content += (i ? "; " : "") + results[i];
  }
  plan.content += ". That answers the question.";
  return plan;
}

AnswerPlan tool_calls(const GenRequest& request, uint64_t seed) {
  const std::string user = last_user_text(request);
  std::vector<std::string> hints = proper_nouns(user);
  std::vector<const ToolSpec*> chosen;
  for (const auto& tool : request.tools) {
    if (request.tool_choice == tool.name) chosen = {&tool};
  }
  if (chosen.empty()) {
    for (const auto& tool : request.tools) chosen.push_back(&tool);
    if (!request.parallel_tool_calls) chosen.resize(1);
  }
  AnswerPlan plan;
  // One tool and several places named: call it once per place (a parallel call).
  const size_t per_tool = (chosen.size() == 1 && request.parallel_tool_calls)
                              ? std::clamp<size_t>(hints.size(), 1, 3)
                              : 1;
  for (const ToolSpec* tool : chosen) {
    for (size_t k = 0; k < per_tool && plan.tool_calls.size() < 4; ++k) {
      std::vector<std::string> h(hints.begin() + static_cast<long>(std::min(k, hints.size())),
                                 hints.end());
      json args = schema_instance(tool->parameters, h);
      plan.tool_calls.push_back(
          {tool_call_id(seed, plan.tool_calls.size()), tool->name, args.dump()});
    }
  }
  return plan;
}

AnswerPlan structured(const GenRequest& request, const ReferenceAnswer* ref) {
  AnswerPlan plan;
  if (request.json_schema) {
    plan.content =
        schema_instance(*request.json_schema, proper_nouns(last_user_text(request))).dump();
  } else if (ref && json::accept(ref->answer)) {
    plan.content = ref->answer;
  } else {
    plan.content = json{{"answer", filler_text(fnv1a64(last_user_text(request)), 12)}}.dump();
  }
  return plan;
}

}  // namespace

AnswerBook AnswerBook::from_jsonl(const std::string& prompts_jsonl,
                                  const std::string& answers_jsonl) {
  std::map<std::string, std::string> prompt_by_id;
  std::istringstream prompts(prompts_jsonl);
  for (std::string line; std::getline(prompts, line);) {
    json j = json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("id") && j.contains("prompt") && j["prompt"].is_string()) {
      prompt_by_id[j["id"]] = j["prompt"];
    }
  }
  AnswerBook book;
  std::istringstream answers(answers_jsonl);
  for (std::string line; std::getline(answers, line);) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("id")) continue;
    auto it = prompt_by_id.find(j["id"].get<std::string>());
    if (it == prompt_by_id.end()) continue;
    ReferenceAnswer ref;
    ref.id = it->first;
    ref.answer = j.value("answer", "");
    ref.drift = j.value("drift", ref.answer);
    ref.flipped = j.value("flipped", ref.drift);
    book.by_prompt_[it->second] = std::move(ref);
  }
  return book;
}

const AnswerBook& AnswerBook::builtin() {
  static const AnswerBook book = from_jsonl(std::string(builtin_regression_prompts()),
                                            std::string(builtin_regression_answers()));
  return book;
}

const ReferenceAnswer* AnswerBook::find(const std::string& prompt_text) const {
  auto it = by_prompt_.find(prompt_text);
  return it == by_prompt_.end() ? nullptr : &it->second;
}

DriftKind AnswerBook::drift_kind(const std::string& id, const AnswerContext& context) {
  if (context.weights_dtype != "fp8") return DriftKind::Identical;
  const uint64_t bucket = fnv1a64(id, context.seed) % 100;
  if (bucket < 55) return DriftKind::Identical;
  if (bucket >= 80 && context.flip_facts) return DriftKind::FlippedFact;
  return DriftKind::Wording;
}

double batch_flip_probability(double variance, int batch) {
  if (variance <= 0 || batch <= 1) return 0.0;
  return variance * (1.0 - 1.0 / static_cast<double>(batch));
}

bool AnswerBook::batch_flips(const std::string& id, const AnswerContext& context) {
  if (context.batch_flip <= 0) return false;
  const double u = static_cast<double>(fnv1a64(id + "#batch", context.seed) % 1'000'000) / 1e6;
  return u < context.batch_flip;
}

bool AnswerBook::cache_flips(const std::string& id, const AnswerContext& context) {
  if (context.cache_flip <= 0) return false;
  const double u = static_cast<double>(fnv1a64(id + "#cache", context.seed) % 1'000'000) / 1e6;
  return u < context.cache_flip;
}

// An answer read from the media's pixels, under the same FP8 drift model as the reference
// answers: a lane's drift kind for the item (question + media) picks the exact answer, a
// rewording, or (only with flip_facts) the answer with one fact changed.
static AnswerPlan media_plan(const GenRequest& request, const std::string& user,
                             const AnswerContext& context) {
  AnswerPlan plan;
  const MediaAnswer seen = answer_from_media(user, request.media);
  if (!seen.asked) {
    plan.content = describe_media(request.media);
    return plan;
  }
  std::string id = "media:" + user;
  for (const auto& m : request.media) id += ":" + std::to_string(m.content_hash);
  const std::string reworded = "Answer: " + seen.text;
  plan.reference = seen.text;
  plan.near_tie_variant = reworded;
  plan.confident_variant = seen.flipped;
  const DriftKind kind = AnswerBook::drift_kind(id, context);
  plan.content = kind == DriftKind::Identical ? seen.text
                 : kind == DriftKind::Wording ? reworded
                                              : seen.flipped;
  return plan;
}

AnswerPlan AnswerBook::answer(const GenRequest& request, const AnswerContext& context) const {
  const std::string user = last_user_text(request);
  const uint64_t seed = fnv1a64(user, context.seed);
  const ReferenceAnswer* ref = find(user);
  AnswerPlan plan;
  const bool tools_on = !request.tools.empty() && request.tool_choice != "none";
  if (!request.messages.empty() && request.messages.back().role == "tool") {
    plan = tool_followup(request);
  } else if (tools_on) {
    plan = tool_calls(request, seed);
  } else if (request.json_schema || request.json_object) {
    plan = structured(request, ref);
  } else if (!request.media.empty()) {
    plan = media_plan(request, user, context);
  } else if (NeedleAnswer needle = answer_needle(request, context.retrieval_window_tokens);
             needle.asked) {
    plan.content = needle.text;
  } else if (ref) {
    plan.reference = ref->answer;
    if (ref->drift != ref->answer) plan.near_tie_variant = ref->drift;
    if (ref->flipped != ref->drift && ref->flipped != ref->answer)
      plan.confident_variant = ref->flipped;
    DriftKind kind = drift_kind(ref->id, context);
    // Batching, or prefilling only the uncached suffix, moves the numerics enough to resolve
    // the near-tie the other way.
    if (!plan.near_tie_variant.empty() && kind != DriftKind::FlippedFact &&
        (batch_flips(ref->id, context) || cache_flips(ref->id, context)))
      kind = kind == DriftKind::Identical ? DriftKind::Wording : DriftKind::Identical;
    if (context.temperature > 0) {
      plan.content =
          sampled_reference(*ref, kind, {context.temperature, context.top_p, context.sample_seed});
    } else {
      plan.content = kind == DriftKind::Identical ? ref->answer
                     : kind == DriftKind::Wording ? ref->drift
                                                  : ref->flipped;
    }
  } else {
    plan.natural_stop = request.max_tokens.has_value() || request.ignore_eos ? false : true;
    plan.content = filler_text(seed, request.max_tokens.value_or(200));
    const bool drifts = seed % 100 >= 60;
    if (context.variants) {
      plan.reference = plan.content;
      if (drifts) plan.near_tie_variant = drift_wording(plan.content, seed);
    }
    if (context.weights_dtype == "fp8" && drifts) {
      plan.content = context.variants ? plan.near_tie_variant : drift_wording(plan.content, seed);
    }
    if (context.temperature > 0)
      plan.content =
          sampled_filler(plan.content, {context.temperature, context.top_p, context.sample_seed});
  }
  if (context.variants && plan.reference.empty()) plan.reference = plan.content;
  const int64_t reasoning = reasoning_tokens_for(request.reasoning_effort);
  if (reasoning > 0) plan.reasoning = reasoning_text(seed, user, reasoning);
  return plan;
}

}  // namespace lb::sim
