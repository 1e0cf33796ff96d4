// parse_prompt_set (JSONL, JSON array of strings, ShareGPT) on arbitrary bytes: never crashes,
// a rejected set says why, every accepted prompt can be found by its id and yields its messages.
#include <string_view>

#include "core/plan/prompt_set.h"
#include "split_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const lb::plan::PromptSetResult r = lb::plan::parse_prompt_set(text, "fuzz.jsonl");
  if (!r.ok()) {
    if (r.errors.empty() || r.error_text().empty()) {
      lb::fuzz::invariant_failed("a rejected prompt set without an error");
    }
    return 0;
  }
  for (const auto& p : r.set->prompts) {
    const lb::plan::PromptSpec* found = r.set->find(p.id);
    if (!found || found->id != p.id) lb::fuzz::invariant_failed("find() misses a prompt");
    (void)p.chat();
  }
  return 0;
}
