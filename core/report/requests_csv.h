#pragma once
// requests.csv: one row per recorded request with the figures a spreadsheet
// needs (no prompts, no outputs, no error messages: those can carry private
// text).
#include <string>

#include "core/report/run_folder.h"

namespace lb::report {

std::string requests_csv(const RunFolder& folder);
// RFC 4180 field quoting.
std::string csv_field(const std::string& text);

}  // namespace lb::report
