#pragma once
// A prompt set written out as files: DIR/prompts.jsonl (the set in its JSONL format, each
// medium as a path under media/ or as its URL) and the media files, which load_prompt_set reads
// back to the same prompts and bytes; and DIR/media.json, one entry per file with its kind,
// MIME type, size in pixels, frames and fps, and for the built-in generated videos where the
// square is in the last frame (media/known_answer_items.h), so other video readers can be
// checked against what was drawn.
#include <map>
#include <string>

#include "core/plan/prompt_set.h"

namespace lb::plan {

struct PromptSetExport {
  std::string jsonl_path;     // DIR/prompts.jsonl
  std::string manifest_path;  // DIR/media.json
  int media_files = 0;
  std::string error;  // empty on success; names the file that could not be written
  bool ok() const { return error.empty(); }
};

PromptSetExport export_prompt_set(const PromptSet& set, const std::string& dir);

// The file name a medium is written under, without folder: its source's last part without
// extension ("builtin:multimodal-30/shapes-0" -> "shapes-0", unsafe characters as "_"), "-N"
// before the extension when TAKEN already holds that name for other bytes, and the MIME type's
// extension (".png", ".mp4", ".bin" when unknown).
std::string media_file_name(const MediaRef& medium,
                            const std::map<std::string, const std::string*>& taken);

}  // namespace lb::plan
