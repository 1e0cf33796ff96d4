// The report's SLO capacity tables (docs/capacity.md): per lane the capacity, the goodput at it
// and the binding SLO, then every probe sorted by load, the curve of each SLO figure against
// load.
#include <algorithm>

#include "core/record/experiment_kind.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

std::string slo_text(const json& e) {
  std::string out;
  if (const double ttft = number_at(e, {"slo", "ttft_p99_ms"}); ttft > 0)
    out += "TTFT p99 <= " + format_number(ttft, 0) + " ms";
  if (const double tpot = number_at(e, {"slo", "tpot_p99_ms"}); tpot > 0)
    out += (out.empty() ? "" : ", ") + std::string("TPOT p99 <= ") + format_number(tpot, 1) + " ms";
  return out.empty() ? "none" : out;
}

std::string titled(const std::string& base, const json& e) {
  const std::string name = string_at(e, {"name"});
  return name.empty() || name == record::to_string(record::ExperimentKind::Capacity)
             ? base
             : base + " (" + name + ")";
}

ReportTable summary_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("SLO capacity", e);
  t.header = {"Lane",        "Capacity",     "Unit",   "Goodput at capacity (req/s)",
              "Binding SLO", "Failing load", "Probes", "Stopped by"};
  for (const auto& lane : lanes) {
    const json& c = json_at(e, {"lanes", lane.c_str(), "capacity"});
    if (!c.is_object()) continue;
    const double capacity = number_at(c, {"capacity"});
    std::string cell = capacity < 0 ? "none met the SLOs" : format_number(capacity, 2);
    if (json_at(c, {"reached_max_load"}) == true) cell = ">= " + cell;
    const std::string binding = string_at(c, {"binding_slo"});
    t.rows.push_back(
        {lane, cell, string_at(c, {"unit"}), format_number(number_at(c, {"goodput_req_s"}), 2),
         binding.empty() ? "n/a" : binding, format_number(number_at(c, {"failing_load"}), 2),
         format_number(number_at(c, {"probe_count"}), 0), string_at(c, {"stopped_by"})});
  }
  t.note = "SLOs: " + slo_text(e) +
           ". Highest load at which every SLO held, by doubling then bisection; warm-ups "
           "discarded (measured).";
  return t;
}

ReportTable probes_table(const json& e, const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = titled("SLO capacity probes", e);
  t.header = {"Lane", "Load", "TTFT p99 (ms)", "TPOT p99 (ms)", "Goodput (req/s)", "Verdict"};
  for (const auto& lane : lanes) {
    const json& probes = json_at(e, {"lanes", lane.c_str(), "capacity", "probes"});
    if (!probes.is_array()) continue;
    std::vector<const json*> sorted;
    for (const auto& p : probes) sorted.push_back(&p);
    std::sort(sorted.begin(), sorted.end(), [](const json* a, const json* b) {
      return number_at(*a, {"load"}) < number_at(*b, {"load"});
    });
    for (const json* p : sorted) {
      const bool pass = json_at(*p, {"pass"}) == true;
      t.rows.push_back({sorted.front() == p ? lane : "", format_number(number_at(*p, {"load"}), 2),
                        format_number(number_at(*p, {"ttft_p99_ms"}), 1),
                        format_number(number_at(*p, {"tpot_p99_ms"}), 2),
                        format_number(number_at(*p, {"goodput_req_s"}), 2),
                        pass ? "pass" : "fail: " + string_at(*p, {"binding"})});
    }
  }
  t.note = "Every probe of the search, by load: each SLO figure against load.";
  return t;
}

}  // namespace

std::vector<ReportTable> capacity_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  const auto lanes = folder.lane_ids();
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Capacity)) {
    tables.push_back(summary_table(*e, lanes));
    tables.push_back(probes_table(*e, lanes));
  }
  return tables;
}

}  // namespace lb::report
