#include "core/report/concurrency_knee.h"

#include "core/record/experiment_kind.h"
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {

using nlohmann::json;

namespace {

SweepSummary summary_of(const std::string& lane, const json& sweep) {
  SweepSummary s;
  s.lane = lane;
  s.mode = string_at(sweep, {"mode"});
  s.min_gain = number_at(sweep, {"min_gain"}, 0);
  const json& knee = json_at(sweep, {"knee"});
  if (const double c = number_at(knee, {"concurrency"}); c > 0) {
    s.knee_concurrency = static_cast<long long>(c);
    s.knee_output_tok_s = number_at(knee, {"output_tok_s"});
    s.knee_e2el_p99_ms = number_at(knee, {"e2el_p99_ms"});
    const json& reached = json_at(knee, {"reached"});
    s.knee_reached = reached.is_boolean() && reached.get<bool>();
  }
  const json& stopped = json_at(sweep, {"stopped"});
  if (const double at = number_at(stopped, {"at_concurrency"}); at > 0) {
    s.stopped_at = static_cast<long long>(at);
    s.stop_reason = string_at(stopped, {"reason"});
    s.stop_detail = string_at(stopped, {"detail"});
  }
  return s;
}

}  // namespace

std::vector<SweepSummary> sweep_summaries(const json& summary,
                                          const std::vector<std::string>& lanes) {
  std::vector<SweepSummary> out;
  const json& experiments = json_at(summary, {"experiments"});
  if (!experiments.is_array()) return out;
  for (const json& e : experiments) {
    if (!e.is_object() || !e.contains("kind") || !e["kind"].is_string() ||
        record::experiment_kind_from(e["kind"].get<std::string>()) !=
            record::ExperimentKind::Throughput)
      continue;
    std::vector<std::string> names = lanes;
    if (names.empty() && json_at(e, {"lanes"}).is_object())
      for (const auto& [name, section] : json_at(e, {"lanes"}).items()) names.push_back(name);
    for (const std::string& lane : names) {
      const json& sweep = json_at(e, {"lanes", lane.c_str(), "concurrency_sweep"});
      if (sweep.is_object()) out.push_back(summary_of(lane, sweep));
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
