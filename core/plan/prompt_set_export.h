#pragma once
// A prompt set written out as files: DIR/prompts.jsonl (the set in its JSONL format, each
// medium as a path under media/ or as its URL) and the media files, which load_prompt_set reads
// back to the same prompts and bytes; and DIR/media.json, one entry per file with its kind,
// MIME type, size in pixels, frames and fps, and for the built-in generated videos where the
// square is in the last frame (media/known_answer_items.h), so other video readers can be
// checked against what was drawn.
#include <string>

#include "plan/prompt_set.h"

namespace lb::plan {

struct PromptSetExport {
  std::string jsonl_path;     // DIR/prompts.jsonl
  std::string manifest_path;  // DIR/media.json
  int media_files = 0;
  std::string error;  // empty on success; names the file that could not be written
  bool ok() const { return error.empty(); }
};

PromptSetExport export_prompt_set(const PromptSet& set, const std::string& dir);

}  // namespace lb::plan
