#pragma once
// OutputScript: an answer cut into the tokens the engine will "generate", each tagged with the
// channel it belongs to (reasoning, content, a tool call's header or arguments). The engine
// decides how many tokens each event carries; OutputDelta gathers those tokens for the wire.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lb::sim {

struct PlannedToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text
};

struct AnswerPlan {
  std::string reasoning;
  std::string content;
  std::vector<PlannedToolCall> tool_calls;
  bool natural_stop = true;  // false: the text is filler that runs to max_tokens ("length")
  // What the unperturbed (BF16) model says, and the variants the FP8 drift model may pick: a
  // near-tie rewording and a confident fact change (empty = none). Drive the logprobs.
  std::string reference;
  std::string near_tie_variant;
  std::string confident_variant;
};

enum class Channel { Reasoning, Content, ToolHeader, ToolArguments };

struct ScriptToken {
  Channel channel = Channel::Content;
  int tool_index = -1;
  std::string text;  // for ToolHeader: the function name (one token per call header)
};

struct ToolFragment {
  int index = 0;
  bool header = false;  // carries id, type and name
  std::string arguments;
};

struct OutputDelta {
  std::string reasoning;
  std::string content;
  std::vector<ToolFragment> tools;
};

struct OutputScript {
  std::vector<ScriptToken> tokens;  // what is generated (already cut at max_tokens)
  std::vector<PlannedToolCall> tool_calls;
  std::string finish_reason;  // "stop", "length" or "tool_calls"

  int64_t size() const { return static_cast<int64_t>(tokens.size()); }
  // Tokens [begin, end) as one wire delta; fragments of one tool call are merged.
  OutputDelta delta(int64_t begin, int64_t end) const;
  int64_t reasoning_tokens(int64_t end) const;
  // Full texts of the first `end` tokens.
  std::string reasoning_text(int64_t end) const;
  std::string content_text(int64_t end) const;
};

// max_tokens: the request's cap (none = until the answer ends, or `default_filler_tokens` for
// filler text).
OutputScript make_script(const AnswerPlan& plan, std::optional<int64_t> max_tokens,
                         int64_t default_filler_tokens);

}  // namespace lb::sim
