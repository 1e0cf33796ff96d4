#include "core/interop/vllm_export.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <tuple>

#include "core/files/line_reader.h"
#include "core/files/regular_file.h"
#include "core/interop/json_fields.h"
#include "core/metrics/inter_token_gaps.h"
#include "core/record/run_summary.h"

namespace lb::interop {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using PhaseKey = std::tuple<std::string, std::string, std::string>;  // experiment, lane, phase

// vLLM's per-request arrays, in request (finish) order.
struct Detail {
  json input_lens = json::array(), output_lens = json::array(), ttfts = json::array(),
       itls = json::array(), latencies = json::array(), start_times = json::array(),
       queue_times = json::array(), errors = json::array();
  std::string model;  // as the server named it
};

double number_or(const json& line, const char* key, double fallback) {
  return line.contains(key) && line[key].is_number() ? line[key].get<double>() : fallback;
}

// A failed request is recorded as vLLM records one: ttft 0, no gaps, latency 0, 0 tokens.
void add_request(const json& line, Detail& d) {
  const bool ok = bool_or(line, "ok", false);
  d.input_lens.push_back(std::llround(std::max(0.0, number_or(line, "prompt_tokens", 0))));
  d.output_lens.push_back(ok ? std::llround(std::max(0.0, number_or(line, "output_tokens", 0)))
                             : 0);
  d.ttfts.push_back(ok ? number_or(line, "ttft_ms", 0) / 1000.0 : 0.0);
  d.latencies.push_back(ok ? number_or(line, "e2el_ms", 0) / 1000.0 : 0.0);
  d.start_times.push_back(number_or(line, "t_sent_ns", 0) / 1e9);
  d.queue_times.push_back(std::max(0.0, number_or(line, "queue_delay_ms", 0)) / 1000.0);
  json gaps = json::array();  // vLLM's itls are in seconds
  if (ok && line.contains("event_offsets_ns"))
    for (double gap_ms : metrics::itl_ms_from_offsets(line["event_offsets_ns"]))
      gaps.push_back(gap_ms / 1000.0);
  d.itls.push_back(std::move(gaps));
  if (d.model.empty() && line.contains("model") && line["model"].is_string())
    d.model = line["model"].get<std::string>();
  std::string error;
  if (!ok) {
    const json* e = line.contains("error") && line["error"].is_object() ? &line["error"] : nullptr;
    error = e ? string_or(*e, "kind", "error") + ": " + string_or(*e, "message", "")
              : std::string("failed");
  }
  d.errors.push_back(error);
}

// Each request's details; none from a requests.jsonl that is absent or not a regular file (the
// export then carries the summary's aggregates alone).
std::map<PhaseKey, Detail> read_details(const fs::path& jsonl) {
  constexpr size_t kMaxLineBytes = 64 * files::kMiB;  // far above any request a run records
  std::map<PhaseKey, Detail> out;
  const auto add = [&out](std::string_view text) {
    const json line = json::parse(text, nullptr, false);
    if (!line.is_object() || bool_or(line, "warmup", false)) return;  // a cut last line too
    add_request(line, out[{string_or(line, "experiment", ""), string_or(line, "lane", ""),
                           string_or(line, "phase", "")}]);
  };
  files::read_lines(jsonl.string(), kMaxLineBytes, add, nullptr, nullptr);
  return out;
}

// "c32" is a closed loop of 32; "r2.5" an open loop at 2.5 req/s (LaneBench's phase names).
void put_traffic(const std::string& phase, json& r) {
  r["request_rate"] = "inf";
  r["burstiness"] = 1.0;
  r["max_concurrency"] = nullptr;
  char* end = nullptr;
  if (phase.size() > 1 && (phase[0] == 'c' || phase[0] == 'r')) {
    const double v = std::strtod(phase.c_str() + 1, &end);
    if (end && *end == '\0' && v > 0) {
      if (phase[0] == 'c')
        r["max_concurrency"] = std::llround(v);
      else
        r["request_rate"] = v;
    }
  }
}

// The phase's figures under vLLM's key names (metrics::to_json writes them so).
void put_aggregates(const metrics::LaneSummary& figures, json& r) {
  const json s = metrics::to_json(figures);
  for (const char* key :
       {"duration", "completed", "failed", "total_input_tokens", "total_output_tokens",
        "request_throughput", "request_goodput", "output_throughput", "total_token_throughput",
        "max_output_tokens_per_s", "max_concurrent_requests"})
    r[key] = s.contains(key) ? s[key] : json(nullptr);
  for (const char* stem : {"ttft", "tpot", "itl", "e2el"})
    for (const char* stat : {"mean", "median", "std", "p50", "p90", "p95", "p99"}) {
      const std::string key = std::string(stat) + "_" + stem + "_ms";
      if (s.contains(key)) r[key] = s[key];
    }
  if (figures.spec_acceptance_rate >= 0) {
    r["spec_decode_acceptance_rate"] = figures.spec_acceptance_rate * 100.0;
    auto known = [](double v) { return v >= 0 ? json(v) : json(nullptr); };
    r["spec_decode_acceptance_length"] = known(figures.spec_acceptance_length);
    auto count = [](int64_t v) { return v >= 0 ? json(v) : json(nullptr); };
    r["spec_decode_num_drafts"] = count(figures.spec_num_drafts);
    r["spec_decode_draft_tokens"] = count(figures.spec_num_draft_tokens);
    r["spec_decode_accepted_tokens"] = count(figures.spec_num_accepted_tokens);
  }
}

json result_object(const record::RunSummary& summary, const std::string& exp,
                   const std::string& lane, const record::PhaseRecord& phase,
                   const Detail* detail) {
  json r;
  r["date"] = summary.run.started_at;
  r["endpoint_type"] = "openai-chat";
  r["backend"] = "openai-chat";
  r["label"] = lane;
  r["model_id"] = detail && !detail->model.empty() ? json(detail->model) : json(nullptr);
  r["tokenizer_id"] = nullptr;
  r["num_prompts"] = phase.figures.completed + phase.figures.failed;
  put_traffic(phase.name, r);
  put_aggregates(phase.figures, r);
  if (detail) {
    for (const auto& [key, value] :
         {std::pair<const char*, const json*>{"input_lens", &detail->input_lens},
          {"output_lens", &detail->output_lens},
          {"ttfts", &detail->ttfts},
          {"itls", &detail->itls},
          {"latencies", &detail->latencies},
          {"start_times", &detail->start_times},
          {"queue_times", &detail->queue_times},
          {"errors", &detail->errors}})
      r[key] = *value;
  }
  // Extra keys, as vLLM's --metadata KEY=VALUE adds them: where the object came from.
  r["lanebench_experiment"] = exp;
  r["lanebench_lane"] = lane;
  r["lanebench_phase"] = phase.name;
  return r;
}

}  // namespace

