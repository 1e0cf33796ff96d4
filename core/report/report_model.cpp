// The report model: header, lanes with notes and environment manifest, gate
// table, and the parts built in their own files (tables, charts, pairs,
// caveats).
#include "core/report/report_model.h"

#include <array>
#include <cmath>
#include <cstdio>

#include "core/files/safe_file_name.h"
#include "core/plan/api_key_source.h"

namespace lb::report {
namespace {

constexpr size_t kMaxReportedPairs = 20;

// An endpoint is described, never located: the report does not carry base URLs.
std::string endpoint_text(const record::PlannedLane& plan_lane) {
  const std::string& url = plan_lane.base_url;
  if (url.rfind("sim:", 0) == 0) {
    const auto query = url.find('?');
    return "built-in simulator, profile " +
           url.substr(4, query == std::string::npos ? std::string::npos : query - 4);
  }
  return url.rfind("https:", 0) == 0 ? "HTTPS endpoint" : "HTTP endpoint";
}

const record::PlannedLane* plan_lane(const RunFolder& folder, const std::string& id) {
  for (const record::PlannedLane& l : folder.plan_headline.lane_details)
    if (l.id == id) return &l;
  return nullptr;
}

void add_environment(LaneInfo& info, const record::LaneEnvironmentRecord& env) {
  auto add = [&info](const std::string& key, const std::string& value) {
    if (!value.empty()) info.environment.emplace_back(key, value);
  };
  add("model", env.model);
  add("server", env.server_kind);
  add("server version", env.server_version);
  if (env.max_context_tokens > 0)
    add("max context (tokens)", format_number(env.max_context_tokens, 0));
  for (const auto& [k, v] : env.cache_config) add("cache " + k, v);
  add("TLS verification", env.tls_verification);
  if (env.metrics_available) add("/metrics", *env.metrics_available ? "available" : "not exposed");
}

LaneInfo lane_info(const RunFolder& folder, const std::string& id, size_t index) {
  LaneInfo info{id, lane_color(index), {}, {}};
  const record::PlannedLane* pl = plan_lane(folder, id);
  if (pl) info.environment.emplace_back("endpoint", endpoint_text(*pl));
  const record::LaneEnvironmentRecord* env = folder.environment.lane(id);
  if (env && env->notes)
    info.notes = *env->notes;
  else if (pl && pl->notes)
    info.notes = *pl->notes;
  if (env) add_environment(info, *env);
  return info;
}

std::string reproduce_command(const RunFolder& folder) {
  std::string keys;
  for (const record::PlannedLane& l : folder.plan_headline.lane_details) {
    const std::string& source = l.api_key_env;
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

std::string section_title(const std::string& base, const record::ExperimentSection& e) {
  return e.name.empty() || e.name == e.kind_name ? base : base + " (" + e.name + ")";
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
  m.run_name = folder.plan_headline.name;
  if (m.run_name.empty()) m.run_name = folder.record.run.name;
  m.title = "Qualification report" + (m.run_name.empty() ? "" : ": " + m.run_name);
  m.started_at = folder.record.run.started_at;
  m.finished_at = folder.record.run.finished_at;
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
