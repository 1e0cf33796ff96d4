// What a reader must know before trusting the numbers: incomplete runs,
// estimated figures, missing counters, failed requests, unsupported gates,
// unreviewed pairs and differences that batching alone explains.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "core/record/merged_from.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

void request_caveats(const RunFolder& folder, std::vector<std::string>& out) {
  for (const auto& [lane, n] : folder.digest.estimated_outputs())
    out.push_back("Lane " + lane + ": output token counts of " + std::to_string(n) +
                  " requests are estimated (the server reported no usage).");
  for (const auto& [lane, n] : folder.digest.failed())
    out.push_back("Lane " + lane + ": " + std::to_string(n) +
                  " requests failed; they are excluded from latency and rate figures.");
}

// The time scale in a simulator base URL ("sim:fp8?time_scale=0.02&..."); 1 when none is given.
double sim_time_scale(const std::string& base_url) {
  const auto query = base_url.find('?');
  if (query == std::string::npos) return 1.0;
  for (size_t at = query + 1; at < base_url.size();) {
    const size_t end = std::min(base_url.find('&', at), base_url.size());
    const std::string pair = base_url.substr(at, end - at);
    if (pair.rfind("time_scale=", 0) == 0) {
      char* stop = nullptr;
      const std::string value = pair.substr(11);
      const double scale = std::strtod(value.c_str(), &stop);
      return stop != value.c_str() && scale > 0 ? scale : 1.0;
    }
    at = end + 1;
  }
  return 1.0;
}

std::string scale_text(double scale) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", scale);
  return buf;
}

void lane_caveats(const RunFolder& folder, std::vector<std::string>& out) {
  for (const auto& id : folder.lane_ids()) {
    const record::LaneEnvironmentRecord* env = folder.environment.lane(id);
    if (!env) continue;
    if (env->metrics_available == false)
      out.push_back("Lane " + id +
                    " exposes no /metrics: server counters (prefix-cache hits, "
                    "speculative "
                    "acceptance, KV capacity) are unavailable for it.");
    if (env->tls_verification.rfind("DISABLED", 0) == 0)
      out.push_back("Lane " + id + " was measured with TLS verification disabled.");
    if (const std::string& host = env->key_over_plain_http_to; !host.empty())
      out.push_back("Lane " + id + " sent its API key over plain http to " + host +
                    " (the plan allowed it with allow_key_over_http): anyone on that network "
                    "path could read the key.");
    const std::string& base_url = env->base_url;
    if (base_url.rfind("sim:", 0) != 0) continue;
    out.push_back("Lane " + id +
                  " was served by the built-in simulator: its figures model a server, they do "
                  "not measure one.");
    if (const double scale = sim_time_scale(base_url); scale < 1.0)
      out.push_back("Lane " + id + " ran the simulator at time scale " + scale_text(scale) +
                    ": every modelled delay is " + scale_text(1.0 / scale) +
                    " times shorter, so its times and rates are not a server's, and times "
                    "under a millisecond are at the timer's resolution. Compare lanes by ratio.");
  }
}

void experiment_caveats(const RunFolder& folder, std::vector<std::string>& out) {
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::PrefixCache))
    for (const record::LaneRecord& lane : e->lanes)
      if (const auto pc = lane.prefix_cache(); pc && !pc->warning.empty())
        out.push_back("Lane " + lane.id + ": " + pc->warning + ".");
  for (const record::ExperimentSection& e : folder.record.experiments)
    if (const std::string status = e.status();
        status == "interrupted" || status == "not_implemented" || status == "not_run")
      out.push_back("Experiment " + (e.name.empty() ? std::string("?") : e.name) + " is " + status +
                    "; its figures are partial or absent.");
  // Managed lanes whose server could not serve (docs/plan-file.md, "Managed lanes").
  for (const std::string& failure : folder.record.run.server_failures())
    out.push_back(failure + ".");
}

