#include "core/interop/vllm_result_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/interop/imported_request.h"
#include "core/interop/json_fields.h"
#include "core/interop/phase_names.h"

namespace lb::interop {
namespace {

// Per-request arrays of one result object; any of them may be missing.
struct DetailArrays {
  std::vector<double> input_lens, output_lens, ttfts, latencies, start_times, queue_times;
  std::vector<std::vector<double>> itls;
  std::vector<std::string> errors, texts;
};

std::vector<std::string> strings_of(const nlohmann::json* arr, JsonFields& f, const char* name) {
  std::vector<std::string> out;
  if (!arr) return out;
  for (size_t i = 0; i < arr->size() && f.ok(); ++i) {
    const auto& v = (*arr)[i];
    if (v.is_null())
      out.emplace_back();
    else if (v.is_string())
      out.push_back(v.get<std::string>());
    else
      f.fail(std::string(name) + "[" + std::to_string(i) + "] is " + json_type_phrase(v) +
             ", expected a string");
  }
  return out;
}

std::vector<double> numbers_of(const nlohmann::json& obj, JsonFields& f, const char* name) {
  const nlohmann::json* arr = f.array(obj, name);
  return arr ? f.numbers(*arr, name) : std::vector<double>{};
}

DetailArrays read_details(const nlohmann::json& obj, JsonFields& f) {
  DetailArrays d;
  d.input_lens = numbers_of(obj, f, "input_lens");
  d.output_lens = numbers_of(obj, f, "output_lens");
  d.ttfts = numbers_of(obj, f, "ttfts");
  d.latencies = numbers_of(obj, f, "latencies");
  d.start_times = numbers_of(obj, f, "start_times");
  d.queue_times = numbers_of(obj, f, "queue_times");
  if (const nlohmann::json* itls = f.array(obj, "itls")) {
    for (size_t i = 0; i < itls->size() && f.ok(); ++i) {
      const auto& row = (*itls)[i];
      if (row.is_null()) {
        d.itls.emplace_back();
      } else if (!row.is_array()) {
        f.fail("itls[" + std::to_string(i) + "] is " + json_type_phrase(row) +
               ", expected an array of seconds");
      } else {
        d.itls.push_back(f.numbers(row, "itls[" + std::to_string(i) + "]", 0));
      }
    }
  }
  d.errors = strings_of(f.array(obj, "errors"), f, "errors");
  d.texts = strings_of(f.array(obj, "generated_texts"), f, "generated_texts");
  return d;
}

// Every per-request array that is present must have one entry per request.
size_t request_count(const DetailArrays& d, JsonFields& f) {
  const std::vector<std::pair<const char*, size_t>> sizes = {{"ttfts", d.ttfts.size()},
                                                             {"itls", d.itls.size()},
                                                             {"input_lens", d.input_lens.size()},
                                                             {"output_lens", d.output_lens.size()},
                                                             {"latencies", d.latencies.size()},
                                                             {"errors", d.errors.size()},
                                                             {"start_times", d.start_times.size()},
                                                             {"queue_times", d.queue_times.size()},
                                                             {"generated_texts", d.texts.size()}};
  const size_t n = d.ttfts.size();
  if (n == 0) return 0;
  for (const auto& [name, size] : sizes)
    if (size != 0 && size != n)
      f.fail(std::string(name) + " has " + std::to_string(size) + " entries but ttfts has " +
             std::to_string(n));
  if (d.itls.size() != n) f.fail("ttfts is present without itls (one list per request)");
  return f.ok() ? n : 0;
}

ToolRequest tool_request(const DetailArrays& d, size_t i) {
  ToolRequest t;
  t.error = i < d.errors.size() ? d.errors[i] : std::string();
  t.send_s = i < d.start_times.size() ? d.start_times[i] : 0.0;
  t.queue_s = i < d.queue_times.size() ? d.queue_times[i] : -1.0;
  t.latency_s = i < d.latencies.size() ? d.latencies[i] : -1.0;
  t.prompt_tokens = i < d.input_lens.size() ? std::llround(d.input_lens[i]) : -1;
  t.output_tokens = i < d.output_lens.size() ? std::llround(d.output_lens[i]) : -1;
  // vLLM records a failed request with ttft 0 and no gaps: no token arrived.
  const bool failed = !t.error.empty();
  t.ttft_s = d.ttfts[i] >= 0 && !(failed && d.ttfts[i] == 0) ? d.ttfts[i] : -1.0;
  t.gaps_s = d.itls[i];
  return t;
}

void fill_records(const DetailArrays& d, size_t n, ImportedPhase& phase) {
  double t0_s = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < n; ++i)
    t0_s = std::min(t0_s, i < d.start_times.size() ? d.start_times[i] : 0.0);
  if (!std::isfinite(t0_s)) t0_s = 0;
  for (size_t i = 0; i < n; ++i) {
    metrics::RequestRecord rec = make_record(tool_request(d, i), t0_s, static_cast<int64_t>(i));
    phase.records.push_back(std::move(rec));
  }
  phase.per_request = n > 0;
  phase.has_send_times = !d.start_times.empty();
  phase.generated_texts = d.texts;
}

std::string phase_name_of(const nlohmann::json& obj, JsonFields& f, std::string* label) {
  const auto concurrency = f.integer(obj, "max_concurrency");
  std::optional<double> rate;
  if (obj.contains("request_rate") && obj["request_rate"].is_number())
    rate = obj["request_rate"].get<double>();
  const auto prompts = f.integer(obj, "num_prompts");
  char buf[160];
  std::snprintf(buf, sizeof buf, "request_rate %s, max_concurrency %s, num_prompts %s",
                rate ? std::to_string(*rate).c_str() : "inf",
                concurrency ? std::to_string(*concurrency).c_str() : "none",
                prompts ? std::to_string(*prompts).c_str() : "?");
  *label = buf;
  if (rate && std::isfinite(*rate) && *rate > 0) return rate_phase_name(*rate);
  if (concurrency && *concurrency > 0) return "c" + std::to_string(*concurrency);
  // An infinite rate without a cap sends every prompt at once: a closed loop of that size.
  if (prompts && *prompts > 0) return "c" + std::to_string(*prompts);
  return "vllm";
}

// Every numeric top-level value is one of vLLM's aggregates (metadata values are strings).
nlohmann::json vllm_reported_of(const nlohmann::json& obj) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : obj.items())
    if (value.is_number() && key != "num_prompts" && key != "burstiness" &&
        key != "max_concurrency" && key != "request_rate")
      out[key] = value;
  return out;
}

