// parse_plan on arbitrary bytes: never crashes, a rejected plan says why, and an accepted plan
// survives the round trip through the resolved plan.json a run folder stores (parses again, to
// the same resolved form).
#include <string_view>

#include "core/plan/plan.h"
#include "split_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const lb::plan::PlanParseResult r = lb::plan::parse_plan(text, "fuzz.json");
  if (!r.ok()) {
    if (r.errors.empty() || r.error_text().empty()) {
      lb::fuzz::invariant_failed("a rejected plan without an error");
    }
    return 0;
  }
  const nlohmann::json once = lb::plan::resolved_plan_json(*r.plan);
  const std::string dumped = once.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  const lb::plan::PlanParseResult again = lb::plan::parse_plan(dumped, "plan.json");
  if (!again.ok()) {
    std::fprintf(stderr, "%s\n%s\n", dumped.c_str(), again.error_text().c_str());
    lb::fuzz::invariant_failed("a resolved plan does not parse again");
  }
  if (lb::plan::resolved_plan_json(*again.plan) != once) {
    lb::fuzz::invariant_failed("a resolved plan changes when parsed again");
  }
  return 0;
}
