#pragma once
// One JSON object file of a run folder, read the way every listing of runs reads it: bounded,
// never waiting on a FIFO planted in its place, never throwing.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::record {

// DIR/NAME as a JSON object. Null when absent (a run killed early has no summary yet); null and
// one problem naming the file when it cannot be read, is not JSON or is not an object
// ("summary.json: not valid JSON").
nlohmann::json read_json_object_file(const std::string& dir, const char* name,
                                     std::vector<std::string>& problems);

}  // namespace lb::record
