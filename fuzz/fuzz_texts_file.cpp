// parse_texts_json on arbitrary bytes: never crashes, a rejection says why, and accepted texts
// written back as a JSON array parse to the same texts.
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/compare/texts_file.h"
#include "split_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const lb::compare::TextsResult r = lb::compare::parse_texts_json(text, "fuzz.texts.json");
  if (!r.ok()) {
    if (r.error.empty()) lb::fuzz::invariant_failed("a rejected texts file without an error");
    return 0;
  }
  const std::string dumped = nlohmann::json(*r.texts).dump();
  const lb::compare::TextsResult again = lb::compare::parse_texts_json(dumped, "again");
  if (!again.ok() || *again.texts != *r.texts) {
    lb::fuzz::invariant_failed("texts change when written back and parsed again");
  }
  return 0;
}
