// The report's multi-turn sessions table: per lane and turn index, TTFT and the cached share of
// the prompt, so the first turn can be read against the later ones (docs/sessions.md).
#include "core/record/run_summary.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

std::string cached_share_cell(const record::SessionTurnRecord& turn) {
  return std::isnan(turn.cached_share) || turn.cached_share < 0
             ? "n/a"
             : format_number(100 * turn.cached_share, 1) + " %";
}

ReportTable sessions_table(const record::ExperimentSection& e,
                           const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = e.name.empty() || e.name == record::to_string(record::ExperimentKind::Sessions)
                ? "Multi-turn sessions"
                : "Multi-turn sessions (" + e.name + ")";
  t.header = {"Lane",          "Turn",          "Requests",        "TTFT p50 (ms)",
              "TTFT p99 (ms)", "Prompt tokens", "Cached (server)", "Session E2E p50 (s)"};
  for (const auto& lane : lanes) {
    const record::LaneRecord* section = e.lane(lane);
    const std::optional<record::SessionsRecord> s = section ? section->sessions() : std::nullopt;
    if (!s) continue;
    for (size_t i = 0; i < s->per_turn.size(); ++i) {
      const record::SessionTurnRecord& turn = s->per_turn[i];
      const bool first = i == 0;
      t.rows.push_back({first ? lane : "", format_number(turn.turn + 1, 0),
                        format_number(turn.requests, 0), format_number(turn.ttft_p50_ms, 1),
                        format_number(turn.ttft_p99_ms, 1),
                        format_number(turn.mean_prompt_tokens, 0), cached_share_cell(turn),
                        first ? format_number(s->session_e2e_p50_s, 2) : ""});
    }
  }
  t.note =
      "Each turn sends the whole history, the lane's own answers included. Cached share: "
      "usage cached_tokens over prompt tokens (server). Session E2E: first send to last answer, "
      "think times included (measured).";
  return t;
}

}  // namespace

std::vector<ReportTable> session_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  const auto lanes = folder.lane_ids();
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Sessions)) {
    tables.push_back(sessions_table(*e, lanes));
    tables.push_back(lane_comparisons_table(*e));
  }
  return tables;
}

}  // namespace lb::report
