#pragma once
// Field-by-field reading of a JSON plan that records every problem under the JSON path of the
// field it concerns, instead of stopping at the first. Internal to plan parsing.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/plan/plan.h"

namespace lb::plan::detail {

std::string key_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, size_t index);
// The candidate closest to `word` by edit distance, when close enough to be a likely typo.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);
// " (did you mean 'x'?)" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

class ErrorList {
 public:
  void add(std::string path, std::string message) {
    errors_.push_back({std::move(path), std::move(message)});
  }
  const std::vector<PlanError>& errors() const { return errors_; }
  size_t size() const { return errors_.size(); }

 private:
  std::vector<PlanError> errors_;
};

struct IntRange {
  int64_t min = 0;
  int64_t max = INT64_MAX;
};

// Reads the members of one JSON object at `path`. Each getter returns true when the key was
// present and valid (and writes `out`), false otherwise; a missing optional key leaves `out`
// (its default) alone. finish() reports the keys no getter asked for.
class ObjectReader {
 public:
  ObjectReader(const nlohmann::json& value, std::string path, ErrorList& errors);
  bool is_object() const { return object_ != nullptr; }
  const std::string& path() const { return path_; }
  bool has(std::string_view key) const;
  bool has_boolean(std::string_view key) const;  // present and true/false
  // Marks a key as known without reading it (read elsewhere).
  void allow(std::string_view key) { known_.emplace(key); }

  bool string(std::string_view key, std::string& out, bool required = false);
  bool boolean(std::string_view key, bool& out, bool required = false);
  bool integer(std::string_view key, int64_t& out, IntRange range, bool required = false);
  // Numbers must lie in [min, max]; with min_exclusive, in (min, max].
  bool number(std::string_view key, double& out, double min, double max, bool min_exclusive,
              bool required = false);
  // A list of integers; a single integer is accepted as a one-element list when allowed.
  bool integer_list(std::string_view key, std::vector<int64_t>& out, IntRange range,
                    bool allow_scalar, bool required = false);
  bool string_list(std::string_view key, std::vector<std::string>& out, bool required = false);
  // The member for nested reading (nullptr when missing); reports wrong JSON types.
  const nlohmann::json* member(std::string_view key, nlohmann::json::value_t type,
                               bool required = false);
  void finish();
  void error(std::string_view key, std::string message);  // at path.key
  void error_here(std::string message);                   // at path

 private:
  const nlohmann::json* find(std::string_view key, bool required);
  bool read_integer(const nlohmann::json& v, const std::string& where, int64_t& out,
                    IntRange range);

  const nlohmann::json* object_ = nullptr;
  std::string path_;
  ErrorList& errors_;
  std::set<std::string, std::less<>> known_;
};

// Lane and experiment readers (plan_validation_lanes.cpp, plan_validation_experiments.cpp).
std::vector<Lane> read_lanes(const nlohmann::json& lanes, ErrorList& errors);
std::vector<Experiment> read_experiments(const nlohmann::json& experiments,
                                         const std::vector<Lane>& lanes, ErrorList& errors);
// trials, lane_order and performance_gates of one experiment (plan_validation_trials.cpp).
void read_trial_options(ObjectReader& r, Experiment& e, const std::vector<Lane>& lanes,
                        ErrorList& errors);
// Adds them to an experiment's resolved JSON (plan.json), defaults filled in.
void add_trial_options_json(const Experiment& e, nlohmann::json& j);
// Reports keys that appear twice in one object (the parser would keep only the last).
void find_duplicate_keys(std::string_view json_text, ErrorList& errors);
// A lane's "launch" block (plan_validation_launch.cpp); reports {port} without one.
void read_launch(ObjectReader& lane_reader, Lane& lane, ErrorList& errors);
// The plan's "sweep" and "objective" (plan_validation_sweep.cpp); needs the lanes read.
void read_sweep(const nlohmann::json& top_value, ObjectReader& top, Plan& plan, ErrorList& errors);
// The plan's "split" (plan_validation_split.cpp); needs the lanes, experiments and sweep read.
void read_split(ObjectReader& top, Plan& plan, ErrorList& errors);
// Checks a base_url; returns an error message or "" and fills the sim fields of `lane`.
std::string check_base_url(Lane& lane);

}  // namespace lb::plan::detail