void review_caveats(const RunFolder& folder, std::vector<std::string>& out) {
  for (const auto& review : folder.reviews) {
    const auto outcome = review.outcome();
    if (outcome.unreviewed_required > 0)
      out.push_back("Regression " + review.lane_a + " vs " + review.lane_b + ": " +
                    std::to_string(outcome.unreviewed_required) +
                    " pair(s) that need review have no verdict yet.");
  }
}

// "p03 (fp8)" or "p11 (bf16, fp8)".
std::string variant_pair_text(const compare::PairReview& pair) {
  std::string lanes;
  for (const std::string& lane : pair.batch_variant) lanes += (lanes.empty() ? "" : ", ") + lane;
  return pair.comparison.prompt_id + " (" + lanes + ")";
}

}  // namespace

std::vector<std::string> batch_variant_caveats(const RunFolder& folder) {
  std::vector<std::string> out;
  for (const auto& review : folder.reviews) {
    std::vector<std::string> named;
    for (const auto& pair : review.pairs)
      if (!pair.batch_variant.empty() &&
          pair.comparison.triage.triage != compare::TriageClass::Identical)
        named.push_back(variant_pair_text(pair));
    if (named.empty()) continue;
    std::string ids;
    for (const std::string& n : named) ids += (ids.empty() ? "" : ", ") + n;
    out.push_back("Regression " + review.lane_a + " vs " + review.lane_b + ": " +
                  std::to_string(named.size()) +
                  " differing prompt(s) are batch-variant, their greedy answer changing under "
                  "load on the lane(s) named: " +
                  ids +
                  ". Batching alone moves them, so their differences are not evidence "
                  "against " +
                  review.lane_b + "'s configuration.");
  }
  return out;
}

// A run merged from shards (docs/fleet.md): where they ran, and which a partial merge left out.
void shard_caveats(const RunFolder& folder, std::vector<std::string>& out) {
  const auto merged = record::merged_from(folder.record);
  if (!merged) return;
  std::string shards;
  for (const record::ShardOrigin& s : merged->shards)
    shards += (shards.empty() ? "" : "; ") + record::describe(s);
  char offset[32];
  // Rounded as each shard's offset is (record::describe), half away from zero.
  std::snprintf(offset, sizeof offset, "%.0f ms", std::round(merged->largest_offset_ms()));
  out.push_back("Merged from " + std::to_string(merged->shards.size()) + " shards (" + shards +
                "); the largest clock offset against the lanes' servers was " + offset + ".");
  if (!merged->partial()) return;
  std::string list;
  for (int64_t i : merged->missing) list += (list.empty() ? "" : ", ") + std::to_string(i);
  out.push_back("Partial run: shard(s) " + list + " of " + std::to_string(merged->of) +
                " are missing or did not finish; their lanes are absent from every table.");
}

std::vector<std::string> report_caveats(const RunFolder& folder) {
  std::vector<std::string> out;
  if (!folder.complete)
    out.push_back(!folder.has_summary ? "Incomplete run: it stopped before writing its "
                                        "summary; tables come from "
                                        "what was recorded and may be empty."
                                      : "Incomplete run: it was interrupted; experiments after "
                                        "the stop are "
                                        "missing and the last one may be partial.");
  shard_caveats(folder, out);
  if (folder.torn_lines > 0)
    out.push_back(std::to_string(folder.torn_lines) +
                  " line(s) of requests.jsonl were cut short (the run was "
                  "killed while writing) "
                  "and are left out.");
  request_caveats(folder, out);
  lane_caveats(folder, out);
  experiment_caveats(folder, out);
  review_caveats(folder, out);
  for (std::string& c : batch_variant_caveats(folder)) out.push_back(std::move(c));
  for (auto& caveat : multimodal_caveats(folder)) out.push_back(std::move(caveat));
  if (!folder.decision) out.push_back("No decision has been recorded for this run yet.");
  return out;
}

}  // namespace lb::report
