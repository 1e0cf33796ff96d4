#pragma once
// requests.jsonl read in blocks, each block's lines parsed on every core and handed on in file
// order. Neither the file nor its JSON stays in memory: a caller that folds the points as they
// come (the Runs page's charts) holds none of them at all.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/report/run_folder.h"

namespace lb::report {

struct RequestLineCounts {
  int64_t records = 0;     // lines that are request records
  int64_t torn_lines = 0;  // lines that are not (a kill cuts the last one short)
  // The first ten such lines, each with its 1-based line number, then their count; a file that
  // could not be read to its end.
  std::vector<std::string> warnings;
};

// False when the file cannot be opened or is not a regular file (a FIFO, a device): the reason
// is the last warning.
bool read_request_lines(const std::filesystem::path& path, const RequestBlockSink& sink,
                        RequestLineCounts& counts);

// Every point kept, in file order.
struct RequestLines {
  std::vector<RequestPoint> points;
  RequestLineCounts counts;
};
bool read_request_lines(const std::filesystem::path& path, RequestLines& out);

}  // namespace lb::report
