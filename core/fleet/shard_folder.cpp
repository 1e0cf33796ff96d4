#include "core/fleet/shard_folder.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/record/json_object_file.h"
#include "core/record/run_folder_headline.h"
#include "core/record/run_summary.h"
#include "core/text/json_depth.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;

bool whole(const json& j, const char* key) { return j.contains(key) && j[key].is_number_integer(); }
bool text(const json& j, const char* key) { return j.contains(key) && j[key].is_string(); }

// shard.json's fields into S; the first thing wrong, or "".
std::string read_shard_json(const json& j, ShardFolder& s) {
  const json& shard = j.value("shard", json());
  if (!shard.is_object() || !whole(shard, "index") || !whole(shard, "count"))
    return "shard.json: no shard index and count";
  s.index = shard["index"].get<int64_t>();
  s.count = shard["count"].get<int64_t>();
  // A plan has a shard per lane; far fewer than this many lanes.
  constexpr int64_t kMaxShards = 100'000;
  if (s.count < 1 || s.count > kMaxShards || s.index < 0 || s.index >= s.count)
    return "shard.json: shard " + std::to_string(s.index) + " of " + std::to_string(s.count) +
           " is not a valid shard";
  if (shard.contains("lanes") && shard["lanes"].is_array())
    for (const json& lane : shard["lanes"])
      if (lane.is_string()) s.lanes.push_back(lane.get<std::string>());
  const json& split = shard.value("split", json());
  if (split.is_object() && whole(split, "client") && whole(split, "clients")) {
    s.split_client = split["client"].get<int64_t>();
    s.split_clients = split["clients"].get<int64_t>();
    if (s.split_clients < 2 || s.split_clients > kMaxShards || s.split_client < 0 ||
        s.split_client >= s.split_clients)
      return "shard.json: split client " + std::to_string(s.split_client) + " of " +
             std::to_string(s.split_clients) + " is not a valid client";
  }
  if (!text(j, "plan_sha256") || !text(j, "client_version"))
    return "shard.json: no plan_sha256 or client_version";
  s.plan_sha256 = j["plan_sha256"].get<std::string>();
  s.client_version = j["client_version"].get<std::string>();
  s.host = text(j, "host") ? j["host"].get<std::string>() : "unknown";
  const json& clock = j.value("clock", json());
  if (!clock.is_object() || !whole(clock, "wall_ns") || !whole(clock, "steady_ns"))
    return "shard.json: no clock anchor (wall_ns, steady_ns)";
  // Both are nanoseconds since an epoch (1970, the machine's boot): far below 2^62.
  constexpr int64_t kMaxClockNs = int64_t{1} << 62;
  const int64_t wall_ns = clock["wall_ns"].get<int64_t>();
  const int64_t steady_ns = clock["steady_ns"].get<int64_t>();
  if (wall_ns < 0 || wall_ns > kMaxClockNs || steady_ns < 0 || steady_ns > kMaxClockNs)
    return "shard.json: the clock anchor is out of range";
  s.wall_minus_steady_ns = wall_ns - steady_ns;
  double sum = 0;
  int n = 0;
  const json& servers = j.value("server_clocks", json());
  if (servers.is_object()) {
    for (const auto& [lane, c] : servers.items()) {
      if (!c.is_object() || !c.contains("offset_ms") || !c["offset_ms"].is_number()) continue;
      const double offset = c["offset_ms"].get<double>();
      if (!std::isfinite(offset) || std::abs(offset) > 1e9)
        return "shard.json: server_clocks." + lane + ".offset_ms is out of range";
      sum += offset;
      ++n;
      if (c.contains("uncertainty_ms") && c["uncertainty_ms"].is_number())
        s.clock_uncertainty_ms =
            std::max(s.clock_uncertainty_ms, c["uncertainty_ms"].get<double>());
    }
  }
  if (n > 0) s.clock_offset_ms = sum / n;
  return "";
}

}  // namespace

