#include "core/report/gate_table.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "core/record/experiment_kind.h"
#include "core/report/artifact_records.h"

namespace lb::report {
namespace {

using nlohmann::json;

const json& lane_section(const json& experiment, const std::string& lane) {
  static const json kNull;
  if (!experiment.contains("lanes") || !experiment["lanes"].is_object()) return kNull;
  const auto it = experiment["lanes"].find(lane);
  return it == experiment["lanes"].end() ? kNull : *it;
}

GateStatus status_of(const std::string& s) { return record::gate_status_from(s); }

// A multimodal gate's cell names the route it went over and the prompts it could not carry,
// per kind, after the failure or refusal when there is one: "over /api/chat; unsupported by the
// API: mixed 5, video 10".
std::string multimodal_detail(const json& gate, const std::string& detail) {
  std::string out = "over " + gate.value("route", "");
  std::string kinds;
  if (gate.contains("kinds") && gate["kinds"].is_object())
    for (const auto& [kind, k] : gate["kinds"].items())
      if (const int64_t n = k.is_object() ? k.value("unsupported_by_api", int64_t{0}) : 0; n > 0)
        kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
  if (!kinds.empty()) out += "; unsupported by the API: " + kinds;
  return detail.empty() ? out : detail + "; " + out;
}

GateCell functional_cell(const json& gate) {
  GateCell cell;
  if (!gate.is_object()) return cell;
  cell.status = status_of(gate.value("status", ""));
  cell.score = gate.value("score", "");
  if (cell.status == GateStatus::Unsupported) {
    const std::string what = gate.value("unsupported", "");  // e.g. "multimodal unsupported"
    const std::string why = gate.value("why", "");
    cell.detail = what.empty() ? why : why.empty() ? what : what + ": " + why;
  }
  if (cell.status == GateStatus::Stopped) cell.detail = gate.value("why", "");
  if (gate.contains("failures") && gate["failures"].is_array() && !gate["failures"].empty())
    cell.detail = gate["failures"][0].value("why", "");
  if (gate.contains("route")) cell.detail = multimodal_detail(gate, cell.detail);
  return cell;
}

std::vector<std::string> checks_in(const json& experiment, const std::vector<std::string>& lanes) {
  std::vector<std::string> checks;
  for (const auto& lane : lanes) {
    const json& section = lane_section(experiment, lane);
    if (!section.contains("gates") || !section["gates"].is_object()) continue;
    for (const auto& [check, value] : section["gates"].items())
      if (std::find(checks.begin(), checks.end(), check) == checks.end()) checks.push_back(check);
  }
  // JSON objects sort their keys: put the checks back in the product's order.
  const std::vector<std::string>& order = gate_check_names();
  auto rank = [&order](const std::string& c) {
    const auto it = std::find(order.begin(), order.end(), c);
    return it - order.begin();
  };
  std::stable_sort(checks.begin(), checks.end(),
                   [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return checks;
}

void add_functional_rows(GateTable& table, const json& experiment, bool suffix) {
  const std::string name = experiment.value("name", "gates");
  for (const auto& check : checks_in(experiment, table.lanes)) {
    GateRow row;
    row.key = "gates." + check + (suffix ? "@" + name : "");
    row.label = gate_label(check) + (suffix ? " (" + name + ")" : "");
    for (const auto& lane : table.lanes) {
      const json& section = lane_section(experiment, lane);
      const bool has = section.contains("gates") && section["gates"].contains(check);
      row.cells.push_back(has ? functional_cell(section["gates"][check]) : GateCell{});
    }
    table.rows.push_back(std::move(row));
  }
}

// Long-context retrieval: every measured size of the lane found its needle.
GateCell retrieval_cell(const json& rows) {
  GateCell cell;
  if (!rows.is_array()) return cell;
  int64_t passed = 0, measured = 0;
  for (const auto& r : rows) {
    if (r.value("status", "") != "measured" || !r.contains("retrieval_pass")) continue;
    ++measured;
    passed += r["retrieval_pass"].get<bool>() ? 1 : 0;
  }
  if (measured == 0) return cell;
  cell.score = std::to_string(passed) + "/" + std::to_string(measured);
  cell.status = passed == measured ? GateStatus::Pass : GateStatus::Fail;
  if (cell.status == GateStatus::Fail) cell.detail = "a context size did not retrieve its needle";
  return cell;
}

void add_retrieval_row(GateTable& table, const json& experiment) {
  GateRow row{"retrieval", "Long-context retrieval (sizes passed)", {}, {}};
  bool any = false;
  for (const auto& lane : table.lanes) {
    GateCell cell = retrieval_cell(lane_section(experiment, lane).value("context_sweep", json()));
    any = any || cell.status != GateStatus::NotRun;
    row.cells.push_back(std::move(cell));
  }
  if (any) table.rows.push_back(std::move(row));
}

const compare::ReviewRecord* review_of(const std::vector<compare::ReviewRecord>* reviews,
                                       const std::string& base, const std::string& cand) {
  if (!reviews) return nullptr;
  for (const auto& r : *reviews)
    if (r.lane_a == base && r.lane_b == cand) return &r;
  return nullptr;
}

// A candidate passes once no pair is a blocker and every pair that needs review has a verdict:
// the review record (verdicts given after the run) decides; without one, the run's triage.
void judge_regression(GateCell& cell, const json& c, const compare::ReviewRecord* review) {
  const size_t flipped = c.contains("flipped_facts") ? c["flipped_facts"].size() : 0;
  int64_t pending = c.value("review_required", 0);
  if (review) {
    const auto outcome = review->outcome();
    pending = static_cast<int64_t>(outcome.unreviewed_required);
    if (outcome.passed || outcome.blockers > 0) {
      cell.status = outcome.passed ? GateStatus::Pass : GateStatus::Fail;
      cell.detail = outcome.summary;
      return;
    }
  }
  if (flipped > 0) {
    cell.status = GateStatus::Fail;
    cell.detail = std::to_string(flipped) + " flipped fact(s)";
  } else if (pending > 0) {
    cell.status = GateStatus::NotRun;
    cell.detail = "review pending: " + std::to_string(pending) + " pair(s)";
  } else {
    cell.status = GateStatus::Pass;
    cell.detail = c.value("review_outcome", "");
  }
}

// Fills one cell per candidate of the experiment's lane pairs: `cell_of(comparison)` gives the
// candidate's cell, or nullopt to leave the pair out; the pair's baseline cell says "baseline".
// Returns how many pairs gave a cell.
size_t fill_pair_cells(GateRow& row, const std::vector<std::string>& lanes, const json& experiment,
                       const std::function<std::optional<GateCell>(const json&)>& cell_of) {
  row.cells.resize(lanes.size());
  size_t filled = 0;
  for (const auto& c : experiment["comparisons"]) {
    const auto base = std::find(lanes.begin(), lanes.end(), c.value("baseline", ""));
    const auto cand = std::find(lanes.begin(), lanes.end(), c.value("candidate", ""));
    if (cand == lanes.end()) continue;
    std::optional<GateCell> cell = cell_of(c);
    if (!cell) continue;
    if (base != lanes.end())
      row.cells[static_cast<size_t>(base - lanes.begin())].detail = "baseline";
    row.cells[static_cast<size_t>(cand - lanes.begin())] = std::move(*cell);
    ++filled;
  }
  return filled;
}

bool has_comparisons(const json& experiment) {
  return experiment.contains("comparisons") && experiment["comparisons"].is_array();
}

// The regression check of each candidate against the baseline lane.
void add_regression_row(GateTable& table, const json& experiment,
                        const std::vector<compare::ReviewRecord>* reviews) {
  if (!has_comparisons(experiment)) return;
  GateRow row{"regression", "Regression vs baseline (identical or similar)", {}, {}};
  fill_pair_cells(row, table.lanes, experiment, [&](const json& c) {
    GateCell cell;
    const int64_t same = c.value("identical", 0) + c.value("near_identical", 0);
    cell.score = std::to_string(same) + "/" + std::to_string(c.value("pairs", 0));
    judge_regression(cell, c,
                     review_of(reviews, c.value("baseline", ""), c.value("candidate", "")));
    // Prompts whose media a lane's API refused: neither passed nor failed, but said.
    if (const int64_t n = c.value("unsupported_by_lane", int64_t{0}); n > 0)
      cell.detail += (cell.detail.empty() ? "" : "; ") + std::to_string(n) +
                     " prompt(s) unsupported by the lane";
    // Judged against the baseline's determinism floor (docs/determinism.md), when measured.
    if (c.contains("floor_verdict") && c["floor_verdict"].is_object())
      cell.detail +=
          (cell.detail.empty() ? "" : "; ") + c["floor_verdict"].value("text", std::string());
    return std::optional<GateCell>(std::move(cell));
  });
  table.rows.push_back(std::move(row));
}

// Token fidelity: every confident change (a token the baseline did not expect) has a verdict
// and none is a blocker. Judged from the review record when there is one, else all pending.
GateCell token_cell(const json& td, const compare::ReviewRecord* review) {
  GateCell cell;
  size_t pending = 0, blockers = 0, total = 0;
  for (const auto& change : td.value("confident_changes", json::array())) {
    ++total;
    const auto index = static_cast<size_t>(change.value("index", int64_t{-1}));
    const auto verdict = review && index < review->pairs.size() ? review->pairs[index].verdict
                                                                : compare::Verdict::Unreviewed;
    blockers += verdict == compare::Verdict::Blocker;
    pending += verdict == compare::Verdict::Unreviewed;
  }
  // With no confident change there is nothing to review: "pass", not a bare "0/0".
  if (total > 0) cell.score = std::to_string(total - pending) + "/" + std::to_string(total);
  if (total == 0) {
    cell.status = GateStatus::Pass;
    cell.detail = "no confident change: every differing token was one the baseline expected";
  } else if (blockers > 0) {
    cell.status = GateStatus::Fail;
    cell.detail = std::to_string(blockers) + " confident change(s) judged a blocker";
  } else if (pending > 0) {
    cell.status = GateStatus::NotRun;
    cell.detail = "review pending: " + std::to_string(pending) + " confident change(s)";
  } else {
    cell.status = GateStatus::Pass;
  }
  return cell;
}

void add_token_row(GateTable& table, const json& experiment,
                   const std::vector<compare::ReviewRecord>* reviews) {
  if (!has_comparisons(experiment)) return;
  GateRow row{"tokens", "Token fidelity (confident changes reviewed)", {}, {}};
  const size_t filled =
      fill_pair_cells(row, table.lanes, experiment, [&](const json& c) -> std::optional<GateCell> {
        if (!c.contains("token_divergence") || !c["token_divergence"].is_object())
          return std::nullopt;
        return token_cell(c["token_divergence"],
                          review_of(reviews, c.value("baseline", ""), c.value("candidate", "")));
      });
  if (filled > 0) table.rows.push_back(std::move(row));
}

const compare::SampledReviewRecord* sampled_of(
    const std::vector<compare::SampledReviewRecord>* records, const std::string& base,
    const std::string& cand) {
  if (!records) return nullptr;
  for (const auto& r : *records)
    if (r.lane_a == base && r.lane_b == cand) return &r;
  return nullptr;
}

// Sampled review: every `shifted` prompt has a verdict and no prompt is judged a blocker. The
// record (verdicts given since the run) decides; without one, every shifted prompt is pending.
GateCell sampled_cell(const json& c, const compare::SampledReviewRecord* record) {
  GateCell cell;
  const int64_t total = c.contains("prompts") ? static_cast<int64_t>(c["prompts"].size()) : 0;
  int64_t shifted = c.value("shifted", int64_t{0});
  int64_t pending = shifted, blockers = 0;
  if (record) {
    const auto o = record->outcome();
    shifted = static_cast<int64_t>(o.shifted);
    pending = static_cast<int64_t>(o.unreviewed);
    blockers = static_cast<int64_t>(o.blockers);
  }
  cell.score = std::to_string(c.value("indistinguishable", int64_t{0})) + "/" +
               std::to_string(total) + " indistinguishable";
  if (blockers > 0) {
    cell.status = GateStatus::Fail;
    cell.detail = std::to_string(blockers) + " prompt(s) judged a blocker";
  } else if (pending > 0) {
    cell.status = GateStatus::NotRun;
    cell.detail = "review pending: " + std::to_string(pending) + " of " + std::to_string(shifted) +
                  " shifted prompt(s)";
  } else {
    cell.status = GateStatus::Pass;
    if (shifted > 0) cell.detail = std::to_string(shifted) + " shifted prompt(s) reviewed";
  }
  return cell;
}

void add_sampled_row(GateTable& table, const json& experiment,
                     const std::vector<compare::SampledReviewRecord>* records) {
  if (!has_comparisons(experiment)) return;
  GateRow row{"sampled", "Sampled review (no shifted prompt unreviewed)", {}, {}};
  fill_pair_cells(row, table.lanes, experiment, [&](const json& c) {
    return std::optional<GateCell>(
        sampled_cell(c, sampled_of(records, c.value("baseline", ""), c.value("candidate", ""))));
  });
  table.rows.push_back(std::move(row));
}

// Top-1 agreement: the share of the candidate's answer tokens that are the baseline's own top-1
// under teacher forcing, against the plan's min_top1_agreement.
GateCell top1_cell(const json& cross) {
  GateCell cell;
  const json& d = cross.value("candidate_under_baseline", json::object());
  const double least = cross.value("min_top1_agreement", -1.0);
  if (d.value("status", "") != "ok" || !d.contains("top1_agreement") ||
      !d["top1_agreement"].is_number()) {
    cell.status = GateStatus::Unsupported;
    cell.detail = d.value("reason", std::string("cross-scoring unsupported"));
    return cell;
  }
  const double agreement = d["top1_agreement"].get<double>();
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4f", agreement);
  cell.score = buf;
  cell.status = agreement >= least ? GateStatus::Pass : GateStatus::Fail;
  if (cell.status == GateStatus::Fail) {
    std::snprintf(buf, sizeof buf, "%.4f", least);
    cell.detail = "top-1 agreement " + cell.score + " is below " + buf;
  }
  return cell;
}

void add_top1_row(GateTable& table, const json& experiment) {
  if (!has_comparisons(experiment)) return;
  GateRow row{"tokens.top1", "Token fidelity (top-1 agreement)", {}, {}};
  const size_t filled =
      fill_pair_cells(row, table.lanes, experiment, [&](const json& c) -> std::optional<GateCell> {
        const json* cross = nullptr;
        if (c.contains("token_divergence") && c["token_divergence"].is_object() &&
            c["token_divergence"].contains("cross_score"))
          cross = &c["token_divergence"]["cross_score"];
        if (!cross || !cross->is_object() || cross->value("min_top1_agreement", -1.0) < 0)
          return std::nullopt;
        char buf[48];
        std::snprintf(buf, sizeof buf, "Token fidelity (top-1 agreement >= %.4g)",
                      cross->value("min_top1_agreement", 0.0));
        row.label = buf;
        return top1_cell(*cross);
      });
  if (filled > 0) table.rows.push_back(std::move(row));
}

void add_artifacts_row(GateTable& table, const std::vector<ArtifactRecord>& records) {
  if (records.empty()) return;
  GateRow row{
      "artifacts", "Artifacts verified (identity, refuse list, headers)", "verification", {}};
  for (const auto& lane : table.lanes) {
    GateCell cell;
    const auto it = std::find_if(records.begin(), records.end(),
                                 [&lane](const ArtifactRecord& r) { return r.lane == lane; });
    if (it != records.end()) {
      cell.status = it->passed ? GateStatus::Pass : GateStatus::Fail;
      cell.score = std::to_string(it->files_ok) + "/" +
                   std::to_string(it->files_ok + it->files_failed + it->files_unpinned);
      if (!it->passed) {
        cell.detail = std::to_string(it->files_failed) + " file(s) failed, " +
                      std::to_string(it->files_unpinned) + " unpinned, " +
                      std::to_string(it->refused) + " refused, " +
                      std::to_string(it->headers_invalid) + " invalid header(s)";
      }
    }
    row.cells.push_back(std::move(cell));
  }
  table.rows.push_back(std::move(row));
}

// The rows of the run's experiments, in run order.
void add_experiment_rows(GateTable& table, const json& summary,
                         const std::vector<compare::ReviewRecord>* reviews,
                         const std::vector<compare::SampledReviewRecord>* sampled) {
  try {
    // By kind; a kind this version does not know is counted by its name and adds no row.
    const auto kind_of = [](const json& e) {
      return e.is_object() && e.contains("kind") && e["kind"].is_string()
                 ? record::experiment_kind_from(e["kind"].get<std::string>())
                 : std::nullopt;
    };
    std::map<std::string, int> per_kind;
    for (const auto& e : summary["experiments"]) ++per_kind[e.value("kind", "")];
    for (const auto& e : summary["experiments"]) {
      using K = record::ExperimentKind;
      const std::optional<K> kind = kind_of(e);
      const int of_this_kind = per_kind[e.value("kind", "")];
      const size_t first = table.rows.size();
      if (kind) switch (*kind) {
          case K::Gates:
            add_functional_rows(table, e, of_this_kind > 1);
            break;
          case K::ContextSweep:
            add_retrieval_row(table, e);
            break;
          case K::Regression:
            add_regression_row(table, e, reviews);
            add_token_row(table, e, reviews);
            add_top1_row(table, e);
            break;
          case K::SampledRegression:
            add_sampled_row(table, e, sampled);
            break;
          case K::Throughput:
          case K::PrefixCache:
          case K::Speculative:
          case K::Trace:
          case K::Sessions:
          case K::Capacity:
            break;  // judged by their figures (performance gates), not by rows of their own
          case K::Determinism:
            break;  // a floor to judge the regression's differences by, not a gate itself
        }
      const std::string name = e.value("name", e.value("kind", ""));
      for (size_t i = first; i < table.rows.size(); ++i) {
        GateRow& row = table.rows[i];
        row.experiment = name;
        if (kind != K::Gates && of_this_kind > 1) row.key += "@" + name;
      }
    }
  } catch (const json::exception&) {
    // A summary.json edited by hand into another shape: keep the rows read so far.
  }
}

}  // namespace

const char* gate_status_name(GateStatus status) { return record::to_string(status); }

int GateTable::count(GateStatus status) const {
  int n = 0;
  for (const auto& row : rows)
    n +=
        static_cast<int>(std::count_if(row.cells.begin(), row.cells.end(),
                                       [status](const GateCell& c) { return c.status == status; }));
  return n;
}

std::string cell_text(const GateCell& cell) {
  if (cell.status == GateStatus::NotRun && !cell.detail.empty()) return cell.detail;
  std::string text = gate_status_name(cell.status);
  if (!cell.score.empty() && cell.status != GateStatus::Unsupported) text += " " + cell.score;
  return text;
}

const std::vector<std::string>& gate_check_names() {
  static const std::vector<std::string> names = {
      "json",    "streaming", "tools",      "tool_continuation",     "responses",
      "session", "reasoning", "multimodal", "multimodal (responses)"};
  return names;
}

std::string gate_label(const std::string& check) {
  static const std::map<std::string, std::string> labels = {
      {"json", "JSON schema output"},
      {"streaming", "Streaming integrity"},
      {"tools", "Parallel tool calls"},
      {"tool_continuation", "Tool-result continuation"},
      {"responses", "Responses API"},
      {"session", "Multi-turn session recall"},
      {"reasoning", "Reasoning effort (low/medium/high)"},
      {"multimodal", "Multimodal answers (image, video, mixed)"},
      {"multimodal (responses)", "Multimodal answers via the Responses API (images)"}};
  const auto it = labels.find(check);
  return it == labels.end() ? check : it->second;
}

GateTable build_gate_table(const json& summary, const std::vector<std::string>& lanes,
                           const std::vector<compare::ReviewRecord>* reviews,
                           const std::vector<ArtifactRecord>* artifacts,
                           const std::vector<compare::SampledReviewRecord>* sampled) {
  GateTable table;
  table.lanes = lanes;
  if (summary.is_object() && summary.contains("experiments") && summary["experiments"].is_array())
    add_experiment_rows(table, summary, reviews, sampled);
  if (artifacts) add_artifacts_row(table, *artifacts);
  return table;
}

json gate_table_to_json(const GateTable& table) {
  json rows = json::array();
  for (const auto& row : table.rows) {
    json cells = json::array();
    for (size_t i = 0; i < row.cells.size() && i < table.lanes.size(); ++i)
      cells.push_back({{"lane", table.lanes[i]},
                       {"status", gate_status_name(row.cells[i].status)},
                       {"score", row.cells[i].score},
                       {"detail", row.cells[i].detail}});
    rows.push_back({{"key", row.key},
                    {"label", row.label},
                    {"experiment", row.experiment},
                    {"cells", std::move(cells)}});
  }
  return {{"lanes", table.lanes}, {"rows", std::move(rows)}};
}

}  // namespace lb::report
