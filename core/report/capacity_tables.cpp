// The report's SLO capacity tables (docs/capacity.md): per lane the capacity, the goodput at it
// and the binding SLO, then every probe sorted by load, the curve of each SLO figure against
// load.
#include <algorithm>

#include "core/record/run_summary.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"

namespace lb::report {
namespace {

std::string slo_text(const record::CapacitySlo& slo) {
  std::string out;
  if (slo.ttft_p99_ms > 0) out += "TTFT p99 <= " + format_number(slo.ttft_p99_ms, 0) + " ms";
  if (slo.tpot_p99_ms > 0)
    out += (out.empty() ? "" : ", ") + std::string("TPOT p99 <= ") +
           format_number(slo.tpot_p99_ms, 1) + " ms";
  return out.empty() ? "none" : out;
}

ReportTable summary_table(const record::ExperimentSection& e,
                          const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("SLO capacity", e);
  t.header = {"Lane",        "Capacity",     "Unit",   "Goodput at capacity (req/s)",
              "Binding SLO", "Failing load", "Probes", "Stopped by"};
  for (const auto& lane : lanes) {
    const record::LaneRecord* section = e.lane(lane);
    const std::optional<record::CapacityRecord> c = section ? section->capacity() : std::nullopt;
    if (!c) continue;
    std::string cell = std::isnan(c->capacity) || c->capacity < 0 ? "none met the SLOs"
                                                                  : format_number(c->capacity, 2);
    if (c->reached_max_load) cell = ">= " + cell;
    t.rows.push_back({lane, cell, c->unit, format_number(c->goodput_req_s, 2),
                      c->binding_slo.empty() ? "n/a" : c->binding_slo,
                      format_number(c->failing_load, 2), format_number(c->probe_count, 0),
                      c->stopped_by});
  }
  t.note = "SLOs: " + slo_text(e.capacity_slo()) +
           ". Highest load at which every SLO held, by doubling then bisection; warm-ups "
           "discarded (measured).";
  return t;
}

ReportTable probes_table(const record::ExperimentSection& e,
                         const std::vector<std::string>& lanes) {
  ReportTable t;
  t.title = section_title("SLO capacity probes", e);
  t.header = {"Lane", "Load", "TTFT p99 (ms)", "TPOT p99 (ms)", "Goodput (req/s)", "Verdict"};
  for (const auto& lane : lanes) {
    const record::LaneRecord* section = e.lane(lane);
    const std::optional<record::CapacityRecord> c = section ? section->capacity() : std::nullopt;
    if (!c) continue;
    std::vector<record::CapacityProbeRecord> sorted = c->probes;
    // By load, a probe without one first (as an unknown load read as -1 sorted before).
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return (std::isnan(a.load) ? -1 : a.load) < (std::isnan(b.load) ? -1 : b.load);
    });
    for (size_t i = 0; i < sorted.size(); ++i) {
      const record::CapacityProbeRecord& p = sorted[i];
      t.rows.push_back({i == 0 ? lane : "", format_number(p.load, 2),
                        format_number(p.ttft_p99_ms, 1), format_number(p.tpot_p99_ms, 2),
                        format_number(p.goodput_req_s, 2), p.pass ? "pass" : "fail: " + p.binding});
    }
  }
  t.note = "Every probe of the search, by load: each SLO figure against load.";
  return t;
}

}  // namespace

std::vector<ReportTable> capacity_tables(const RunFolder& folder) {
  std::vector<ReportTable> tables;
  const auto lanes = folder.lane_ids();
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Capacity)) {
    tables.push_back(summary_table(*e, lanes));
    tables.push_back(probes_table(*e, lanes));
  }
  return tables;
}

}  // namespace lb::report
