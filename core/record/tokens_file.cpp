#include "core/record/tokens_file.h"

#include <cmath>
#include <limits>

namespace lb::record {
namespace {

using nlohmann::json;

std::optional<double> number_of(const json& parent, const std::string& path, const char* key,
                                FileFields& f) {
  const double value = f.number(parent, path, key, std::numeric_limits<double>::quiet_NaN());
  return std::isnan(value) ? std::nullopt : std::optional<double>(value);
}

CrossDirection read_direction(const json& d, const std::string& path, FileFields& f) {
  CrossDirection out;
  out.scored = f.string(d, path, "status", "ok") == "ok";
  if (!out.scored) out.reason = f.string(d, path, "reason", "not scored");
  out.top1_agreement = number_of(d, path, "top1_agreement", f);
  out.mean_kl_nats = number_of(d, path, "mean_kl_nats", f);
  if (!out.mean_kl_nats) out.mean_kl_nats = number_of(d, path, "kl", f);
  return out;
}

std::optional<CrossDirection> direction_at(const json& parent, const std::string& path,
                                           const char* key, FileFields& f) {
  if (!parent.contains(key)) return std::nullopt;
  const json& d = f.object(parent, path, key);
  if (!d.is_object() || !parent[key].is_object()) return std::nullopt;
  return read_direction(d, path + "." + key, f);
}

TokenPair read_pair(const json& p, const std::string& path, FileFields& f) {
  TokenPair t;
  const double index = f.number(p, path, "index", -1);
  if (p.contains("index") && p["index"].is_number_integer()) t.index = static_cast<int64_t>(index);
  t.cause = f.string(p, path, "class");
  t.reason = f.string(p, path, "reason");
  t.token_index = static_cast<int64_t>(f.number(p, path, "token_index", -1));
  t.baseline_margin_nats = number_of(p, path, "baseline_margin_nats", f);
  if (p.contains("cross_score")) {
    const json& cross = f.object(p, path, "cross_score");
    const std::string at = path + ".cross_score";
    t.candidate_under_baseline = direction_at(cross, at, "candidate_under_baseline", f);
    t.baseline_under_candidate = direction_at(cross, at, "baseline_under_candidate", f);
    if (!t.candidate_under_baseline && !t.baseline_under_candidate && !cross.empty())
      t.cross_whole = read_direction(cross, at, f);
  }
  t.flat = read_direction(p, path, f);
  return t;
}

}  // namespace

TokensFile read_tokens_file(const json& doc, FileFields& f) {
  TokensFile out;
  if (!doc.is_object()) return out;
  const json& th = f.object(doc, "", "thresholds");
  out.near_tie_margin_nats = number_of(th, "thresholds", "near_tie_margin_nats", f);
  if (const auto top_k = number_of(th, "thresholds", "top_k", f))
    out.top_k = static_cast<int64_t>(*top_k);
  out.has_pairs = doc.contains("pairs");
  const json& pairs = f.array(doc, "", "pairs");
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string path = FileFields::item_path("", "pairs", i);
    if (f.expect_object(pairs[i], path)) out.pairs.push_back(read_pair(pairs[i], path, f));
  }
  return out;
}

TokensFile read_tokens_file_text(std::string_view text, FileFields& f) {
  return read_tokens_file(f.parse_object(text), f);
}

}  // namespace lb::record
