#include "core/report/gate_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "core/record/experiment_kind.h"
#include "core/record/json_member.h"
#include "core/report/artifact_records.h"

namespace lb::report {
namespace {

using nlohmann::json;
using record::ExperimentSection;

// A multimodal gate's cell names the route it went over and the prompts it could not carry,
// per kind, after the failure or refusal when there is one: "over /api/chat; unsupported by the
// API: mixed 5, video 10".
std::string multimodal_detail(const record::GateResult& gate, const std::string& detail) {
  std::string out = "over " + record::member_text(gate.more, "route");
  std::string kinds;
  const json& per_kind = record::member(gate.more, "kinds");
  if (per_kind.is_object())
    for (const auto& [kind, k] : per_kind.items())
      if (const int64_t n = record::member_count(k, "unsupported_by_api"); n > 0)
        kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
  if (!kinds.empty()) out += "; unsupported by the API: " + kinds;
  return detail.empty() ? out : detail + "; " + out;
}

GateCell functional_cell(const record::GateResult& gate) {
  GateCell cell;
  cell.status = gate.status;
  cell.score = gate.score;
  if (cell.status == GateStatus::Unsupported) {
    // e.g. "multimodal unsupported"
    const std::string what = record::member_text(gate.more, "unsupported");
    cell.detail = what.empty() ? gate.why : gate.why.empty() ? what : what + ": " + gate.why;
  }
  if (cell.status == GateStatus::Stopped) cell.detail = gate.why;
  if (!gate.failures.empty()) cell.detail = gate.failures.front().why;
  if (gate.more.contains("route")) cell.detail = multimodal_detail(gate, cell.detail);
  return cell;
}

const record::GateResult* gate_of(const ExperimentSection& experiment, const std::string& lane,
                                  const std::string& check) {
  const record::LaneRecord* section = experiment.lane(lane);
  if (!section) return nullptr;
  for (const record::GateResult& g : section->gates)
    if (g.check == check) return &g;
  return nullptr;
}

std::vector<std::string> checks_in(const ExperimentSection& experiment,
                                   const std::vector<std::string>& lanes) {
  std::vector<std::string> checks;
  for (const auto& lane : lanes)
    if (const record::LaneRecord* section = experiment.lane(lane))
      for (const record::GateResult& g : section->gates)
        if (std::find(checks.begin(), checks.end(), g.check) == checks.end())
          checks.push_back(g.check);
  // The file's object sorts its keys: put the checks back in the product's order.
  const std::vector<std::string>& order = gate_check_names();
  auto rank = [&order](const std::string& c) {
    const auto it = std::find(order.begin(), order.end(), c);
    return it - order.begin();
  };
  std::stable_sort(checks.begin(), checks.end(),
                   [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return checks;
}

const std::string& name_of(const ExperimentSection& experiment) {
  return experiment.name.empty() ? experiment.kind_name : experiment.name;
}

void add_functional_rows(GateTable& table, const ExperimentSection& experiment, bool suffix) {
  const std::string name = experiment.name.empty() ? "gates" : experiment.name;
  for (const auto& check : checks_in(experiment, table.lanes)) {
    GateRow row;
    row.key = "gates." + check + (suffix ? "@" + name : "");
    row.label = gate_label(check) + (suffix ? " (" + name + ")" : "");
    for (const auto& lane : table.lanes) {
      const record::GateResult* gate = gate_of(experiment, lane, check);
      row.cells.push_back(gate ? functional_cell(*gate) : GateCell{});
    }
    table.rows.push_back(std::move(row));
  }
}

// Long-context retrieval: every measured size of the lane found its needle.
GateCell retrieval_cell(const std::vector<record::ContextSizeRecord>& sizes) {
  GateCell cell;
  int64_t passed = 0, measured = 0;
  for (const record::ContextSizeRecord& size : sizes) {
    if (!size.measured() || !size.retrieval_pass) continue;
    ++measured;
    passed += *size.retrieval_pass ? 1 : 0;
  }
  if (measured == 0) return cell;
  cell.score = std::to_string(passed) + "/" + std::to_string(measured);
  cell.status = passed == measured ? GateStatus::Pass : GateStatus::Fail;
  if (cell.status == GateStatus::Fail) cell.detail = "a context size did not retrieve its needle";
  return cell;
}

void add_retrieval_row(GateTable& table, const ExperimentSection& experiment) {
  GateRow row{"retrieval", "Long-context retrieval (sizes passed)", {}, {}};
  bool any = false;
  for (const auto& lane : table.lanes) {
    const record::LaneRecord* section = experiment.lane(lane);
    GateCell cell = section ? retrieval_cell(section->context_sweep()) : GateCell{};
    any = any || cell.status != GateStatus::NotRun;
    row.cells.push_back(std::move(cell));
  }
  if (any) table.rows.push_back(std::move(row));
}

template <typename Record>
const Record* record_of(const std::vector<Record>* records, const std::string& base,
                        const std::string& cand) {
  if (!records) return nullptr;
  for (const auto& r : *records)
    if (r.lane_a == base && r.lane_b == cand) return &r;
  return nullptr;
}

// A candidate passes once no pair is a blocker and every pair that needs review has a verdict:
// the review record (verdicts given after the run) decides; without one, the run's triage.
void judge_regression(GateCell& cell, const record::PairOutcome& c,
                      const compare::ReviewRecord* review) {
  int64_t pending = c.review_required;
  if (review) {
    const auto outcome = review->outcome();
    pending = static_cast<int64_t>(outcome.unreviewed_required);
    // Material differences pass, but a reader of the table sees them before deciding.
    if (outcome.material > 0) cell.note = std::to_string(outcome.material) + " material";
    if (outcome.passed || outcome.blockers > 0) {
      cell.status = outcome.passed ? GateStatus::Pass : GateStatus::Fail;
      cell.detail = outcome.summary;
      return;
    }
  }
  if (c.flipped_facts() > 0) {
    cell.status = GateStatus::Fail;
    cell.detail = std::to_string(c.flipped_facts()) + " flipped fact(s)";
  } else if (pending > 0) {
    cell.status = GateStatus::NotRun;
    cell.detail = "review pending: " + std::to_string(pending) + " pair(s)";
  } else {
    cell.status = GateStatus::Pass;
    cell.detail = c.review_outcome;
  }
}

// Fills one cell per candidate of the experiment's lane pairs: `cell_of(outcome)` gives the
// candidate's cell, or nullopt to leave the pair out; the pair's baseline cell says "baseline".
// Returns how many pairs gave a cell.
template <typename Outcome>
size_t fill_pair_cells(GateRow& row, const std::vector<std::string>& lanes,
                       const std::vector<Outcome>& outcomes,
                       const std::function<std::optional<GateCell>(const Outcome&)>& cell_of) {
  row.cells.resize(lanes.size());
  size_t filled = 0;
  for (const Outcome& c : outcomes) {
    const auto base = std::find(lanes.begin(), lanes.end(), c.baseline);
    const auto cand = std::find(lanes.begin(), lanes.end(), c.candidate);
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

using PairCell = std::function<std::optional<GateCell>(const record::PairOutcome&)>;

// The regression check of each candidate against the baseline.
void add_regression_row(GateTable& table, const std::vector<record::PairOutcome>& outcomes,
                        const std::vector<compare::ReviewRecord>* reviews) {
  GateRow row{"regression", "Regression vs baseline (identical or similar)", {}, {}};
  fill_pair_cells<record::PairOutcome>(
      row, table.lanes, outcomes, [&](const record::PairOutcome& c) {
        GateCell cell;
        cell.score = std::to_string(c.identical + c.near_identical) + "/" + std::to_string(c.pairs);
        judge_regression(cell, c, record_of(reviews, c.baseline, c.candidate));
        // Prompts whose media a lane's API refused: neither passed nor failed, but said.
        if (c.unsupported_by_lane > 0)
          cell.detail += (cell.detail.empty() ? "" : "; ") + std::to_string(c.unsupported_by_lane) +
                         " prompt(s) unsupported by the lane";
        // Judged against the baseline's determinism floor (docs/determinism.md), when measured.
        if (c.floor_verdict)
          cell.detail += (cell.detail.empty() ? "" : "; ") + c.floor_verdict->text;
        return std::optional<GateCell>(std::move(cell));
      });
  table.rows.push_back(std::move(row));
}

// Token fidelity: every confident change (a token the baseline did not expect) has a verdict
// and none is a blocker. Judged from the review record when there is one, else all pending.
GateCell token_cell(const record::TokenEvidenceRecord& evidence,
                    const compare::ReviewRecord* review) {
  GateCell cell;
  size_t pending = 0, blockers = 0;
  const size_t total = evidence.confident_changes.size();
  for (const int64_t at : evidence.confident_changes) {
    const auto index = static_cast<size_t>(at);  // -1 (not said) is past every pair
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

void add_token_row(GateTable& table, const std::vector<record::PairOutcome>& outcomes,
                   const std::vector<compare::ReviewRecord>* reviews) {
  GateRow row{"tokens", "Token fidelity (confident changes reviewed)", {}, {}};
  const PairCell cell_of = [&](const record::PairOutcome& c) -> std::optional<GateCell> {
    if (!c.tokens) return std::nullopt;
    return token_cell(*c.tokens, record_of(reviews, c.baseline, c.candidate));
  };
  if (fill_pair_cells(row, table.lanes, outcomes, cell_of) > 0)
    table.rows.push_back(std::move(row));
}

// Sampled review: every `shifted` prompt has a verdict and no prompt is judged a blocker. The
// record (verdicts given since the run) decides; without one, every shifted prompt is pending.
GateCell sampled_cell(const record::SampledOutcome& c, const compare::SampledReviewRecord* record) {
  GateCell cell;
  int64_t shifted = c.shifted;
  int64_t pending = shifted, blockers = 0;
  if (record) {
    const auto o = record->outcome();
    shifted = static_cast<int64_t>(o.shifted);
    pending = static_cast<int64_t>(o.unreviewed);
    blockers = static_cast<int64_t>(o.blockers);
  }
  cell.score =
      std::to_string(c.indistinguishable) + "/" + std::to_string(c.prompts) + " indistinguishable";
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

void add_sampled_row(GateTable& table, const std::vector<record::SampledOutcome>& outcomes,
                     const std::vector<compare::SampledReviewRecord>* records) {
  GateRow row{"sampled", "Sampled review (no shifted prompt unreviewed)", {}, {}};
  fill_pair_cells<record::SampledOutcome>(
      row, table.lanes, outcomes, [&](const record::SampledOutcome& c) {
        return std::optional<GateCell>(
            sampled_cell(c, record_of(records, c.baseline, c.candidate)));
      });
  table.rows.push_back(std::move(row));
}

std::string four_places(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

// Top-1 agreement: the share of the candidate's answer tokens that are the baseline's own top-1
// under teacher forcing, against the plan's min_top1_agreement.
GateCell top1_cell(const record::CrossScoreRecord& cross) {
  GateCell cell;
  if (cross.status != "ok" || std::isnan(cross.top1_agreement)) {
    cell.status = GateStatus::Unsupported;
    cell.detail = cross.reason.empty() ? "cross-scoring unsupported" : cross.reason;
    return cell;
  }
  cell.score = four_places(cross.top1_agreement);
  cell.status =
      cross.top1_agreement >= cross.min_top1_agreement ? GateStatus::Pass : GateStatus::Fail;
  if (cell.status == GateStatus::Fail)
    cell.detail =
        "top-1 agreement " + cell.score + " is below " + four_places(cross.min_top1_agreement);
  return cell;
}

void add_top1_row(GateTable& table, const std::vector<record::PairOutcome>& outcomes) {
  GateRow row{"tokens.top1", "Token fidelity (top-1 agreement)", {}, {}};
  const PairCell cell_of = [&](const record::PairOutcome& c) -> std::optional<GateCell> {
    if (!c.tokens || !c.tokens->cross_score || !c.tokens->cross_score->has_bar())
      return std::nullopt;
    char buf[64];
    std::snprintf(buf, sizeof buf, "Token fidelity (top-1 agreement >= %.4g)",
                  c.tokens->cross_score->min_top1_agreement);
    row.label = buf;
    return top1_cell(*c.tokens->cross_score);
  };
  if (fill_pair_cells(row, table.lanes, outcomes, cell_of) > 0)
    table.rows.push_back(std::move(row));
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

void add_rows_of(GateTable& table, const ExperimentSection& e, int of_this_kind,
                 const std::vector<compare::ReviewRecord>* reviews,
                 const std::vector<compare::SampledReviewRecord>* sampled) {
  using K = record::ExperimentKind;
  if (!e.kind) return;  // a kind this version does not know adds no row
  switch (*e.kind) {
    case K::Gates:
      add_functional_rows(table, e, of_this_kind > 1);
      break;
    case K::ContextSweep:
      add_retrieval_row(table, e);
      break;
    case K::Regression: {
      // A regression that wrote no list of pairs (stopped before) has no rows.
      if (!record::member(e.more, "comparisons").is_array()) break;
      const std::vector<record::PairOutcome> outcomes = e.pair_outcomes();
      add_regression_row(table, outcomes, reviews);
      add_token_row(table, outcomes, reviews);
      add_top1_row(table, outcomes);
      break;
    }
    case K::SampledRegression:
      if (record::member(e.more, "comparisons").is_array())
        add_sampled_row(table, e.sampled_outcomes(), sampled);
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
}

// The rows of the run's experiments, in run order.
void add_experiment_rows(GateTable& table, const record::RunSummary& summary,
                         const std::vector<compare::ReviewRecord>* reviews,
                         const std::vector<compare::SampledReviewRecord>* sampled) {
  // Counted by the kind as written, so a kind this version does not know counts too.
  std::map<std::string, int> per_kind;
  for (const ExperimentSection& e : summary.experiments) ++per_kind[e.kind_name];
  for (const ExperimentSection& e : summary.experiments) {
    const int of_this_kind = per_kind[e.kind_name];
    const size_t first = table.rows.size();
    add_rows_of(table, e, of_this_kind, reviews, sampled);
    for (size_t i = first; i < table.rows.size(); ++i) {
      GateRow& row = table.rows[i];
      row.experiment = name_of(e);
      if (!e.is(record::ExperimentKind::Gates) && of_this_kind > 1) row.key += "@" + name_of(e);
    }
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
  if (!cell.note.empty()) text += " · " + cell.note;
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

GateTable build_gate_table(const record::RunSummary& summary, const std::vector<std::string>& lanes,
                           const std::vector<compare::ReviewRecord>* reviews,
                           const std::vector<ArtifactRecord>* artifacts,
                           const std::vector<compare::SampledReviewRecord>* sampled) {
  GateTable table;
  table.lanes = lanes;
  add_experiment_rows(table, summary, reviews, sampled);
  if (artifacts) add_artifacts_row(table, *artifacts);
  return table;
}

json gate_table_to_json(const GateTable& table) {
  json rows = json::array();
  for (const auto& row : table.rows) {
    json cells = json::array();
    for (size_t i = 0; i < row.cells.size() && i < table.lanes.size(); ++i) {
      json cell = {{"lane", table.lanes[i]},
                   {"status", gate_status_name(row.cells[i].status)},
                   {"score", row.cells[i].score},
                   {"detail", row.cells[i].detail}};
      if (!row.cells[i].note.empty()) cell["note"] = row.cells[i].note;
      cells.push_back(std::move(cell));
    }
    rows.push_back({{"key", row.key},
                    {"label", row.label},
                    {"experiment", row.experiment},
                    {"cells", std::move(cells)}});
  }
  return {{"lanes", table.lanes}, {"rows", std::move(rows)}};
}

}  // namespace lb::report
