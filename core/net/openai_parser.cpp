#include "core/net/openai_parser.h"

#include "core/logprobs/wire_logprobs.h"

namespace lb::net {

void OpenAiParser::on_json(std::string_view, const nlohmann::json& j, int64_t arrival_ns) {
  if (result_.model.empty()) result_.model = string_at(j, "model");
  Output out;
  timing_token_delta_ = -1;
  if (const auto* choices = find_key(j, "choices"); choices && choices->is_array()) {
    for (const auto& choice : *choices) {
      if (int_at(choice, "index", 0) == 0) read_choice(choice, out);
    }
  }
  int64_t usage_delta = -1;
  if (const auto* usage = find_key(j, "usage")) usage_delta = read_openai_usage(*usage);
  if (const auto* timings = find_key(j, "timings")) read_llamacpp_timings(*timings);
  if (const auto* metrics = find_key(j, "metrics")) read_vllm_metrics(*metrics);
  // llama.cpp's native /completion shape, when a lane points the completions dialect at it.
  if (const auto* probs = find_key(j, "completion_probabilities")) {
    result_.logprobs_seen = true;
    logprobs::append_llamacpp(*probs, result_.logprobs);
  }

  // Role-only and usage-only chunks carry no output. Tool-call fragments do: a stream that only
  // calls a tool still has a first token and an end.
  if (out.content == 0 && out.reasoning == 0 && out.tool_calls == 0) return;
  if (out.tokens < 0 && usage_delta > 0) out.tokens = static_cast<int32_t>(usage_delta);
  // llama.cpp with timings_per_token: predicted_n is cumulative, so its increase is exact.
  if (out.tokens < 0 && timing_token_delta_ > 0)
    out.tokens = static_cast<int32_t>(timing_token_delta_);
  add_event(arrival_ns, out.content, out.reasoning, out.tokens, out.tool_calls);
}

void OpenAiParser::read_choice(const nlohmann::json& choice, Output& out) {
  if (completions_) {
    const std::string_view text = string_at(choice, "text");
    result_.content.append(text);
    out.content += text.size();
  } else if (const auto* delta = find_key(choice, "delta") ? find_key(choice, "delta")
                                                           : find_key(choice, "message")) {
    // "message" is the non-streamed response's whole answer, read like one big delta.
    const std::string_view content = string_at(*delta, "content");
    result_.content.append(content);
    out.content += content.size();
    std::string_view reasoning = string_at(*delta, "reasoning_content");
    if (reasoning.empty()) reasoning = string_at(*delta, "reasoning");
    result_.reasoning.append(reasoning);
    out.reasoning += reasoning.size();
    if (const auto* calls = find_key(*delta, "tool_calls"); calls && calls->is_array()) {
      out.tool_calls += read_tool_calls(*calls);
    }
  }
  if (const std::string_view reason = string_at(choice, "finish_reason"); !reason.empty()) {
    result_.finish_reason = reason;
  }
  const auto* logprobs = find_key(choice, "logprobs");
  int32_t cut_entries = -1;
  const std::string_view cut = logprobs ? cut_value(*logprobs, cut_entries) : std::string_view();
  if (logprobs) {
    result_.logprobs_seen = true;
    if (!cut.empty()) {
      // Read later, off the I/O thread (resolve_logprobs), in arrival order.
      const bool kept =
          result_.logprobs_raw.add(cut, completions_ ? logprobs::RawShape::OpenAiCompletions
                                                     : logprobs::RawShape::OpenAiChat);
      if (!kept && result_.logprobs_error.empty())  // only past a raised max_event_bytes
        result_.logprobs_error = "a logprobs value over 1 GiB was not kept";
    } else if (completions_) {
      logprobs::append_openai_completions(*logprobs, result_.logprobs);
    } else {
      logprobs::append_openai_chat(*logprobs, result_.logprobs);
    }
  }
  if (const auto* ids = find_key(choice, "token_ids"); ids && ids->is_array()) {
    out.tokens = static_cast<int32_t>(ids->size());
  } else if (!cut.empty()) {
    if (cut_entries >= 0) out.tokens = cut_entries;
  } else if (logprobs) {
    // chat: logprobs.content[] per token; completions: logprobs.tokens[]
    const auto* per_token = find_key(*logprobs, completions_ ? "tokens" : "content");
    if (per_token && per_token->is_array()) out.tokens = static_cast<int32_t>(per_token->size());
  }
}

size_t OpenAiParser::read_tool_calls(const nlohmann::json& calls) {
  size_t bytes = 0;
  int64_t position = 0;
  for (const auto& fragment : calls) {
    // Streamed fragments say their index; a non-streamed message lists whole calls in order.
    ToolCall& call = tool_call(static_cast<int>(int_at(fragment, "index", position++)));
    if (call.id.empty()) call.id = string_at(fragment, "id");
    if (const auto* function = find_key(fragment, "function")) {
      const std::string_view name = string_at(*function, "name");
      if (call.name.empty() && !name.empty()) {
        call.name = name;
        bytes += name.size();
      }
      const nlohmann::json* args = find_key(*function, "arguments");
      if (args && args->is_string()) {
        call.arguments += args->get_ref<const std::string&>();
        bytes += args->get_ref<const std::string&>().size();
      } else if (args && args->is_object()) {  // Ollama sends arguments as an object
        const std::string dumped = args->dump();
        call.arguments += dumped;
        bytes += dumped.size();
      }
    }
  }
  return bytes;
}

void OpenAiParser::read_llamacpp_timings(const nlohmann::json& timings) {
  result_.server_timings = timings;  // cumulative: the last one seen is the whole request's
  if (const int64_t predicted = int_at(timings, "predicted_n"); predicted >= 0) {
    timing_token_delta_ = predicted - last_predicted_n_;
    last_predicted_n_ = predicted;
  }
  const int64_t cache_n = int_at(timings, "cache_n");
  if (cache_n >= 0 && !cached_from_usage_) result_.usage.cached_tokens = cache_n;
}

void OpenAiParser::read_vllm_metrics(const nlohmann::json& metrics) {
  const auto* spec = find_key(metrics, "speculative_decoding");
  if (!spec) return;
  SpecDecodeUsage& s = result_.spec;
  s.num_drafts = int_at(*spec, "num_spec_steps", s.num_drafts);
  s.num_draft_tokens = int_at(*spec, "num_draft_tokens", s.num_draft_tokens);
  s.num_accepted_tokens = int_at(*spec, "num_accepted_draft_tokens", s.num_accepted_tokens);
  // acceptance_histogram[k] = verification steps that accepted exactly k draft tokens, so the
  // draft at position p (1-based) was accepted in every step that accepted >= p tokens.
  if (const auto* hist = find_key(*spec, "acceptance_histogram"); hist && hist->is_array()) {
    s.accepted_per_position.assign(hist->size() > 0 ? hist->size() - 1 : 0, 0);
    for (size_t k = 1; k < hist->size(); ++k) {
      const int64_t steps = to_int64((*hist)[k], 0);
      for (size_t p = 0; p < k; ++p) s.accepted_per_position[p] += steps;
    }
  }
  if (result_.server_timings.is_null()) result_.server_timings = nlohmann::json::object();
  result_.server_timings["speculative_decoding"] = *spec;
}

}  // namespace lb::net
