#pragma once
// Reading a result file of another benchmark tool: the bytes, the JSON (one document, or one
// per line as vLLM's --append-result writes), the format (given or recognised), the reader.
#include <string>

#include "core/interop/imported_benchmark.h"

namespace lb::interop {

// Errors name the file (by its name, as given) and say what was expected.
ImportReadResult read_import_file(const std::string& path, ImportFormat format);

// The same on bytes already in memory; `file_name` is used in messages.
ImportReadResult read_import_text(const std::string& text, const std::string& file_name,
                                  ImportFormat format);

}  // namespace lb::interop
