#pragma once
// The gate table of a qualification (rows gates, columns lanes), built from the run's record: the
// functional gates experiment's n/N scores, long-context retrieval per lane and the regression
// review of each candidate lane. Used by the report writers and the Decision page.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/compare/review_record.h"
#include "core/compare/sampled_verdicts.h"
#include "core/record/run_summary.h"

namespace lb::report {

struct ArtifactRecord;

// Stopped: the user stopped the run while the gate was being attempted; it neither passed nor
// failed.
using GateStatus = record::GateStatus;
// "pass", "fail", "unsupported", "not run", "stopped" (record::to_string)
const char* gate_status_name(GateStatus status);

struct GateCell {
  GateStatus status = GateStatus::NotRun;
  std::string score;   // "3/3" when the gate counts attempts; empty otherwise
  std::string detail;  // why it failed or is unsupported ("baseline" for the reference lane)
  std::string note;    // what the cell says after its score ("3 material"); empty for none
};

struct GateRow {
  std::string key;              // stable id, e.g. "gates.json", "retrieval", "regression"
  std::string label;            // what a reader sees, e.g. "JSON schema output"
  std::string experiment;       // the run's experiment it comes from; "verification" for artifacts
  std::vector<GateCell> cells;  // one per GateTable::lanes entry
};

struct GateTable {
  std::vector<std::string> lanes;
  std::vector<GateRow> rows;
  bool empty() const { return rows.empty(); }
  // Counts over all cells.
  int count(GateStatus status) const;
};

// The text of one cell: "pass 3/3", "fail 1/3", "unsupported", "not run", or the detail of a
// cell that was not judged ("baseline", "review pending: 2 pair(s)").
std::string cell_text(const GateCell& cell);
// Human label of a gates experiment check ("tools" -> "Parallel tool calls").
std::string gate_label(const std::string& check);
// The gates experiment's checks this table knows by name, in the product's order.
const std::vector<std::string>& gate_check_names();

// Lanes in the given order; rows in run order, each naming its experiment (a run that holds a
// kind twice, e.g. after an experiment was added to it, keys its rows KEY@NAME). A lane an
// experiment did not cover is "not run". REVIEWS (review.json records, with verdicts given since
// the run) decide the regression row when given; a candidate whose divergent pairs still await
// verdicts is "review pending". ARTIFACTS (checkpoint verifications attached to the run) add an
// "Artifacts verified" row when there is any; a lane without one is "not run" there. SAMPLED
// (sampled-review.json records) decide the sampled review's row: no `shifted` prompt unreviewed
// and none judged a blocker.
GateTable build_gate_table(const record::RunSummary& summary, const std::vector<std::string>& lanes,
                           const std::vector<compare::ReviewRecord>* reviews = nullptr,
                           const std::vector<ArtifactRecord>* artifacts = nullptr,
                           const std::vector<compare::SampledReviewRecord>* sampled = nullptr);

// {"lanes": [...], "rows": [{"key", "label", "experiment", "cells": [{"lane", "status", "score",
// "detail"}]}]}
nlohmann::json gate_table_to_json(const GateTable& table);

}  // namespace lb::report
