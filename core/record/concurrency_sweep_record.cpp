#include "core/record/concurrency_sweep_record.h"

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {
namespace {

using nlohmann::json;

SweepLevelRecord read_level(const json& j) {
  SweepLevelRecord l;
  l.concurrency = member_count(j, "concurrency");
  l.completed = member_count(j, "completed");
  l.errors = member_count(j, "errors");
  l.interrupted = member_flag(j, "interrupted");
  l.output_tok_s = member_number(j, "output_tok_s");
  l.decode_tok_s_median = member_number(j, "decode_tok_s_median");
  l.ttft_p50_ms = member_number(j, "ttft_p50_ms");
  l.ttft_p99_ms = member_number(j, "ttft_p99_ms");
  l.e2el_p50_ms = member_number(j, "e2el_p50_ms");
  l.e2el_p99_ms = member_number(j, "e2el_p99_ms");
  l.output_tok_s_gain = member_number(j, "output_tok_s_gain");
  l.e2el_p99_growth = member_number(j, "e2el_p99_growth");
  return l;
}

json to_json(const SweepLevelRecord& l) {
  json j = {{"concurrency", l.concurrency},
            {"completed", l.completed},
            {"errors", l.errors},
            {"output_tok_s", figure_or_null(l.output_tok_s)},
            {"decode_tok_s_median", figure_or_null(l.decode_tok_s_median)},
            {"ttft_p50_ms", figure_or_null(l.ttft_p50_ms)},
            {"ttft_p99_ms", figure_or_null(l.ttft_p99_ms)},
            {"e2el_p50_ms", figure_or_null(l.e2el_p50_ms)},
            {"e2el_p99_ms", figure_or_null(l.e2el_p99_ms)},
            {"output_tok_s_gain", number_or_null(l.output_tok_s_gain)},
            {"e2el_p99_growth", number_or_null(l.e2el_p99_growth)}};
  if (l.interrupted) j["interrupted"] = true;
  return j;
}

}  // namespace

std::optional<ConcurrencySweepRecord> read_concurrency_sweep(const json& sweep) {
  if (!sweep.is_object()) return std::nullopt;
  ConcurrencySweepRecord s;
  s.mode = member_text(sweep, "mode");
  if (const double gain = member_number(sweep, "min_gain"); std::isfinite(gain)) s.min_gain = gain;
  const json& levels = member(sweep, "levels");
  if (levels.is_array())
    for (const json& level : levels)
      if (level.is_object()) s.levels.push_back(read_level(level));
  const json& knee = member(sweep, "knee");
  if (const double c = member_number(knee, "concurrency"); c > 0 && c < 1e15) {
    s.knee_concurrency = static_cast<long long>(c);
    s.knee_output_tok_s = member_figure(knee, "output_tok_s");
    s.knee_e2el_p99_ms = member_figure(knee, "e2el_p99_ms");
    s.knee_reached = member_flag(knee, "reached");
    s.knee_rule = member_text(knee, "rule");
  }
  const json& stopped = member(sweep, "stopped");
  if (const double at = member_number(stopped, "at_concurrency"); at > 0 && at < 1e15) {
    s.stopped_at = static_cast<long long>(at);
    s.stop_reason = member_text(stopped, "reason");
    s.stop_detail = member_text(stopped, "detail");
  }
  return s;
}

json to_json(const ConcurrencySweepRecord& s) {
  json j = {{"mode", s.mode}, {"min_gain", s.min_gain}, {"levels", json::array()}};
  for (const SweepLevelRecord& level : s.levels) j["levels"].push_back(to_json(level));
  j["knee"] = nullptr;
  if (s.knee_concurrency)
    j["knee"] = {{"concurrency", *s.knee_concurrency},
                 {"output_tok_s", figure_or_null(s.knee_output_tok_s)},
                 {"e2el_p99_ms", figure_or_null(s.knee_e2el_p99_ms)},
                 {"reached", s.knee_reached},
                 {"rule", s.knee_rule}};
  j["stopped"] = nullptr;
  if (s.stopped_at)
    j["stopped"] = {
        {"reason", s.stop_reason}, {"at_concurrency", *s.stopped_at}, {"detail", s.stop_detail}};
  return j;
}

}  // namespace lb::record
