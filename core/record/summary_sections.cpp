#include "core/record/summary_sections.h"

#include "core/record/run_folder_writer.h"

namespace lb::record {

SummarySections::SummarySections(nlohmann::json& summary, size_t planned)
    : summary_(summary), planned_(planned) {
  const auto it = summary.find("experiments");
  earlier_ = it != summary.end() && it->is_array() ? *it : nlohmann::json::array();
}

void SummarySections::settle() {
  nlohmann::json list = earlier_;
  for (const nlohmann::json& section : planned_)
    if (!section.is_null()) list.push_back(section);
  summary_["experiments"] = std::move(list);
}

void SummarySections::write(RunFolderWriter& writer) {
  settle();
  writer.write_json("summary.json", summary_);
}

}  // namespace lb::record