std::optional<ShardFolder> read_shard_folder(const std::string& dir, std::string* why) {
  ShardFolder s;
  s.dir = dir;
  std::vector<std::string> problems;
  const json shard = record::read_json_object_file(dir, "shard.json", problems);
  auto fail = [&](const std::string& what) {
    *why = dir + ": " + what;
    return std::nullopt;
  };
  if (!problems.empty()) return fail(problems.front());
  if (shard.is_null())
    return fail("no shard.json: not a shard's run folder (lanebench-cli run --shard)");
  if (std::string bad = read_shard_json(shard, s); !bad.empty()) return fail(bad);
  std::string error;
  const auto plan = record::read_run_file(dir, "plan.json", &error);
  if (!plan) return fail("plan.json: " + (error.empty() ? std::string("missing") : error));
  s.plan_text = *plan;
  // Their values go into the merged files, which are written recursively: bounded nesting.
  for (const char* name : {"summary.json", "environment.json"}) {
    const auto text = record::read_run_file(dir, name, &error);
    if (text && !text::json_depth_within(*text, 64))
      return fail(std::string(name) + ": nested deeper than 64 levels; refused");
  }
  s.summary = record::read_json_object_file(dir, "summary.json", problems);
  s.environment = record::read_json_object_file(dir, "environment.json", problems);
  if (!problems.empty()) return fail(problems.front());
  if (s.summary.is_object() && !s.summary.value("experiments", json()).is_array())
    return fail("summary.json: no experiments list");
  // What the run record cannot read whole would be merged as it is, or be lost: refused here,
  // with the place named.
  record::FileFields fields("summary.json");
  record::read_run_summary(s.summary, fields);
  if (fields.damaged()) return fail(fields.damage().front());
  const json run = s.summary.is_object() ? s.summary.value("run", json()) : json();
  s.finished = record::run_finished(run);
  return s;
}

ShardSetCheck check_shard_set(std::vector<ShardFolder>& shards, bool partial,
                              double max_offset_ms) {
  ShardSetCheck out;
  if (shards.empty()) {
    out.errors.push_back("no shards to merge");
    return out;
  }
  std::sort(shards.begin(), shards.end(),
            [](const ShardFolder& a, const ShardFolder& b) { return a.index < b.index; });
  const ShardFolder& first = shards.front();
  for (const ShardFolder& s : shards) {
    if (s.plan_sha256 != first.plan_sha256 || s.plan_text != first.plan_text)
      out.errors.push_back(s.dir + " is a shard of another plan than " + first.dir);
    else if (s.client_version != first.client_version)
      out.errors.push_back(s.dir + " was run by LaneBench " + s.client_version + ", " + first.dir +
                           " by " + first.client_version);
    else if (s.count != first.count)
      out.errors.push_back(s.dir + " is one of " + std::to_string(s.count) + " shards, " +
                           first.dir + " one of " + std::to_string(first.count));
  }
  std::set<int64_t> seen;
  for (const ShardFolder& s : shards)
    if (!seen.insert(s.index).second)
      out.errors.push_back("shard " + std::to_string(s.index) + " is given twice (" + s.dir + ")");
  if (!out.errors.empty()) return out;
  std::vector<ShardFolder> kept;
  for (ShardFolder& s : shards) {
    if (s.finished) {
      kept.push_back(std::move(s));
      continue;
    }
    const std::string what = "shard " + std::to_string(s.index) + " (" + s.dir + ", " + s.host +
                             ") did not finish: its run was interrupted or failed";
    (partial ? out.notes : out.errors).push_back(what + (partial ? "; left out" : ""));
    out.missing.push_back(s.index);
  }
  for (int64_t i = 0; i < first.count; ++i) {
    if (seen.count(i)) continue;
    out.missing.push_back(i);
    (partial ? out.notes : out.errors)
        .push_back("shard " + std::to_string(i) + " of " + std::to_string(first.count) +
                   " is missing" + (partial ? "; left out" : ""));
  }
  std::sort(out.missing.begin(), out.missing.end());
  if (!partial && !out.missing.empty())
    out.errors.push_back(
        "merge the shards that are there with --partial (the run is then "
        "marked partial), or run the missing ones first");
  for (const ShardFolder& s : kept) {
    const std::string shard = "shard " + std::to_string(s.index) + " (" + s.host + ")";
    // Refused only when the offset is over the limit however its reading erred.
    if (s.clock_offset_ms && std::abs(*s.clock_offset_ms) - s.clock_uncertainty_ms > max_offset_ms)
      out.errors.push_back(shard + ": its clock is " +
                           std::to_string(std::lround(*s.clock_offset_ms)) + " ms (\u00b1 " +
                           std::to_string(std::lround(s.clock_uncertainty_ms)) +
                           ") off its lanes' servers' clocks, more than " +
                           std::to_string(std::lround(max_offset_ms)) +
                           " ms; synchronise the clocks (chrony, NTP) and run it again");
    else if (!s.clock_offset_ms)
      out.notes.push_back(shard +
                          ": no clock offset was measured (its servers sent no Date "
                          "header); its requests are placed by its own clock");
  }
  if (kept.empty() && out.errors.empty()) out.errors.push_back("no shard finished");
  shards = std::move(kept);
  return out;
}

}  // namespace lb::fleet
