#pragma once
// Lane output files: texts/<lane>.texts.json in a run folder, a JSON array of output strings in
// prompt order (the format of the field report's vllm_bf16_conc1.texts.json).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::compare {

struct TextsResult {
  std::optional<std::vector<std::string>> texts;
  std::string error;  // "PATH: element 3 is a number, expected a string" and the like
  bool ok() const { return texts.has_value(); }
};

TextsResult parse_texts_json(std::string_view json_text, std::string_view source_name);
TextsResult load_texts_file(const std::string& path);
// RUN_DIR/texts/LANE.texts.json
std::string lane_texts_path(const std::string& run_dir, const std::string& lane);
// "RUN_DIR:LANE" when the text before the last ':' is a directory; otherwise a file path.
// Returns the texts file path either way.
std::string resolve_texts_argument(const std::string& argument);

}  // namespace lb::compare
