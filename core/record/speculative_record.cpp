#include "core/record/speculative_record.h"

#include <algorithm>

#include "core/record/json_member.h"
#include "core/record/phase_name.h"

namespace lb::record {
std::vector<SpeculativeLevelRecord> read_speculative(const nlohmann::json& speculative) {
  std::vector<SpeculativeLevelRecord> out;
  if (!speculative.is_object()) return out;
  for (const auto& [level, f] : speculative.items()) {
    if (!f.is_object()) continue;
    SpeculativeLevelRecord r;
    r.level = level;
    r.concurrency = member_number(f, "concurrency");
    r.completed = member_number(f, "completed");
    r.output_tok_s = member_number(f, "output_tok_s");
    r.decode_tok_s_median = member_number(member(f, "decode_tok_s"), "median");
    r.itl_ms_median = member_number(member(f, "itl_ms"), "median");
    r.tokens_per_event_mean = member_number(member(f, "tokens_per_event"), "mean");
    const nlohmann::json& acceptance = member(f, "acceptance");
    r.acceptance_rate = member_number(acceptance, "acceptance_rate");
    r.acceptance_length = member_number(acceptance, "acceptance_length");
    if (const nlohmann::json& per = member(acceptance, "per_position"); per.is_array())
      for (const nlohmann::json& share : per)
        r.acceptance_per_position.push_back(share.is_number() ? share.get<double>() : NAN);
    const nlohmann::json& vs = member(f, "vs_baseline");
    r.decode_speedup = member_number(vs, "decode_speedup");
    r.output_tok_s_gain = member_number(vs, "output_tok_s_gain");
    out.push_back(std::move(r));
  }
  // Levels in numeric order; names that are not levels keep the file's order after them.
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    const long long x = concurrency_of(a.level), y = concurrency_of(b.level);
    if ((x < 0) != (y < 0)) return y < 0;
    return x >= 0 && x < y;
  });
  return out;
}

}  // namespace lb::record
