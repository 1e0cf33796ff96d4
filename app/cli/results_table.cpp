#include "results_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace lb::cli {
namespace {

std::string number(double v, int decimals) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

using Figure = double (*)(const metrics::LaneSummary&);

// "x [lo, hi]" when the phase has an interval for the figure; the reason after the figure when
// the summary says why it has none ("n/a (1 trial)").
std::string with_interval(const record::PhaseRecord& phase, Figure figure, const char* key,
                          int decimals) {
  std::string value = number(figure(phase.figures), decimals);
  const auto unavailable = phase.more.find("intervals_unavailable");
  if (unavailable != phase.more.end() && unavailable->is_object() && unavailable->contains(key) &&
      (*unavailable)[key].is_string())
    return value + " [" + (*unavailable)[key].get<std::string>() + "]";
  const record::Interval* i = phase.interval(key);
  if (!i) return value;
  const auto estimate = i->more.find("estimate");  // over trials: the mean of their figures
  if (estimate != i->more.end() && estimate->is_number())
    value = number(estimate->get<double>(), decimals);
  return value + " [" + number(i->lo, decimals) + ", " + number(i->hi, decimals) + "]";
}

// One line per lane comparison: "throughput: fp8/bf16 c1 decode p50 1.783 [1.780, 1.786]:
// faster (95 %)", then each performance gate's statement.
std::string verdict_lines(const record::RunSummary& summary) {
  std::string out;
  for (const record::ExperimentSection& e : summary.experiments) {
    for (const record::Comparison& c : e.comparisons)
      if (!c.statement.empty()) out += e.name + ": " + c.statement + "\n";
    const auto gates = e.more.find("performance_gates");
    if (gates == e.more.end() || !gates->is_array()) continue;
    for (const auto& g : *gates)
      if (g.is_object() && g.contains("statement") && g["statement"].is_string())
        out += e.name + ": gate " + g["statement"].get<std::string>() + "\n";
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

std::string format_results_table(const record::RunSummary& summary) {
  std::vector<Row> rows;
  rows.push_back({"experiment", "lane", "phase", "completed", "errors", "median TTFT ms",
                  "median decode tok/s", "output tok/s", "p99 ITL ms"});
  for (const record::ExperimentSection& e : summary.experiments)
    for (const record::LaneRecord& lane : e.lanes)
      for (const record::PhaseRecord& p : lane.phases) {
        const metrics::LaneSummary& s = p.figures;
        rows.push_back({e.name, lane.id, p.name, std::to_string(s.completed),
                        std::to_string(s.failed),
                        with_interval(
                            p, [](const metrics::LaneSummary& f) { return f.ttft_ms.median; },
                            "median_ttft_ms", 1),
                        with_interval(
                            p, [](const metrics::LaneSummary& f) { return f.decode_tok_s.median; },
                            "median_decode_tok_s", 1),
                        with_interval(
                            p, [](const metrics::LaneSummary& f) { return f.output_throughput; },
                            "output_throughput", 1),
                        number(s.itl_ms.p99, 1)});
      }
  return render(rows) + verdict_lines(summary);
}

}  // namespace lb::cli
