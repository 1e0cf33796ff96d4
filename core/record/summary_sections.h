#pragma once
// summary.json's experiment sections while a plan runs: those of the run the plan was added to,
// then one per experiment of the plan, in plan order. Managed lanes extend their experiments'
// sections after the other lanes ran, so a section is reached by the plan's experiment index, and
// the file's "experiments" list is made from the sections each time the summary is written (an
// experiment not started yet is not in it).
#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

class RunFolderWriter;

class SummarySections {
 public:
  // SUMMARY's "experiments" are the earlier run's; PLANNED experiments follow.
  SummarySections(nlohmann::json& summary, size_t planned);
  // The plan's experiment EXPERIMENT's section: null until it starts.
  nlohmann::json& operator[](size_t experiment) { return planned_.at(experiment); }
  size_t size() const { return planned_.size(); }
  // Puts the sections into the summary's "experiments" and writes summary.json.
  void write(RunFolderWriter& writer);
  // Puts the sections into the summary's "experiments".
  void settle();

 private:
  nlohmann::json& summary_;
  nlohmann::json earlier_;
  std::vector<nlohmann::json> planned_;
};

}  // namespace lb::record
