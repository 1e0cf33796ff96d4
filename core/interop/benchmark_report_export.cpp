#include "core/interop/benchmark_report_export.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "core/files/line_reader.h"
#include "core/files/regular_file.h"
#include "core/files/safe_file_name.h"
#include "core/interop/json_fields.h"
#include "core/record/environment_record.h"
#include "core/record/run_summary.h"

namespace lb::interop {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using PhaseKey = std::tuple<std::string, std::string, std::string>;  // experiment, lane, phase

json read_json_file(const fs::path& path, size_t max_bytes) {
  std::string error;
  const auto text = files::read_regular_file(path.string(), max_bytes, &error);
  return text ? json::parse(*text, nullptr, false) : json();
}

const json& member(const json& j, const char* key) {
  static const json none;
  return j.is_object() && j.contains(key) ? j[key] : none;
}

double number_of(const json& j, const std::string& key) {
  const json& v = member(j, key.c_str());
  return v.is_number() ? v.get<double>() : NAN;
}

// 32 hex digits from the text (two FNV-1a passes): a stable id, not a secret.
std::string hex_id(const std::string& text) {
  std::string out;
  for (uint64_t seed : {1469598103934665603ULL, 0x9e3779b97f4a7c15ULL}) {
    uint64_t h = seed;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    out += buf;
  }
  return out;
}

// "2026-12-06T06:06:58Z" as seconds since the epoch; -1 when it is not one.
int64_t epoch_of(const std::string& iso) {
  std::tm tm{};
  if (iso.size() < 20 ||
      std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<int64_t>(timegm(&tm));
}

std::string iso_of(int64_t epoch_s) {
  const std::time_t t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Output tokens completed in each second, per phase, from its experiment's first send (runs
// added to a folder later ran on another process's steady clock).
struct OutputSeries {
  std::map<std::string, int64_t> first_send_ns;  // by experiment
  std::map<PhaseKey, std::map<int64_t, double>> tokens_by_second;
};

OutputSeries read_output_series(const fs::path& jsonl) {
  constexpr size_t kMaxLineBytes = 64 * files::kMiB;
  struct Done {
    PhaseKey key;
    int64_t done_ns;
    double tokens;
  };
  std::vector<Done> done;
  OutputSeries out;
  files::read_lines(
      jsonl.string(), kMaxLineBytes,
      [&](std::string_view text) {
        const json line = json::parse(text, nullptr, false);
        const double sent = number_of(line, "t_sent_ns");
        if (!line.is_object() || !std::isfinite(sent) || std::abs(sent) > 4e18) return;
        const std::string experiment = string_or(line, "experiment", "");
        auto [first, added] = out.first_send_ns.try_emplace(experiment, static_cast<int64_t>(sent));
        if (!added) first->second = std::min(first->second, static_cast<int64_t>(sent));
        const double e2el = number_of(line, "e2el_ms");
        if (bool_or(line, "warmup", false) || !bool_or(line, "ok", false) || !std::isfinite(e2el) ||
            e2el < 0 || e2el > 1e9)
          return;
        const double tokens = number_of(line, "output_tokens");
        done.push_back({{string_or(line, "experiment", ""), string_or(line, "lane", ""),
                         string_or(line, "phase", "")},
                        static_cast<int64_t>(sent + e2el * 1e6),
                        std::isfinite(tokens) && tokens > 0 ? tokens : 0.0});
      },
      nullptr, nullptr);
  for (const Done& d : done)
    out.tokens_by_second[d.key][(d.done_ns - out.first_send_ns.at(std::get<0>(d.key))) /
                                1'000'000'000] += d.tokens;
  return out;
}

// {"units", "mean", "stddev", "p50", "p90", "p95", "p99"} of a distribution; null without a
// mean.
json statistics(const metrics::Distribution& d, const char* units) {
  if (!std::isfinite(d.mean)) return nullptr;
  json s = {{"units", units}, {"mean", d.mean}};
  const std::pair<const char*, double> values[] = {
      {"stddev", d.std}, {"p50", d.median}, {"p90", d.p90}, {"p95", d.p95}, {"p99", d.p99}};
  for (const auto& [name, v] : values)
    if (std::isfinite(v)) s[name] = v;
  return s;
}

json mean_only(double value, const char* units) {
  return std::isfinite(value) ? json{{"units", units}, {"mean", value}} : json(nullptr);
}

void put_if(json& parent, const char* key, json value) {
  if (!value.is_null()) parent[key] = std::move(value);
}

json aggregate(const metrics::LaneSummary& phase) {
  const double completed = static_cast<double>(phase.completed);
  json requests = {{"total", phase.completed + phase.failed}, {"failures", phase.failed}};
  if (completed > 0) {
    put_if(requests, "input_length",
           mean_only(static_cast<double>(phase.total_input_tokens) / completed, "count"));
    put_if(requests, "output_length",
           mean_only(static_cast<double>(phase.total_output_tokens) / completed, "count"));
  }
  json latency = json::object();
  put_if(latency, "time_to_first_token", statistics(phase.ttft_ms, "ms"));
  put_if(latency, "time_per_output_token", statistics(phase.tpot_ms, "ms/token"));
  put_if(latency, "inter_token_latency", statistics(phase.itl_ms, "ms/token"));
  put_if(latency, "request_latency", statistics(phase.e2el_ms, "ms"));
  const double output = phase.output_throughput;
  const double total = phase.total_token_throughput;
  json throughput = json::object();
  put_if(throughput, "output_token_rate", mean_only(output, "tokens/s"));
  put_if(throughput, "input_token_rate", mean_only(total - output, "tokens/s"));
  put_if(throughput, "total_token_rate", mean_only(total, "tokens/s"));
  put_if(throughput, "requests_rate", mean_only(phase.request_throughput, "queries/s"));
  return {{"requests", requests}, {"latency", latency}, {"throughput", throughput}};
}

// The lane as a stack component: what served it (standardized) and its plan entry without its
// address, CA bundle, key variable or launch command (native).
json stack_component(const std::string& lane, const json& plan_lane,
                     const record::LaneEnvironmentRecord& env_lane) {
  json native = plan_lane.is_object() ? plan_lane : json::object();
  for (const char* key : {"base_url", "ca_bundle", "api_key_env", "launch"}) native.erase(key);
  if (native.contains("energy") && native["energy"].is_object()) {  // its URL is another host
    json& energy = native["energy"];
    if (string_or(energy, "metrics_url", "") != "lane") energy["metrics_url"] = "(an endpoint)";
  }
  json metadata = {{"kind", "generic"},
                   {"schema_version", "0.0.1"},
                   {"label", lane},
                   {"cfg_id", hex_id(native.dump())}};
  if (const std::string text = string_or(member(plan_lane, "notes"), "text", ""); !text.empty())
    metadata["description"] = text;
  auto known = [](const std::string& text) { return text.empty() ? "unknown" : text; };
  return {{"metadata", metadata},
          {"standardized",
           {{"tool", known(env_lane.server_kind)},
            {"tool_version", known(env_lane.server_version)},
            {"role", "replica"},
            {"model", {{"name", known(env_lane.model)}}}}},
          {"native", {{"config", native}}}};
}

json sequence_length(double mean) {
  return {{"distribution", "other"}, {"value", std::isfinite(mean) ? std::max(1.0, mean) : 1.0}};
}

// The experiment as the plan ran it, without the paths of its files (a prompt set, a trace, a
// ShareGPT file): "(a file)" stands for each.
json without_paths(json experiment) {
  if (!experiment.is_object()) return json::object();
  if (experiment.contains("path")) experiment["path"] = "(a file)";
  if (experiment.contains("prompts") && experiment["prompts"].is_string() &&
      experiment["prompts"].get<std::string>().rfind("builtin:", 0) != 0)
    experiment["prompts"] = "(a file)";
  return experiment;
}

json load_of(const record::ExperimentSection& experiment, const json& plan_experiment,
             const std::string& phase, int stage, const json& aggregate_requests,
             const std::string& version) {
  // Prompts from a set, a trace or a conversation file are sampled; synthetic ones random.
  const bool sampled = plan_experiment.contains("prompts") || plan_experiment.contains("path");
  json standardized = {
      {"tool", "lanebench"},
      {"tool_version", version},
      {"source", sampled ? "sampled" : "random"},
      {"stage", stage},
      {"input_seq_len",
       sequence_length(number_of(member(aggregate_requests, "input_length"), "mean"))},
      {"output_seq_len",
       sequence_length(number_of(member(aggregate_requests, "output_length"), "mean"))}};
  // "c32": a closed loop of 32 streams; "r2.5": an open loop at 2.5 requests a second.
  if (phase.size() > 1 && (phase[0] == 'c' || phase[0] == 'r')) {
    char* end = nullptr;
    const double v = std::strtod(phase.c_str() + 1, &end);
    if (end && *end == '\0' && v > 0) {
      if (phase[0] == 'c' && v >= 1) standardized["concurrency"] = std::llround(v);
      if (phase[0] == 'r') standardized["rate_qps"] = v;
    }
  }
  return {{"metadata",
           {{"schema_version", "0.0.1"},
            {"cfg_id", hex_id(plan_experiment.dump())},
            {"description", experiment.kind_name + " experiment " + experiment.name}}},
          {"standardized", standardized},
          {"native", {{"config", without_paths(plan_experiment)}}}};
}

// The regression evidence of each lane pair the lane is in: counts, the causes of divergence,
// flipped facts, the floor verdict and the cross-scores, as the run recorded them.
json floor_part(const json& floor) { return floor.contains("floor") ? floor["floor"] : floor; }

// The regression evidence of each lane pair the lane is in: counts, the causes of divergence,
// flipped facts, the floor verdict and the cross-scores, as the run recorded them; and the
// lane's own determinism floor where it was measured.
json quality_evidence(const record::RunSummary& summary, const std::string& lane) {
  json out = json::array();
  for (const record::ExperimentSection& e : summary.experiments) {
    using record::ExperimentKind;
    if (e.is(ExperimentKind::Determinism)) {
      const record::LaneRecord* l = e.lane(lane);
      static const json kNone;
      const json& floor = l ? member(member(l->more, "determinism"), "floor") : kNone;
      if (floor.is_object()) out.push_back({{"experiment", e.name}, {"determinism_floor", floor}});
    }
    if (!e.is(ExperimentKind::Regression)) continue;
    bool baseline_here = false;
    for (const record::PairOutcome& c : e.pair_outcomes()) {
      baseline_here = baseline_here || c.baseline == lane;
      if (lane != c.baseline && lane != c.candidate) continue;
      const json written = record::to_json(c);
      json pair = {{"experiment", e.name},
                   {"baseline", c.baseline},
                   {"candidate", c.candidate},
                   {"flipped_facts", c.flipped_facts()}};
      for (const char* key :
           {"pairs", "identical", "near_identical", "divergent", "review_required",
            "review_outcome", "fact_checks_failed", "unsupported_by_lane", "floor_verdict"})
        if (written.contains(key)) pair[key] = written[key];
      const json& tokens = member(c.more, "token_divergence");
      if (tokens.contains("counts")) pair["divergence_causes"] = tokens["counts"];
      if (tokens.contains("cross_score")) pair["cross_score"] = tokens["cross_score"];
      out.push_back(std::move(pair));
    }
    if (baseline_here && member(e.more, "floor").is_object())
      out.push_back({{"experiment", e.name}, {"determinism_floor", floor_part(e.more["floor"])}});
  }
  return out;
}

json time_series(const OutputSeries& series, const PhaseKey& key, int64_t run_start_s) {
  const auto it = series.tokens_by_second.find(key);
  if (it == series.tokens_by_second.end() || run_start_s < 0) return nullptr;
  json points = json::array();
  for (const auto& [second, tokens] : it->second)
    points.push_back({{"ts", iso_of(run_start_s + second)}, {"value", tokens}});
  return {{"throughput", {{"output_token_rate", {{"units", "tokens/s"}, {"series", points}}}}}};
}

struct RunFiles {
  record::RunSummary summary;
  json plan;  // the lanes' and experiments' entries go into the report as their native config
  record::EnvironmentRecord environment;
  OutputSeries series;
};

json plan_entry(const json& list, const char* key, const std::string& value) {
  for (const json& item : list)
    if (string_or(item, key, "") == value) return item;
  return json::object();
}

// The run's time span of an experiment, as ISO 8601; "" when it did not say.
std::string section_time(const record::ExperimentSection& e, const char* key) {
  return string_or(e.more, key, "");
}

json phase_report(const RunFiles& run, const record::ExperimentSection& e, size_t experiment_index,
                  const std::string& lane, const record::PhaseRecord& p, int stage) {
  const std::string& exp = e.name;
  const std::string& phase = p.name;
  const json& plan_experiments = member(run.plan, "experiments");
  const json plan_experiment =
      plan_experiments.is_array() && experiment_index < plan_experiments.size()
          ? plan_experiments[experiment_index]
          : json::object();
  const std::string version =
      run.environment.client_version.empty() ? "unknown" : run.environment.client_version;
  const std::string& run_start = run.summary.run.started_at;
  json time = json::object();
  if (epoch_of(section_time(e, "started_at")) >= 0) time["start"] = section_time(e, "started_at");
  if (epoch_of(section_time(e, "finished_at")) >= 0) time["end"] = section_time(e, "finished_at");
  if (const double d = p.figures.duration_s; std::isfinite(d) && d >= 0) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "PT%.3fS", d);
    time["duration"] = buf;
  }
  json results = {{"request_performance", {{"aggregate", aggregate(p.figures)}}}};
  // The series counts from the experiment's first send, placed at the experiment's start.
  int64_t series_start_s = epoch_of(section_time(e, "started_at"));
  if (series_start_s < 0) series_start_s = epoch_of(run_start);
  if (json ts = time_series(run.series, {exp, lane, phase}, series_start_s); !ts.is_null())
    results["request_performance"]["time_series"] = std::move(ts);
  json extension = {{"experiment", exp},
                    {"kind", e.kind_name},
                    {"lane", lane},
                    {"phase", phase},
                    {"quality", quality_evidence(run.summary, lane)}};
  // The phase's energy, cost and steady state as the run recorded them, and its intervals.
  for (const char* key : {"energy", "cost", "steady_state"})
    if (p.more.contains(key)) extension[key] = p.more[key];
  if (p.more.contains("intervals")) {  // an empty one, kept as the run wrote it
    extension["intervals"] = p.more["intervals"];
  } else if (!p.intervals.empty()) {
    json intervals = json::object();
    for (const auto& [figure, interval] : p.intervals) intervals[figure] = to_json(interval);
    extension["intervals"] = std::move(intervals);
  }
  if (extension.contains("energy") && extension["energy"].is_object() &&
      string_or(extension["energy"], "source", "") != "the lane's /metrics" &&
      extension["energy"].contains("source"))
    extension["energy"]["source"] = "a separate endpoint";
  json comparisons = json::array();
  for (const record::Comparison& c : e.comparisons)
    if (c.phase == phase && (c.baseline == lane || c.candidate == lane))
      comparisons.push_back(record::to_json(c));
  if (!comparisons.empty()) extension["comparisons"] = std::move(comparisons);
  results["observability"] = {{"lanebench", std::move(extension)}};
  const json aggregate_requests = results["request_performance"]["aggregate"]["requests"];
  const record::LaneEnvironmentRecord* env = run.environment.lane(lane);
  return {{"version", "0.2"},
          {"run",
           {{"uid", hex_id(run_start + "\n" + exp + "\n" + lane + "\n" + phase)},
            {"eid", hex_id(run_start + "\n" + run.summary.run.name)},
            {"time", time}}},
          {"scenario",
           {{"stack",
             json::array({stack_component(lane, plan_entry(member(run.plan, "lanes"), "id", lane),
                                          env ? *env : record::LaneEnvironmentRecord{})})},
            {"load", load_of(e, plan_experiment, phase, stage, aggregate_requests, version)}}},
          {"results", std::move(results)}};
}

}  // namespace

BenchmarkReports export_benchmark_reports(const std::string& run_dir, const std::string& lane) {
  BenchmarkReports out;
  const fs::path dir(run_dir);
  std::error_code ec;
  if (!fs::exists(dir / "summary.json", ec)) {
    out.error = run_dir + " is not a run folder (no summary.json)";
    return out;
  }
  RunFiles run;
  const json summary = read_json_file(dir / "summary.json", 256 * files::kMiB);
  if (!summary.is_object() || !member(summary, "experiments").is_array()) {
    out.error = (dir / "summary.json").string() + " is not a run summary (no experiments list)";
    return out;
  }
  record::FileFields fields("summary.json");
  run.summary = record::read_run_summary(summary, fields);
  run.plan = read_json_file(dir / "plan.json", 64 * files::kMiB);
  run.environment =
      record::read_environment(read_json_file(dir / "environment.json", 64 * files::kMiB));
  run.series = read_output_series(dir / "requests.jsonl");
  std::set<std::string> used;
  for (size_t i = 0; i < run.summary.experiments.size(); ++i) {
    const record::ExperimentSection& e = run.summary.experiments[i];
    for (const record::LaneRecord& l : e.lanes) {
      if (!lane.empty() && l.id != lane) continue;
      int stage = 0;
      for (const record::PhaseRecord& phase : l.phases) {
        // "a.b" + "c" and "a" + "b.c" make one name: a later one gets "-2", "-3", ...
        const std::string base = files::safe_file_name(
            (e.name.empty() ? std::string("experiment") : e.name) + "." + l.id + "." + phase.name);
        std::string name = base + ".json";
        for (int n = 2; !used.insert(name).second; ++n)
          name = base + "-" + std::to_string(n) + ".json";
        out.files.push_back({name, phase_report(run, e, i, l.id, phase, stage++)});
      }
    }
  }
  if (out.files.empty()) {
    out.error = lane.empty() ? "the run has no per-phase results to export"
                             : "the run has no phase of lane " + lane;
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace lb::interop
