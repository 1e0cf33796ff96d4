// Needle retrieval for context sweeps (format documented in answer_book.h and sim/README.md).
#include <cctype>

#include "answer_book.h"
#include "core/text/ascii_text.h"
#include "tokenizer.h"

namespace lb::sim {
namespace {

constexpr std::string_view kNeedleOpen = "The secret ";

bool value_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; }

// Parses "The secret <thing> is <VALUE>." at `pos`; thing and value out.
bool parse_needle(const std::string& text, size_t pos, std::string& thing, std::string& value) {
  size_t p = pos + kNeedleOpen.size();
  const size_t is_pos = text.find(" is ", p);
  if (is_pos == std::string::npos || is_pos - p > 40 || is_pos == p) return false;
  thing = text.substr(p, is_pos - p);
  for (char c : thing) {
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != ' ') return false;
  }
  size_t v = is_pos + 4;
  size_t e = v;
  while (e < text.size() && value_char(text[e])) ++e;
  // A value may end with '-' only inside; the sentence must close with a period.
  if (e == v || e >= text.size() || text[e] != '.') return false;
  value = text.substr(v, e - v);
  return true;
}

}  // namespace

NeedleAnswer answer_needle(const GenRequest& request, int64_t retrieval_window_tokens) {
  NeedleAnswer out;
  const std::string question = text::ascii_lower(last_user_text(request));
  // The question is the tail of the last user turn: look only at its last 400 bytes.
  const std::string tail =
      question.size() > 400 ? question.substr(question.size() - 400) : question;
  const size_t ask = tail.find("secret ");
  if (ask == std::string::npos || tail.find('?', ask) == std::string::npos) return out;
  const std::string text = full_prompt_text(request);
  const int64_t total_tokens = SimTokenizer::count(text);
  std::string thing;
  std::string value;
  size_t pos = text.find(kNeedleOpen);
  while (pos != std::string::npos) {
    std::string t;
    std::string v;
    if (parse_needle(text, pos, t, v) &&
        tail.find("secret " + text::ascii_lower(t)) != std::string::npos) {
      const int64_t before = SimTokenizer::count(std::string_view(text).substr(0, pos));
      thing = t;
      if (total_tokens - before <= retrieval_window_tokens) value = v;
      out.asked = true;
    }
    pos = text.find(kNeedleOpen, pos + 1);
  }
  if (!out.asked) {
    // Asked but no needle in the prompt at all: still a needle question.
    out.asked = true;
    size_t end = ask + 7;
    while (end < tail.size() &&
           (std::isalpha(static_cast<unsigned char>(tail[end])) || tail[end] == ' ')) {
      ++end;
    }
    thing = tail.substr(ask + 7, end - ask - 7);
    while (!thing.empty() && thing.back() == ' ') thing.pop_back();
  }
  out.found = !value.empty();
  out.text = out.found ? "The secret " + thing + " is " + value + "."
                       : "I could not find the secret " + (thing.empty() ? "value" : thing) +
                             " in the provided text.";
  return out;
}

}  // namespace lb::sim
