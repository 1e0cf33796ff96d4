#include "core/report/concurrency_knee.h"

#include "core/report/report_model.h"

namespace lb::report {

std::vector<SweepSummary> sweep_summaries(const record::RunSummary& summary,
                                          const std::vector<std::string>& lanes) {
  std::vector<SweepSummary> out;
  for (const record::ExperimentSection* e : summary.of_kind(record::ExperimentKind::Throughput)) {
    std::vector<std::string> names = lanes;
    if (names.empty())
      for (const record::LaneRecord& lane : e->lanes) names.push_back(lane.id);
    for (const std::string& id : names) {
      const record::LaneRecord* lane = e->lane(id);
      if (!lane) continue;
      if (std::optional<record::ConcurrencySweepRecord> sweep = lane->concurrency_sweep()) {
        SweepSummary s{std::move(*sweep)};
        s.lane = id;
        out.push_back(std::move(s));
      }
    }
  }
  return out;
}

std::string describe_sweep(const SweepSummary& s) {
  std::string text;
  if (!s.knee_concurrency) {
    text = "no knee: no level completed a request";
  } else {
    text = "knee at " + std::to_string(*s.knee_concurrency) + " streams";
    std::string figures;
    if (s.knee_output_tok_s >= 0) figures = format_number(s.knee_output_tok_s, 1) + " tok/s";
    if (s.knee_e2el_p99_ms >= 0)
      figures += (figures.empty() ? "" : ", ") + std::string("E2EL p99 ") +
                 format_seconds(s.knee_e2el_p99_ms) + " s";
    if (!figures.empty()) text += " (" + figures + ")";
    if (!s.knee_reached) text += ", not reached: output still gained at the last level";
  }
  if (s.stopped_at) {
    text += "; stopped at " + std::to_string(*s.stopped_at) + " streams";
    if (!s.stop_detail.empty()) text += ": " + s.stop_detail;
  }
  return text;
}

}  // namespace lb::report
