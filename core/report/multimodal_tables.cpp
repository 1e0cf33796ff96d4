// The report's multimodal gate table: per lane, its result and n/N per input kind (image, video,
// mixed), so a lane that answers images but not videos shows it, and a lane that refused media
// reads "multimodal unsupported" with the server's reason.
#include "report/json_access.h"
#include "report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

std::string kind_cell(const json& gate, const char* kind) {
  const json& k = json_at(gate, {"kinds", kind});
  return k.is_object() ? k.value("score", "") : "";
}

std::string result_cell(const json& gate) {
  const std::string status = gate.value("status", "");
  if (status != "unsupported") return status;
  const std::string why = gate.value("why", "");
  return gate.value("unsupported", "unsupported") + (why.empty() ? "" : " (" + why + ")");
}

ReportTable multimodal_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  const std::string name = string_at(e, {"name"});
  t.title = name.empty() || name == "gates" ? "Multimodal gate" : "Multimodal gate (" + name + ")";
  t.header = {"Lane", "Result", "Image", "Video", "Mixed", "All", "Prompt set"};
  for (const auto& lane : lanes) {
    const json& gate = json_at(e, {"lanes", lane.c_str(), "gates", "multimodal"});
    if (!gate.is_object()) continue;
    t.rows.push_back({lane, result_cell(gate), kind_cell(gate, "image"), kind_cell(gate, "video"),
                      kind_cell(gate, "mixed"), gate.value("score", ""),
                      gate.value("prompts", "")});
  }
  t.note =
      "Each prompt is sent once with its images and videos at temperature 0 and passes when "
      "every fact check of the prompt holds; n/N per input kind. Multimodal unsupported: the "
      "lane refused media (the server's reason in brackets), which is a result of its own, not "
      "a failed answer.";
  return t;
}

}  // namespace

std::vector<ReportTable> multimodal_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  const auto lanes = folder.lane_ids();
  for (const json* e : folder.experiments_of_kind("gates"))
    tables.push_back(multimodal_table(*e, lanes));
  return tables;
}

std::vector<std::string> multimodal_caveats(const RunFolder& folder) {
  std::vector<std::string> out;
  const auto lanes = folder.lane_ids();
  for (const json* e : folder.experiments_of_kind("gates")) {
    std::vector<std::string> with, without;
    for (const auto& lane : lanes) {
      const json& gate = json_at(*e, {"lanes", lane.c_str(), "gates", "multimodal"});
      if (!gate.is_object()) continue;
      (gate.value("status", "") == "unsupported" ? without : with)
          .push_back(lane + " (" + gate.value("score", "") + ")");
    }
    if (with.empty()) continue;
    for (const auto& lane : without)
      out.push_back("Lane " + lane.substr(0, lane.find(" (")) +
                    " is multimodal unsupported: it refused images and videos, while lane " +
                    with.front() +
                    " answered them. It is not a drop-in replacement for traffic with media.");
  }
  return out;
}

}  // namespace lb::report
