#include "core/report/requests_csv.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "core/files/confined_write.h"
#include "core/metrics/percentile.h"
#include "core/report/request_lines_reader.h"

namespace lb::report {
namespace {

std::string number(double v) {
  if (v < 0) return {};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

std::string count(int64_t v) { return v < 0 ? std::string() : std::to_string(v); }

}  // namespace

std::string csv_field(const std::string& text) {
  // A spreadsheet runs a cell that starts with one of these as a formula (=HYPERLINK(...)):
  // text from a run folder is made plain text with a leading apostrophe.
  const bool formula =
      !text.empty() && std::string_view("=+-@\t\r").find(text[0]) != std::string_view::npos;
  if (!formula && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = formula ? "\"'" : "\"";
  for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string requests_csv_header() {
  return "lane,experiment,phase,index,warmup,ok,ttft_ms,e2el_ms,tpot_ms,decode_tok_s,"
         "itl_median_ms,itl_p99_ms,events,output_tokens,output_tokens_provenance,prompt_tokens,"
         "prompt_tokens_provenance,error_kind\r\n";
}

void append_requests_csv_rows(const std::vector<RequestPoint>& points, std::string& out) {
  for (const auto& r : points) {
    std::vector<double> itl = r.itl_ms();
    std::sort(itl.begin(), itl.end());  // once for both figures
    const double itl_median_ms = itl.empty() ? -1 : metrics::percentile_sorted(itl, 50);
    const double itl_p99_ms = itl.empty() ? -1 : metrics::percentile_sorted(itl, 99);
    const std::string fields[] = {csv_field(r.lane),
                                  csv_field(r.experiment),
                                  csv_field(r.phase),
                                  std::to_string(r.index),
                                  r.warmup ? "true" : "false",
                                  r.ok ? "true" : "false",
                                  number(r.ttft_ms),
                                  number(r.e2el_ms),
                                  number(r.tpot_ms),
                                  number(r.decode_tok_s),
                                  number(itl_median_ms),
                                  number(itl_p99_ms),
                                  std::to_string(r.event_offsets_ns.size()),
                                  count(r.output_tokens),
                                  csv_field(r.output_tokens_provenance),
                                  count(r.prompt_tokens),
                                  csv_field(r.prompt_tokens_provenance),
                                  csv_field(r.error_kind)};
    for (size_t i = 0; i < std::size(fields); ++i) {
      if (i) out += ',';
      out += fields[i];
    }
    out += "\r\n";
  }
}

bool write_requests_csv(const RunFolder& folder, const std::string& out_dir,
                        const std::string& name, std::string* error) {
  std::string read_problem;
  const auto produce = [&](const files::PieceWriter& write) {
    std::string rows = requests_csv_header();
    bool written = true;
    const RequestBlockSink sink = [&](std::vector<RequestPoint>& points, double) {
      append_requests_csv_rows(points, rows);
      written = written && write(rows);
      rows.clear();
    };
    RequestLineCounts counts;
    const std::filesystem::path requests = std::filesystem::path(folder.dir) / "requests.jsonl";
    std::error_code ec;
    if (std::filesystem::exists(requests, ec) && !read_request_lines(requests, sink, counts)) {
      read_problem =
          counts.warnings.empty() ? "requests.jsonl cannot be read" : counts.warnings.back();
      return false;
    }
    return written && write(rows);
  };
  if (files::write_confined_pieces(out_dir, name, produce, error)) return true;
  if (error && !read_problem.empty()) *error = name + " not written: " + read_problem;
  return false;
}

}  // namespace lb::report
