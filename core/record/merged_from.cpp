#include "core/record/merged_from.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lb::record {
namespace {

using json = nlohmann::json;

std::string text_of(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

double MergedFrom::largest_offset_ms() const {
  double out = 0;
  for (const ShardOrigin& s : shards)
    if (s.clock_offset_ms) out = std::max(out, std::abs(*s.clock_offset_ms));
  return out;
}

std::optional<MergedFrom> merged_from(const RunSummary& summary) {
  const auto list = summary.more.find("shards");
  if (list == summary.more.end() || !list->is_array() || list->empty()) return std::nullopt;
  MergedFrom out;
  for (const json& s : *list) {
    if (!s.is_object() || !s.contains("index") || !s["index"].is_number_integer()) continue;
    ShardOrigin o;
    o.index = s["index"].get<int64_t>();
    o.host = text_of(s, "host");
    o.folder = text_of(s, "folder");
    if (s.contains("lanes") && s["lanes"].is_array())
      for (const json& l : s["lanes"])
        if (l.is_string()) o.lanes.push_back(l.get<std::string>());
    if (s.contains("clock_offset_ms") && s["clock_offset_ms"].is_number())
      o.clock_offset_ms = s["clock_offset_ms"].get<double>();
    if (s.contains("clock_uncertainty_ms") && s["clock_uncertainty_ms"].is_number())
      o.clock_uncertainty_ms = s["clock_uncertainty_ms"].get<double>();
    const json split = s.value("split", json());
    if (split.is_object() && split.value("client", json()).is_number_integer() &&
        split.value("clients", json()).is_number_integer()) {
      o.split_client = split["client"].get<int64_t>();
      o.split_clients = split["clients"].get<int64_t>();
    }
    out.shards.push_back(std::move(o));
  }
  const auto partial = summary.run.more.find("partial");
  if (partial != summary.run.more.end() && partial->is_object()) {
    for (const json& i : partial->value("missing_shards", json::array()))
      if (i.is_number_integer()) out.missing.push_back(i.get<int64_t>());
    if (partial->contains("of") && (*partial)["of"].is_number_integer())
      out.of = (*partial)["of"].get<int64_t>();
  }
  return out;
}

std::string describe(const ShardOrigin& shard) {
  std::string lanes;
  for (const std::string& l : shard.lanes) lanes += (lanes.empty() ? "" : ", ") + l;
  if (shard.split_clients > 1)
    lanes +=
        " client " + std::to_string(shard.split_client) + "/" + std::to_string(shard.split_clients);
  std::string out = std::to_string(shard.index) + (lanes.empty() ? "" : " " + lanes) + " on " +
                    (shard.host.empty() ? "an unknown host" : shard.host);
  if (shard.clock_offset_ms) {
    char clock[64];
    const double ms = std::round(*shard.clock_offset_ms) + 0.0;  // no "-0"
    std::snprintf(clock, sizeof clock, " (clock %+.0f ms \u00b1 %.0f ms)", ms == 0 ? 0.0 : ms,
                  shard.clock_uncertainty_ms);
    out += clock;
  }
  return out;
}

}  // namespace lb::record
