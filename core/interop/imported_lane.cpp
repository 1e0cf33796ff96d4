#include "core/interop/imported_lane.h"

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/run/lanes/environment_info.h"

namespace lb::interop {
namespace {

using nlohmann::json;

constexpr const char* kImported = "imported";

// Every figure of an imported lane is the tool's measurement, whatever LaneBench would call it.
void mark_imported(json& provenance) {
  for (auto& [key, value] : provenance.items()) value = kImported;
}

// Without send times the run window is unknown: the tool's duration replaces it, and what is
// divided by it is recomputed; peaks that need the timeline are the tool's own.
void use_reported_window(const ImportedPhase& p, json& j) {
  if (p.has_send_times || p.reported_duration_s <= 0) return;
  const double d = p.reported_duration_s;
  j["duration"] = d;
  j["request_throughput"] = j["completed"].get<double>() / d;
  j["output_throughput"] = j["total_output_tokens"].get<double>() / d;
  j["total_token_throughput"] =
      (j["total_input_tokens"].get<double>() + j["total_output_tokens"].get<double>()) / d;
  for (const char* key : {"max_output_tokens_per_s", "max_concurrent_requests"})
    j[key] = p.reported.contains(key) ? p.reported[key] : json(nullptr);
}

json phase_summary(const ImportedPhase& p, const std::string& lane, const std::string& exp) {
  json j;
  if (p.per_request) {
    j = metrics::to_json(metrics::summarize(p.records));
    use_reported_window(p, j);
    mark_imported(j["provenance"]);
  } else {
    j = p.reported;  // vLLM's aggregates already use these key names
    json prov = json::object();
    for (const char* stem : {"duration", "ttft", "tpot", "itl", "e2el", "output_tokens",
                             "input_tokens", "request_throughput", "output_throughput"})
      prov[stem] = kImported;
    j["provenance"] = prov;
  }
  j["lane"] = lane;
  j["experiment"] = exp;
  j["phase"] = p.phase;
  j["interrupted"] = false;
  j["cancelled"] = p.cancelled;
  j["per_request"] = p.per_request;
  return j;
}

std::string request_line(metrics::RequestRecord& rec) {
  const metrics::RequestMetrics m = metrics::compute_request_metrics(rec);
  json line = metrics::to_json(rec, m);
  line["output_tokens_provenance"] = kImported;
  line["prompt_tokens_provenance"] = kImported;
  line["provenance"] = kImported;
  return line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

json source_json(const ImportedBenchmark& b, const std::string& file_name) {
  auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  return {{"tool", b.tool},
          {"tool_version", or_null(b.tool_version)},
          {"format", to_string(b.format)},
          {"file", file_name},
          {"model", or_null(b.model)},
          {"date", or_null(b.date)},
          {"imported_at", run::utc_now_iso8601()},
          {"notes", b.notes}};
}

}  // namespace

ImportedLane build_imported_lane(ImportedBenchmark& b, const std::string& lane_id,
                                 const std::string& exp, const std::string& file_name) {
  ImportedLane out;
  json& s = out.section;
  s["provenance"] = kImported;
  s["source"] = source_json(b, file_name);
  s["phases"] = json::object();
  s["phase_order"] = json::array();
  s["reported"] = json::object();
  s["tool_labels"] = json::object();
  for (auto& p : b.phases) {
    for (auto& rec : p.records) {
      rec.lane_id = lane_id;
      rec.experiment = exp;
      rec.phase = p.phase;
    }
    s["phases"][p.phase] = phase_summary(p, lane_id, exp);
    s["phase_order"].push_back(p.phase);
    s["reported"][p.phase] = p.reported;
    s["tool_labels"][p.phase] = p.tool_label;
    for (auto& rec : p.records) out.jsonl += request_line(rec);
    out.requests += static_cast<int64_t>(p.records.size());
    out.texts.insert(out.texts.end(), p.generated_texts.begin(), p.generated_texts.end());
    out.phases.push_back(p.phase);
  }
  return out;
}

}  // namespace lb::interop
