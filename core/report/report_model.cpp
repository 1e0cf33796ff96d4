// The report model: header, lanes with notes and environment manifest, gate
// table, and the parts built in their own files (tables, charts, pairs,
// caveats).
#include "core/report/report_model.h"

#include <array>
#include <cmath>
#include <cstdio>

#include "core/files/safe_file_name.h"
#include "core/plan/api_key_source.h"
#include "core/report/json_access.h"

namespace lb::report {
namespace {

using nlohmann::json;

constexpr size_t kMaxReportedPairs = 20;

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return format_number(v.get<double>(), 2);
  return v.dump();
}

// An endpoint is described, never located: the report does not carry base URLs.
std::string endpoint_text(const json& plan_lane) {
  const std::string url = plan_lane.value("base_url", "");
  if (url.rfind("sim:", 0) == 0) {
    const auto query = url.find('?');
    return "built-in simulator, profile " +
           url.substr(4, query == std::string::npos ? std::string::npos : query - 4);
  }
  return url.rfind("https:", 0) == 0 ? "HTTPS endpoint" : "HTTP endpoint";
}

const json& plan_lane(const RunFolder& folder, const std::string& id) {
  static const json kNull;
  for (const auto& l : json_at(folder.plan, {"lanes"}))
    if (l.value("id", "") == id) return l;
  return kNull;
}

void add_environment(LaneInfo& info, const json& env) {
  auto add = [&info](const std::string& key, const std::string& value) {
    if (!value.empty()) info.environment.emplace_back(key, value);
  };
  add("model", string_at(env, {"model"}));
  add("server", string_at(env, {"probe", "server_kind"}));
  const json& version = json_at(env, {"probe", "version"});
  if (version.is_object() && version.contains("version"))
    add("server version", scalar_text(version["version"]));
  const double max_len = number_at(env, {"probe", "max_context_tokens"});
  if (max_len > 0) add("max context (tokens)", format_number(max_len, 0));
  for (const auto& [k, v] : json_at(env, {"cache_config"}).items())
    add("cache " + k, scalar_text(v));
  add("TLS verification", string_at(env, {"tls", "verification"}));
  const json& metrics = json_at(env, {"probe", "metrics_available"});
  if (metrics.is_boolean()) add("/metrics", metrics.get<bool>() ? "available" : "not exposed");
}

LaneInfo lane_info(const RunFolder& folder, const std::string& id, size_t index) {
  LaneInfo info{id, lane_color(index), {}, {}};
  const json& pl = plan_lane(folder, id);
  if (pl.is_object()) info.environment.emplace_back("endpoint", endpoint_text(pl));
  const json& env = json_at(folder.environment, {"lanes", id.c_str()});
  json notes = json_at(env, {"notes"});
  if (!notes.is_object()) notes = json_at(pl, {"notes"});
  for (const auto& [k, v] : notes.items()) info.notes.emplace_back(k, scalar_text(v));
  add_environment(info, env);
  return info;
}

std::string reproduce_command(const RunFolder& folder) {
  std::string keys;
  for (const auto& l : json_at(folder.plan, {"lanes"})) {
    // A plan from another tool may hold anything here: only a string names a key source.
    const std::string source = string_at(l, {"api_key_env"});
    if (source.empty()) continue;
    // A keyring:<lane-id> key is read by the desktop app only; the CLI refuses such a lane
    // and says so, and "keyring:x=..." would not even be a shell assignment.
    if (!plan::keyring_lane_of(source)) keys += source + "=... ";
  }
  return keys + "lanebench-cli run plan.json --out NEW_RUN_FOLDER";
}

}  // namespace

std::string format_number(double value, int decimals) {
  if (std::isnan(value) || value < 0) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string format_seconds(double ms) {
  if (std::isnan(ms) || ms < 0) return format_number(-1, 0);
  const double s = ms / 1000;
  return format_number(s, s >= 100 ? 1 : s >= 1 ? 2 : 3);
}

std::string lane_color(size_t lane_index) {
  // widgets/lane_palette.cpp's order: colour-blind safe (Okabe-Ito), readable
  // on white.
  static constexpr std::array<const char*, 8> kColors = {
      "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7F7F7F", "#F0E442"};
  return kColors[lane_index % kColors.size()];
}

ReportModel build_report_model(const RunFolder& folder) {
  ReportModel m;
  m.run_name = string_at(folder.plan, {"name"});
  if (m.run_name.empty()) m.run_name = string_at(folder.summary, {"run", "name"});
  m.title = "Qualification report" + (m.run_name.empty() ? "" : ": " + m.run_name);
  m.started_at = string_at(folder.summary, {"run", "started_at"});
  m.finished_at = string_at(folder.summary, {"run", "finished_at"});
  m.complete = folder.complete;
  m.decision = folder.decision;
  const auto lanes = folder.lane_ids();
  for (size_t i = 0; i < lanes.size(); ++i) m.lanes.push_back(lane_info(folder, lanes[i], i));
  m.artifacts = folder.artifacts;
  m.gates = build_gate_table(folder.record, lanes, &folder.reviews, &folder.artifacts,
                             &folder.sampled_reviews);
  m.performance = performance_tables(folder);
  m.charts = report_charts(folder);
  m.pairs = reviewed_pairs(folder, kMaxReportedPairs, &m.pairs_left_out);
  m.caveats = report_caveats(folder);
  m.reproduce_command = reproduce_command(folder);
  return m;
}

std::string chart_file_stem(const ChartSpec& chart) { return files::safe_file_name(chart.id); }

}  // namespace lb::report
