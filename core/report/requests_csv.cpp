#include "core/report/requests_csv.h"

#include <cstdio>
#include <vector>

#include "core/metrics/percentile.h"

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

std::string requests_csv(const RunFolder& folder) {
  std::string out =
      "lane,experiment,phase,index,warmup,ok,ttft_ms,e2el_ms,tpot_ms,decode_"
      "tok_s,itl_median_ms,"
      "itl_p99_ms,events,output_tokens,output_tokens_provenance,prompt_tokens,"
      "prompt_tokens_provenance,error_kind\r\n";
  for (const auto& r : folder.requests) {
    const std::vector<double> itl = r.itl_ms();
    const double itl_median_ms = itl.empty() ? -1 : metrics::percentile(itl, 50);
    const double itl_p99_ms = itl.empty() ? -1 : metrics::percentile(itl, 99);
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
    for (size_t i = 0; i < std::size(fields); ++i) out += (i ? "," : "") + fields[i];
    out += "\r\n";
  }
  return out;
}

}  // namespace lb::report
