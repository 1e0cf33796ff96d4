#include "results_table.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace lb::cli {
namespace {

std::string number(const nlohmann::json& j, const char* key, int decimals) {
  if (!j.contains(key) || !j[key].is_number()) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, j[key].get<double>());
  return buf;
}

// "x [lo, hi]" when the phase has an interval for the figure (summary.json's "intervals"); the
// reason after the figure when the summary says why it has none ("n/a (1 trial)").
std::string with_interval(const nlohmann::json& phase, const char* key, int decimals) {
  std::string value = number(phase, key, decimals);
  if (phase.contains("intervals_unavailable") && phase["intervals_unavailable"].contains(key) &&
      phase["intervals_unavailable"][key].is_string())
    return value + " [" + phase["intervals_unavailable"][key].get<std::string>() + "]";
  if (!phase.contains("intervals") || !phase["intervals"].contains(key)) return value;
  const auto& i = phase["intervals"][key];
  if (i.contains("estimate")) value = number(i, "estimate", decimals);  // over trials: their mean
  return value + " [" + number(i, "lo", decimals) + ", " + number(i, "hi", decimals) + "]";
}

// One line per lane comparison: "throughput: fp8/bf16 c1 decode p50 1.783 [1.780, 1.786]:
// faster (95 %)".
std::string verdict_lines(const nlohmann::json& summary) {
  std::string out;
  for (const auto& exp : summary["experiments"]) {
    if (!exp.contains("comparisons")) continue;
    for (const auto& c : exp["comparisons"])
      if (c.contains("statement") && c["statement"].is_string())
        out += exp.value("name", "") + ": " + c["statement"].get<std::string>() + "\n";
    if (!exp.contains("performance_gates")) continue;
    for (const auto& g : exp["performance_gates"])
      if (g.contains("statement") && g["statement"].is_string())
        out += exp.value("name", "") + ": gate " + g["statement"].get<std::string>() + "\n";
  }
  return out;
}

using Row = std::vector<std::string>;

std::string render(const std::vector<Row>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      // Text columns (the first three) align left, numbers right.
      const std::string pad(width[i] - row[i].size(), ' ');
      out += i < 3 ? row[i] + pad : pad + row[i];
      out += i + 1 < row.size() ? "  " : "\n";
    }
  }
  return out;
}

}  // namespace

std::string format_results_table(const nlohmann::json& summary) {
  std::vector<Row> rows;
  rows.push_back({"experiment", "lane", "phase", "completed", "errors", "median TTFT ms",
                  "median decode tok/s", "output tok/s", "p99 ITL ms"});
  if (!summary.contains("experiments")) return render(rows);
  for (const auto& exp : summary["experiments"]) {
    if (!exp.contains("lanes")) continue;
    const std::string name = exp.value("name", "");
    for (const auto& [lane, lane_json] : exp["lanes"].items()) {
      if (!lane_json.contains("phases")) continue;
      std::vector<std::string> order;
      if (lane_json.contains("phase_order"))
        order = lane_json["phase_order"].get<std::vector<std::string>>();
      else
        for (const auto& item : lane_json["phases"].items()) order.push_back(item.key());
      for (const auto& phase : order) {
        if (!lane_json["phases"].contains(phase)) continue;
        const auto& s = lane_json["phases"][phase];
        rows.push_back({name, lane, phase, number(s, "completed", 0), number(s, "failed", 0),
                        with_interval(s, "median_ttft_ms", 1),
                        with_interval(s, "median_decode_tok_s", 1),
                        with_interval(s, "output_throughput", 1), number(s, "p99_itl_ms", 1)});
      }
    }
  }
  return render(rows) + verdict_lines(summary);
}

}  // namespace lb::cli
