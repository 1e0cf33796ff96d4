#include "core/record/concurrency_sweep_record.h"

#include "core/record/json_member.h"

namespace lb::record {

std::optional<ConcurrencySweepRecord> read_concurrency_sweep(const nlohmann::json& sweep) {
  if (!sweep.is_object()) return std::nullopt;
  ConcurrencySweepRecord s;
  s.mode = member_text(sweep, "mode");
  if (const double gain = member_number(sweep, "min_gain"); std::isfinite(gain)) s.min_gain = gain;
  const nlohmann::json& knee = member(sweep, "knee");
  if (const double c = member_number(knee, "concurrency"); c > 0 && c < 1e15) {
    s.knee_concurrency = static_cast<long long>(c);
    s.knee_output_tok_s = member_figure(knee, "output_tok_s");
    s.knee_e2el_p99_ms = member_figure(knee, "e2el_p99_ms");
    s.knee_reached = member_flag(knee, "reached");
  }
  const nlohmann::json& stopped = member(sweep, "stopped");
  if (const double at = member_number(stopped, "at_concurrency"); at > 0 && at < 1e15) {
    s.stopped_at = static_cast<long long>(at);
    s.stop_reason = member_text(stopped, "reason");
    s.stop_detail = member_text(stopped, "detail");
  }
  return s;
}

}  // namespace lb::record
