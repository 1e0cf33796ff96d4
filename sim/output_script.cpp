#include "output_script.h"

#include "tokenizer.h"

namespace lb::sim {

OutputDelta OutputScript::delta(int64_t begin, int64_t end) const {
  OutputDelta d;
  for (int64_t i = begin; i < end && i < size(); ++i) {
    const ScriptToken& t = tokens[static_cast<size_t>(i)];
    switch (t.channel) {
      case Channel::Reasoning:
        d.reasoning += t.text;
        break;
      case Channel::Content:
        d.content += t.text;
        break;
      case Channel::ToolHeader:
        d.tools.push_back(ToolFragment{t.tool_index, true, {}});
        break;
      case Channel::ToolArguments:
        if (d.tools.empty() || d.tools.back().index != t.tool_index) {
          d.tools.push_back(ToolFragment{t.tool_index, false, {}});
        }
        d.tools.back().arguments += t.text;
        break;
    }
  }
  return d;
}

int64_t OutputScript::reasoning_tokens(int64_t end) const {
  int64_t n = 0;
  for (int64_t i = 0; i < end && i < size(); ++i) {
    if (tokens[static_cast<size_t>(i)].channel == Channel::Reasoning) ++n;
  }
  return n;
}

std::string OutputScript::reasoning_text(int64_t end) const { return delta(0, end).reasoning; }
std::string OutputScript::content_text(int64_t end) const { return delta(0, end).content; }

OutputScript make_script(const AnswerPlan& plan, std::optional<int64_t> max_tokens,
                         int64_t default_filler_tokens) {
  OutputScript s;
  for (auto piece : SimTokenizer::pieces(plan.reasoning)) {
    s.tokens.push_back({Channel::Reasoning, -1, std::string(piece)});
  }
  for (auto piece : SimTokenizer::pieces(plan.content)) {
    s.tokens.push_back({Channel::Content, -1, std::string(piece)});
  }
  for (size_t i = 0; i < plan.tool_calls.size(); ++i) {
    const int index = static_cast<int>(i);
    s.tokens.push_back({Channel::ToolHeader, index, plan.tool_calls[i].name});
    for (auto piece : SimTokenizer::pieces(plan.tool_calls[i].arguments)) {
      s.tokens.push_back({Channel::ToolArguments, index, std::string(piece)});
    }
  }
  s.tool_calls = plan.tool_calls;
  int64_t cap = max_tokens.value_or(plan.natural_stop ? s.size() : default_filler_tokens);
  if (s.tokens.empty()) s.tokens.push_back({Channel::Content, -1, ""});
  if (s.size() > cap) {
    s.tokens.resize(static_cast<size_t>(std::max<int64_t>(1, cap)));
    s.finish_reason = "length";
  } else if (!plan.natural_stop && max_tokens) {
    s.finish_reason = "length";
  } else {
    s.finish_reason = plan.tool_calls.empty() ? "stop" : "tool_calls";
  }
  return s;
}

}  // namespace lb::sim