std::string model_of(const nlohmann::json& obj) {
  return display_model_name(string_or(obj, "model_id", ""));
}

}  // namespace

bool looks_like_vllm_result(const nlohmann::json& o) {
  return o.is_object() && o.contains("completed") && o.contains("duration") &&
         (o.contains("mean_ttft_ms") || o.contains("mean_e2el_ms") || o.contains("ttfts"));
}

ImportReadResult read_vllm_results(const std::vector<nlohmann::json>& objects,
                                   const std::string& file_name) {
  ImportReadResult out;
  ImportedBenchmark& b = out.benchmark;
  b.format = ImportFormat::Vllm;
  b.tool = "vllm bench serve";
  for (size_t k = 0; k < objects.size(); ++k) {
    const auto& obj = objects[k];
    const std::string where =
        file_name + (objects.size() > 1 ? " (result " + std::to_string(k + 1) + ")" : "");
    if (!looks_like_vllm_result(obj)) {
      out.error = where +
                  ": not a vLLM bench serve result (expected the keys completed, "
                  "duration and mean_ttft_ms)";
      return out;
    }
    JsonFields f(where);
    ImportedPhase phase;
    phase.phase = phase_name_of(obj, f, &phase.tool_label);
    phase.reported = vllm_reported_of(obj);
    phase.reported_duration_s = f.number(obj, "duration").value_or(-1);
    const DetailArrays d = read_details(obj, f);
    const size_t n = request_count(d, f);
    if (!f.ok()) {
      out.error = f.error();
      return out;
    }
    fill_records(d, n, phase);
    if (b.model.empty()) b.model = model_of(obj);
    if (b.date.empty()) b.date = f.string(obj, "date").value_or("");
    for (const char* key : {"vllm_version", "version"})
      if (b.tool_version.empty() && obj.contains(key) && obj[key].is_string())
        b.tool_version = obj[key].get<std::string>();
    b.phases.push_back(std::move(phase));
  }
  if (b.phases.empty()) {
    out.error = file_name + ": no vLLM results in the file";
    return out;
  }
  if (std::any_of(b.phases.begin(), b.phases.end(), [](const auto& p) { return !p.per_request; }))
    b.notes.push_back(
        "some results have no per-request fields (run without --save-detailed): their "
        "aggregates are vLLM's own");
  else
    b.notes.push_back(
        "E2EL, TPOT and decode rate are recomputed from the first token and the inter-token "
        "gaps; vLLM's own figures are under 'reported'");
  make_phase_names_unique(b.phases);
  out.ok = true;
  return out;
}

}  // namespace lb::interop
