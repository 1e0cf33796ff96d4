// The effects a qualification looks for, drawn so they read at a glance: the prefix cache's
// cold, warm and control passes and speculative decoding's gain per concurrency level as grouped
// bars per lane, and the acceptance of each draft position.
#include <algorithm>

#include "report/json_access.h"
#include "report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

ChartSpec bars(const std::vector<std::string>& lanes, ChartSpec spec) {
  for (size_t i = 0; i < lanes.size(); ++i)
    spec.series.push_back(ChartSeries{lanes[i], lane_color(i), {}, {}});
  return spec;
}

std::string percent(double share) {
  return std::to_string(static_cast<int>(share * 100 + 0.5)) + " %";
}

// "warm pass cached: bf16 100 %, fp8 100 % (server)": each lane's reuse evidence, short enough
// for one line under the legend.
std::string prefix_evidence(const json& e, const std::vector<std::string>& lanes) {
  std::string shares, provenance;
  for (const std::string& lane : lanes) {
    const json& pc = json_at(e, {"lanes", lane.c_str(), "prefix_cache"});
    if (!pc.is_object()) continue;
    const json& warm = json_at(pc, {"passes", "warm"});
    const double cached = number_at(warm, {"cached_tokens", "value"});
    const double prompt = number_at(warm, {"prompt_tokens"});
    std::string part = lane + " ";
    if (cached >= 0 && prompt > 0) {
      part += percent(cached / prompt);
      const std::string p = string_at(warm, {"cached_tokens", "provenance"});
      provenance = provenance.empty() || provenance == p ? p : "mixed";
    } else {
      part += json_at(pc, {"evidence", "reuse_detected"}) == true ? "reused" : "no evidence";
    }
    shares += (shares.empty() ? "" : ", ") + part;
  }
  if (shares.empty()) return {};
  return "warm pass, share of prompt tokens cached: " + shares +
         (provenance.empty() ? "" : " (" + provenance + ")");
}

}  // namespace

std::vector<ChartSpec> prefix_cache_charts(const json& e, const std::vector<std::string>& lanes) {
  static const std::vector<std::string> kPasses = {"cold", "warm", "control"};
  std::vector<std::string> passes;
  for (const std::string& pass : kPasses)
    for (const std::string& lane : lanes)
      if (json_at(e, {"lanes", lane.c_str(), "prefix_cache", "passes", pass.c_str()}).is_object()) {
        passes.push_back(pass);
        break;
      }
  ChartSpec ttft = bars(lanes, {"prefix_cache_ttft",
                                "Prefix cache: TTFT per pass",
                                "pass",
                                "TTFT median (s)",
                                false,
                                {},
                                passes,
                                prefix_evidence(e, lanes)});
  ChartSpec output = bars(lanes, {"prefix_cache_output",
                                  "Prefix cache: aggregate output per pass",
                                  "pass",
                                  "output (tok/s)",
                                  false,
                                  {},
                                  passes,
                                  "output tokens per second of each burst"});
  for (size_t i = 0; i < lanes.size(); ++i)
    for (size_t p = 0; p < passes.size(); ++p) {
      const json& pass =
          json_at(e, {"lanes", lanes[i].c_str(), "prefix_cache", "passes", passes[p].c_str()});
      if (const double t = number_at(pass, {"median_ttft_ms"}); t >= 0)
        ttft.series[i].points.emplace_back(static_cast<double>(p), t / 1000);
      if (const double o = number_at(pass, {"output_tok_s"}); o >= 0)
        output.series[i].points.emplace_back(static_cast<double>(p), o);
    }
  return {ttft, output};
}

std::vector<ChartSpec> speculative_charts(const json& e, const std::vector<std::string>& lanes) {
  std::vector<std::string> levels;  // every lane's levels, by concurrency
  for (const std::string& lane : lanes)
    for (const std::string& level :
         keys_by_concurrency(json_at(e, {"lanes", lane.c_str(), "speculative"})))
      if (std::find(levels.begin(), levels.end(), level) == levels.end()) levels.push_back(level);
  std::sort(levels.begin(), levels.end(),
            [](const auto& a, const auto& b) { return concurrency_of(a) < concurrency_of(b); });
  ChartSpec decode = bars(lanes, {"spec_decode_vs_concurrency",
                                  "Speculative decoding: decode rate per level",
                                  "concurrency",
                                  "decode p50 (tok/s)",
                                  false,
                                  {},
                                  levels,
                                  "each lane's median decode rate at each concurrency level"});
  ChartSpec events = bars(lanes, {"spec_tokens_per_event",
                                  "Speculative decoding: tokens per event",
                                  "concurrency",
                                  "tokens per streamed event (mean)",
                                  false,
                                  {},
                                  levels,
                                  "1.0 = one token per event, as without speculation"});
  size_t positions = 0;
  for (const std::string& lane : lanes)
    for (const std::string& level : levels)
      positions = std::max(positions, json_at(e, {"lanes", lane.c_str(), "speculative",
                                                  level.c_str(), "acceptance", "per_position"})
                                          .size());
  std::vector<std::string> position_names;
  for (size_t k = 1; k <= positions; ++k) position_names.push_back("draft " + std::to_string(k));
  const std::string first = levels.empty() ? std::string() : levels.front();
  ChartSpec acceptance =
      bars(lanes, {"spec_acceptance_per_position",
                   "Speculative decoding: acceptance per draft position",
                   "draft position",
                   "accepted (%)",
                   false,
                   {},
                   position_names,
                   "at " + first + "; from the server's speculative decoding counters"});
  for (size_t i = 0; i < lanes.size(); ++i) {
    const json& lane = json_at(e, {"lanes", lanes[i].c_str(), "speculative"});
    for (size_t l = 0; l < levels.size(); ++l) {
      const json& f = json_at(lane, {levels[l].c_str()});
      if (const double d = number_at(f, {"decode_tok_s", "median"}); d >= 0)
        decode.series[i].points.emplace_back(static_cast<double>(l), d);
      if (const double t = number_at(f, {"tokens_per_event", "mean"}); t >= 0)
        events.series[i].points.emplace_back(static_cast<double>(l), t);
    }
    const json& per_position = json_at(lane, {first.c_str(), "acceptance", "per_position"});
    for (size_t k = 0; k < per_position.size(); ++k)
      if (per_position[k].is_number())
        acceptance.series[i].points.emplace_back(static_cast<double>(k),
                                                 100 * per_position[k].get<double>());
  }
  return {decode, events, acceptance};
}

}  // namespace lb::report
