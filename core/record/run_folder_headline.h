#pragma once
// What a list of run folders shows of one folder, read without loading it: the plan's name, lanes
// and experiment kinds, how many request lines were written, whether the run finished, and the
// decision saved. Read before the window shows and on every refresh, so it never waits on a FIFO
// planted as a run's file, never reads a file larger than any run writes, and never throws: a
// folder written by another tool, an older version or a colleague is listed with what could be
// read, and each thing that could not is a problem naming the file and the field.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

struct RunFolderHeadline {
  std::string plan_name;
  std::vector<std::string> lanes;        // plan.json lanes[].id
  std::vector<std::string> experiments;  // plan.json experiments[].kind
  int64_t request_lines = 0;             // lines in requests.jsonl
  bool has_review = false;               // review.json or review.<candidate>.json
  // False when the run was stopped or killed before it finished (summary.json missing, without
  // run.finished_at, or marked interrupted).
  bool complete = false;
  // A run merged from shards with some left out (lanebench-cli merge --partial).
  bool partial = false;
  std::string decision;  // decision.json's decision ("promote", ...), empty when none was saved
  // "plan.json: lanes[0].id is not a string", "summary.json: not valid JSON", ...
  std::vector<std::string> problems;
};

// Whether summary.json's "run" object says the run ended on its own: finished_at is a date and
// interrupted is absent or false. The one rule for "finished" (the Runs list, shards, the merge).
bool run_finished(const nlohmann::json& run);

// Whether DIR holds a run (plan.json or requests.jsonl): other folders beside runs are skipped.
bool looks_like_run_folder(const std::string& dir);

RunFolderHeadline read_run_folder_headline(const std::string& dir);

}  // namespace lb::record
