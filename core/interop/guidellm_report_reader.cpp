#include "core/interop/guidellm_report_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/interop/imported_request.h"
#include "core/interop/json_fields.h"
#include "core/interop/phase_names.h"

namespace lb::interop {
namespace {

// The first of several keys that is present, read through JsonFields (type-checked).
std::optional<double> first_number(JsonFields& f, const nlohmann::json* obj,
                                   std::initializer_list<const char*> keys) {
  if (!obj) return std::nullopt;
  for (const char* key : keys)
    if (auto v = f.number(*obj, key)) return v;
  return std::nullopt;
}

// GuideLLM keeps no per-token times: like GuideLLM itself, the iterations are spread evenly
// between the first and the last token.
ToolRequest tool_request(const nlohmann::json& req, JsonFields& f, bool errored) {
  const nlohmann::json* timings = find_path(req, {"info", "timings"});
  const nlohmann::json* sched = find_path(req, {"scheduler_info"});
  ToolRequest t;
  const auto start = first_number(f, timings, {"request_start", "resolve_start"});
  const auto start_old = f.number(req, "start_time");
  t.send_s = start ? *start : start_old.value_or(0);
  const auto end = first_number(f, timings, {"request_end", "resolve_end"});
  const auto end_old = f.number(req, "end_time");
  if (end || end_old) t.latency_s = (end ? *end : *end_old) - t.send_s;
  const auto first =
      timings ? f.number(*timings, "first_token_iteration") : f.number(req, "first_token_time");
  const auto last =
      timings ? f.number(*timings, "last_token_iteration") : f.number(req, "last_token_time");
  const auto targeted = timings ? f.number(*timings, "targeted_start")
                                : first_number(f, sched, {"targeted_start_time"});
  if (targeted && *targeted < t.send_s) t.queue_s = t.send_s - *targeted;
  t.prompt_tokens = f.integer(req, "prompt_tokens").value_or(-1);
  t.output_tokens = f.integer(req, "output_tokens").value_or(-1);
  int64_t iterations = timings ? f.integer(*timings, "token_iterations").value_or(0) : 0;
  if (iterations <= 0) iterations = std::max<int64_t>(t.output_tokens, 1);
  if (first) {
    t.ttft_s = std::max(0.0, *first - t.send_s);
    const double span_s = last && *last > *first ? *last - *first : 0.0;
    if (iterations > 1) t.gaps_s.assign(size_t(iterations - 1), span_s / double(iterations - 1));
  }
  const nlohmann::json* info = find_path(req, {"info"});
  std::optional<std::string> error = info ? f.string(*info, "error") : std::nullopt;
  if (!error) error = f.string(req, "error");
  if (errored) t.error = error && !error->empty() ? *error : "request errored (no message)";
  return t;
}

std::string strategy_phase(const nlohmann::json* s, JsonFields& f, std::string* label) {
  if (!s || !s->is_object()) {
    *label = "unknown strategy";
    return "guidellm";
  }
  const std::string type = f.string(*s, "type_").value_or("unknown");
  *label = type;
  if (type == "synchronous") return "c1";
  if (type == "concurrent") {
    const auto streams = f.integer(*s, "streams");
    *label += " streams=" + (streams ? std::to_string(*streams) : std::string("?"));
    return streams ? "c" + std::to_string(*streams) : "concurrent";
  }
  if (type == "constant" || type == "poisson") {
    const auto rate = f.number(*s, "rate");
    if (!rate) return type;
    *label += " rate=" + rate_phase_name(*rate).substr(1);
    // LaneBench's open loop is a Poisson process at burstiness 1: same name; a constant
    // rate is a different arrival process and says so.
    return rate_phase_name(*rate) + (type == "constant" ? "-constant" : "");
  }
  return type;  // "throughput": every request at once, no rate
}

// GuideLLM's distributions (successful requests) under LaneBench's key names. Its inter-token
// latency is per request (last - first) / (tokens - 1): the quantity LaneBench and vLLM call TPOT.
void put_reported(const nlohmann::json* metrics, const char* tool_key, const char* stem,
                  double scale, nlohmann::json& out) {
  const nlohmann::json* d = metrics ? find_path(*metrics, {tool_key, "successful"}) : nullptr;
  if (!d || !d->is_object()) return;
  auto put = [&](const std::string& key, const nlohmann::json* v) {
    if (v && v->is_number()) out[key] = v->get<double>() * scale;
  };
  const std::string tail = std::string("_") + stem + "_ms";
  put("mean" + tail, find_path(*d, {"mean"}));
  put("median" + tail, find_path(*d, {"median"}));
  put("std" + tail, find_path(*d, {"std_dev"}));
  for (const char* p : {"p50", "p90", "p95", "p99"})
    put(p + tail, find_path(*d, {"percentiles", p}));
}

nlohmann::json guidellm_reported_of(const nlohmann::json& bench) {
  nlohmann::json out = nlohmann::json::object();
  const nlohmann::json* m = find_path(bench, {"metrics"});
  put_reported(m, "time_to_first_token_ms", "ttft", 1.0, out);
  put_reported(m, "inter_token_latency_ms", "tpot", 1.0, out);
  put_reported(m, "request_latency", "e2el", 1000.0, out);
  if (const auto* d = find_path(bench, {"duration"}); d && d->is_number()) out["duration"] = *d;
  const nlohmann::json* totals = m ? find_path(*m, {"request_totals"}) : nullptr;
  if (!totals) totals = find_path(bench, {"request_totals"});
  if (totals && totals->is_object()) {
    if (const auto* s = find_path(*totals, {"successful"}); s && s->is_number())
      out["completed"] = *s;
    if (const auto* e = find_path(*totals, {"errored"}); e && e->is_number()) out["failed"] = *e;
  }
  if (const auto* r = m ? find_path(*m, {"requests_per_second", "successful", "mean"}) : nullptr;
      r && r->is_number())
    out["request_throughput"] = *r;
  return out;
}

// Requests of one status list; returns false (with f's error) on a malformed entry.
bool add_requests(const nlohmann::json* list, bool errored, JsonFields& f,
                  std::vector<ToolRequest>& out, std::vector<std::string>& texts) {
  if (!list) return true;
  if (!list->is_array()) {
    f.fail(std::string("requests.") + (errored ? "errored" : "successful") + " is " +
           json_type_phrase(*list) + ", expected an array");
    return false;
  }
  for (const auto& req : *list) {
    if (!req.is_object()) {
      f.fail("a request entry is " + json_type_phrase(req) + ", expected an object");
      return false;
    }
    out.push_back(tool_request(req, f, errored));
    texts.push_back(req.contains("output") && req["output"].is_string()
                        ? req["output"].get<std::string>()
                        : std::string());
    if (!f.ok()) return false;
  }
  return true;
}

bool read_benchmark(const nlohmann::json& bench, JsonFields& f, ImportedPhase& phase) {
  const nlohmann::json* strategy = find_path(bench, {"config", "strategy"});
  if (!strategy) strategy = find_path(bench, {"args", "strategy"});
  phase.phase = strategy_phase(strategy, f, &phase.tool_label);
  phase.reported = guidellm_reported_of(bench);
  if (phase.reported.contains("duration")) phase.reported_duration_s = phase.reported["duration"];
  const nlohmann::json* requests = f.object(bench, "requests");
  if (!requests) {
    if (f.ok()) f.fail("no 'requests' (successful/errored lists) in the benchmark");
    return false;
  }
  std::vector<ToolRequest> reqs;
  if (!add_requests(find_path(*requests, {"successful"}), false, f, reqs, phase.generated_texts) ||
      !add_requests(find_path(*requests, {"errored"}), true, f, reqs, phase.generated_texts))
    return false;
  if (const auto* inc = find_path(*requests, {"incomplete"}); inc && inc->is_array())
    phase.cancelled = static_cast<int64_t>(inc->size());
  double t0_s = std::numeric_limits<double>::infinity();
  for (const auto& r : reqs) t0_s = std::min(t0_s, r.send_s);
  // Their order in the report is by status; LaneBench's index follows send order.
  std::stable_sort(reqs.begin(), reqs.end(),
                   [](const ToolRequest& a, const ToolRequest& b) { return a.send_s < b.send_s; });
  for (size_t i = 0; i < reqs.size(); ++i)
    phase.records.push_back(make_record(reqs[i], t0_s, static_cast<int64_t>(i)));
  phase.per_request = !phase.records.empty();
  return true;
}

std::string model_of(const nlohmann::json& report, const nlohmann::json& bench) {
  for (const auto* v :
       {find_path(bench, {"worker", "backend_model"}),
        find_path(bench, {"config", "backend", "model"}), find_path(report, {"args", "model"})})
    if (v && v->is_string()) return display_model_name(v->get<std::string>());
  return {};
}

}  // namespace

bool looks_like_guidellm_report(const nlohmann::json& o) {
  return o.is_object() && o.contains("benchmarks") && o["benchmarks"].is_array();
}

ImportReadResult read_guidellm_report(const nlohmann::json& report, const std::string& file_name) {
  ImportReadResult out;
  ImportedBenchmark& b = out.benchmark;
  b.format = ImportFormat::GuideLlm;
  b.tool = "guidellm";
  if (!looks_like_guidellm_report(report)) {
    out.error = file_name + ": not a GuideLLM report (expected a 'benchmarks' array)";
    return out;
  }
  if (const auto* v = find_path(report, {"metadata", "guidellm_version"}); v && v->is_string())
    b.tool_version = v->get<std::string>();
  const auto& benches = report["benchmarks"];
  for (size_t k = 0; k < benches.size(); ++k) {
    JsonFields f(file_name + ": benchmarks[" + std::to_string(k) + "]");
    ImportedPhase phase;
    if (!benches[k].is_object()) {
      out.error = f.where() + " is " + json_type_phrase(benches[k]) + ", expected an object";
      return out;
    }
    if (!read_benchmark(benches[k], f, phase)) {
      out.error = f.error();
      return out;
    }
    if (b.model.empty()) b.model = model_of(report, benches[k]);
    b.phases.push_back(std::move(phase));
  }
  if (b.phases.empty()) {
    out.error = file_name + ": the report's 'benchmarks' array is empty";
    return out;
  }
  b.notes.push_back(
      "GuideLLM keeps no per-token times: inter-token gaps are spread evenly between each "
      "request's first and last token, as GuideLLM does; ITL percentiles are therefore "
      "per-request averages");
  b.notes.push_back(
      "GuideLLM may sample requests (sample_requests): figures cover the requests "
      "the report kept");
  make_phase_names_unique(b.phases);
  out.ok = true;
  return out;
}

}  // namespace lb::interop