VllmExport export_vllm_results(const std::string& run_dir, const std::string& lane_filter) {
  VllmExport out;
  const fs::path dir(run_dir);
  constexpr size_t kMaxSummaryBytes = 256 * files::kMiB;
  std::error_code ec;
  if (!fs::exists(dir / "summary.json", ec)) {
    out.error = run_dir + " is not a run folder (no summary.json)";
    return out;
  }
  std::string read_error;
  const auto text =
      files::read_regular_file((dir / "summary.json").string(), kMaxSummaryBytes, &read_error);
  if (!text) {
    out.error = read_error;
    return out;
  }
  const json doc = json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("experiments") || !doc["experiments"].is_array()) {
    out.error = (dir / "summary.json").string() + " is not a run summary (no experiments list)";
    return out;
  }
  record::FileFields fields("summary.json");
  const record::RunSummary summary = record::read_run_summary(doc, fields);
  const auto details = read_details(dir / "requests.jsonl");
  std::string lanes_seen;
  for (const record::ExperimentSection& e : summary.experiments)
    for (const record::LaneRecord& lane : e.lanes) {
      if (lane.phases.empty()) continue;
      if (lanes_seen.find(" " + lane.id + ",") == std::string::npos)
        lanes_seen += " " + lane.id + ",";
      if (!lane_filter.empty() && lane.id != lane_filter) continue;
      for (const record::PhaseRecord& phase : lane.phases) {
        const auto it = details.find({e.name, lane.id, phase.name});
        out.results.push_back(result_object(summary, e.name, lane.id, phase,
                                            it == details.end() ? nullptr : &it->second));
      }
    }
  if (out.results.empty()) {
    if (lanes_seen.size() > 1) lanes_seen.pop_back();
    out.error = !lane_filter.empty()
                    ? "the run has no lane " + lane_filter +
                          " (lanes:" + (lanes_seen.empty() ? std::string(" none") : lanes_seen) +
                          ")"
                    : "the run has no per-phase results to export";
    return out;
  }
  out.ok = true;
  return out;
}

std::string format_vllm_export(const std::vector<nlohmann::json>& results) {
  if (results.size() == 1)
    return results[0].dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  std::string text;
  for (const auto& r : results)
    text += r.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  return text;
}

}  // namespace lb::interop
