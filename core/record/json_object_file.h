#pragma once
// One JSON object file of a run folder, read the way every listing of runs reads it: bounded,
// never waiting on a FIFO planted in its place, never throwing.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// The text of DIR/NAME, at most 256 MiB (far above any file a run writes), read without waiting
// on a FIFO. nullopt with *error empty when the file is absent, else with the reason it cannot be
// read ("a FIFO, not a regular file; refused"), without the path.
std::optional<std::string> read_run_file(const std::string& dir, const std::string& name,
                                         std::string* error);

// DIR/NAME as a JSON object. Null when absent (a run killed early has no summary yet); null and
// one problem naming the file when it cannot be read, is not JSON or is not an object
// ("summary.json: not valid JSON").
nlohmann::json read_json_object_file(const std::string& dir, const char* name,
                                     std::vector<std::string>& problems);

}  // namespace lb::record
