#pragma once
// requests.csv: one row per recorded request with the figures a spreadsheet needs (no prompts, no
// outputs, no error messages: those can carry private text). Written straight from requests.jsonl
// block by block, so a report of a million requests never holds them.
#include <string>
#include <vector>

#include "core/report/run_folder.h"

namespace lb::report {

// The header row, then one row per point: what write_requests_csv writes.
std::string requests_csv_header();
void append_requests_csv_rows(const std::vector<RequestPoint>& points, std::string& out);

// FOLDER's requests.jsonl as OUT_DIR/NAME (a confined write, whole or not at all). False with
// *error when the file cannot be written or requests.jsonl cannot be read.
bool write_requests_csv(const RunFolder& folder, const std::string& out_dir,
                        const std::string& name, std::string* error);

// RFC 4180 field quoting.
std::string csv_field(const std::string& text);

}  // namespace lb::report
