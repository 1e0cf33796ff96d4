#include "core/record/speculative_record.h"

#include <algorithm>

#include "core/record/json_member.h"
#include "core/record/json_number.h"
#include "core/record/phase_name.h"

namespace lb::record {
namespace {

using nlohmann::json;

std::optional<LevelDistribution> read_distribution(const json& d) {
  if (!d.is_object()) return std::nullopt;
  LevelDistribution r;
  r.count = member_count(d, "count");
  r.median = member_number(d, "median");
  r.p90 = member_number(d, "p90");
  r.p99 = member_number(d, "p99");
  r.mean = member_number(d, "mean");
  r.min = member_number(d, "min");
  r.max = member_number(d, "max");
  return r;
}

json to_json(const std::optional<LevelDistribution>& d) {
  if (!d) return nullptr;
  return {{"count", d->count},
          {"median", number_or_null(d->median)},
          {"p90", number_or_null(d->p90)},
          {"p99", number_or_null(d->p99)},
          {"mean", number_or_null(d->mean)},
          {"min", number_or_null(d->min)},
          {"max", number_or_null(d->max)}};
}

std::optional<AcceptanceRecord> read_acceptance(const json& a) {
  if (!a.is_object()) return std::nullopt;
  AcceptanceRecord r;
  r.drafts = member_number(a, "drafts");
  r.acceptance_rate = member_number(a, "acceptance_rate");
  r.acceptance_length = member_number(a, "acceptance_length");
  if (const json& per = member(a, "per_position"); per.is_array())
    for (const json& share : per)
      r.per_position.push_back(share.is_number() ? share.get<double>() : NAN);
  return r;
}

// The counters' block: drafts as the counter reads (a float), the rates where the server gave
// them, the share per position always.
json counters_json(const std::optional<AcceptanceRecord>& a) {
  if (!a) return nullptr;
  json j = {{"provenance", "server"}, {"drafts", number_or_null(a->drafts)}};
  if (std::isfinite(a->acceptance_rate)) j["acceptance_rate"] = a->acceptance_rate;
  if (std::isfinite(a->acceptance_length)) j["acceptance_length"] = a->acceptance_length;
  json per = json::array();
  for (double share : a->per_position) per.push_back(number_or_null(share));
  j["per_position"] = std::move(per);
  return j;
}

// The usage block: drafts a count, both rates.
json usage_json(const AcceptanceRecord& a) {
  return {{"provenance", "server"},
          {"drafts", count_or_null(a.drafts)},
          {"acceptance_rate", number_or_null(a.acceptance_rate)},
          {"acceptance_length", number_or_null(a.acceptance_length)}};
}

SpeculativeLevelRecord read_level(const std::string& level, const json& f) {
  SpeculativeLevelRecord r;
  r.level = level;
  r.concurrency = member_number(f, "concurrency");
  r.completed = member_number(f, "completed");
  r.output_tok_s = member_number(f, "output_tok_s");
  r.decode_tok_s = read_distribution(member(f, "decode_tok_s"));
  r.itl_ms = read_distribution(member(f, "itl_ms"));
  r.tokens_per_event = read_distribution(member(f, "tokens_per_event"));
  r.acceptance = read_acceptance(member(f, "acceptance"));
  r.usage_acceptance = read_acceptance(member(f, "usage_acceptance"));
  const json& vs = member(f, "vs_baseline");
  r.baseline_lane = member_text(vs, "baseline_lane");
  r.decode_speedup = member_number(vs, "decode_speedup");
  r.output_tok_s_gain = member_number(vs, "output_tok_s_gain");
  return r;
}

json to_json(const SpeculativeLevelRecord& r) {
  json j = {{"concurrency", count_or_null(r.concurrency)},
            {"completed", count_or_null(r.completed)},
            {"output_tok_s", number_or_null(r.output_tok_s)},
            {"decode_tok_s", to_json(r.decode_tok_s)},
            {"itl_ms", to_json(r.itl_ms)},
            {"tokens_per_event", to_json(r.tokens_per_event)},
            {"acceptance", counters_json(r.acceptance)}};
  if (r.usage_acceptance) j["usage_acceptance"] = usage_json(*r.usage_acceptance);
  if (!r.baseline_lane.empty()) {
    json vs = {{"baseline_lane", r.baseline_lane}};
    if (std::isfinite(r.decode_speedup)) vs["decode_speedup"] = r.decode_speedup;
    if (std::isfinite(r.output_tok_s_gain)) vs["output_tok_s_gain"] = r.output_tok_s_gain;
    j["vs_baseline"] = std::move(vs);
  }
  return j;
}

}  // namespace

const std::vector<double>& SpeculativeLevelRecord::acceptance_per_position() const {
  static const std::vector<double> none;
  return acceptance ? acceptance->per_position : none;
}

std::vector<SpeculativeLevelRecord> read_speculative(const json& speculative) {
  std::vector<SpeculativeLevelRecord> out;
  if (!speculative.is_object()) return out;
  for (const auto& [level, f] : speculative.items())
    if (f.is_object()) out.push_back(read_level(level, f));
  // Levels in numeric order; names that are not levels keep the file's order after them.
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    const long long x = concurrency_of(a.level), y = concurrency_of(b.level);
    if ((x < 0) != (y < 0)) return y < 0;
    return x >= 0 && x < y;
  });
  return out;
}

json to_json(const std::vector<SpeculativeLevelRecord>& levels) {
  json out = json::object();
  for (const SpeculativeLevelRecord& level : levels) out[level.level] = to_json(level);
  return out;
}

}  // namespace lb::record
