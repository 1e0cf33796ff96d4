#pragma once
// What a review of a run's regression reads of its folder besides the outputs: the plan's lanes
// and first regression (its prompt set and similarity threshold), and per lane the prompts whose
// answers changed under load (summary.json's regression lanes.<id>.load_baseline.batch_variant).
// Read bounded and tolerantly: what is of the wrong shape is noted as
// "damaged: plan.json: experiments[0].kind is a list, not a string" and the rest still reads.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lb::record {

struct RegressionPlanInputs {
  std::vector<std::string> lanes;              // lanes[].id in plan order
  std::string prompt_set_ref;                  // the first regression's prompt set; "" without one
  std::optional<double> similarity_threshold;  // the first regression's, when written
  std::vector<std::string> damage;
};

// DIR/plan.json; its damage is noted under LABEL ("plan.json", "other-run/plan.json"). Nothing
// when the file is absent.
RegressionPlanInputs read_regression_plan_inputs(const std::string& dir, const std::string& label);

// DIR/summary.json's first regression: per lane, the indexes of its batch-variant prompts; a
// lane without a load baseline is absent. DAMAGE gets what could not be read.
std::map<std::string, std::set<size_t>> read_batch_variant_prompts(
    const std::string& dir, std::vector<std::string>& damage);

}  // namespace lb::record
