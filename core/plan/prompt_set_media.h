#pragma once
// The "media" field of a prompt-set line: images and videos by file path (relative to the set
// file's folder) or by http(s) URL. Files are read and decoded when the set is loaded, so an
// unreadable or unsupported file is reported then, by name, and not in the middle of a run.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/plan/prompt_set.h"

namespace lb::plan {

struct MediaFieldError {
  std::string field;  // e.g. "media[1].video"
  std::string message;
};

// `value` is the field's JSON; `base_dir` the folder relative paths start from ("" = the
// current directory). Appends to `out`; returns every problem found.
std::vector<MediaFieldError> parse_media_field(const nlohmann::json& value,
                                               const std::string& base_dir,
                                               std::vector<MediaRef>& out);

// The set file's folder: where its relative media paths start.
std::string media_base_dir(std::string_view source_name);

}  // namespace lb::plan
