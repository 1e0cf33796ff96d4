// The report's multi-turn sessions table: per lane and turn index, TTFT and the cached share of
// the prompt, so the first turn can be read against the later ones (docs/sessions.md).
#include "core/record/experiment_kind.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

std::string cached_share_cell(const json& turn) {
  const double share = number_at(turn, {"cached_share"});
  return share < 0 ? "n/a" : format_number(100 * share, 1) + " %";
}

ReportTable sessions_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  const std::string name = string_at(e, {"name"});
  t.title = name.empty() || name == record::to_string(record::ExperimentKind::Sessions)
                ? "Multi-turn sessions"
                : "Multi-turn sessions (" + name + ")";
  t.header = {"Lane",          "Turn",          "Requests",        "TTFT p50 (ms)",
              "TTFT p99 (ms)", "Prompt tokens", "Cached (server)", "Session E2E p50 (s)"};
  for (const auto& lane : lanes) {
    const json& s = json_at(e, {"lanes", lane.c_str(), "sessions"});
    if (!s.is_object()) continue;
    const json& turns = json_at(s, {"per_turn"});
    if (!turns.is_array()) continue;
    for (const auto& turn : turns) {
      const bool first = &turn == &turns.front();
      t.rows.push_back({first ? lane : "", format_number(number_at(turn, {"turn"}) + 1, 0),
                        format_number(number_at(turn, {"requests"}), 0),
                        format_number(number_at(turn, {"ttft_p50_ms"}), 1),
                        format_number(number_at(turn, {"ttft_p99_ms"}), 1),
                        format_number(number_at(turn, {"mean_prompt_tokens"}), 0),
                        cached_share_cell(turn),
                        first ? format_number(number_at(s, {"session_e2e_p50_s"}), 2) : ""});
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
    tables.push_back(sessions_table(record::to_json(*e), lanes));
    tables.push_back(lane_comparisons_table(*e));
  }
  return tables;
}

}  // namespace lb::report
