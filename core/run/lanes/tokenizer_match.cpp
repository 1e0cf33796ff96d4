#include "core/run/lanes/tokenizer_match.h"

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::run {
namespace {

using nlohmann::json;

const char* const kProbeTextBody =
    "The quick brown fox jumps over the lazy dog: 15% of 240 is 36, and x^2 - 4 = 0. "
    "Naïve café façade — 東京で会いましょう!";

// The lane's ids for the probe text, or why there are none.
std::optional<std::vector<int64_t>> tokenize_probe(net::StreamClient& client,
                                                   const LaneEndpoint& lane, std::string& why) {
  auto req = lane.make_request(lane.root_url("/tokenize"), "POST");
  req.stream = false;
  req.dialect = net::Dialect::PlainText;
  req.body = std::make_shared<const std::string>(json{
      {"model", lane.model},
      {"prompt", kTokenizerProbeText},
      {"add_special_tokens", false}}.dump());
  req.timeouts.total_ms = 30'000;
  const net::StreamResult r = client.fetch(std::move(req));
  if (r.error != net::ErrorKind::None || r.http_status != 200) {
    why = r.http_status > 0 ? "/tokenize answered HTTP " + std::to_string(r.http_status)
                            : "/tokenize failed: " + std::string(net::to_string(r.error));
    return std::nullopt;
  }
  const json j = json::parse(r.body, nullptr, false);
  if (!j.is_object() || !j.contains("tokens") || !j["tokens"].is_array()) {
    why = "/tokenize answered without a token list";
    return std::nullopt;
  }
  std::vector<int64_t> ids;
  for (const auto& id : j["tokens"]) {
    if (!id.is_number_integer()) {
      why = "/tokenize answered ids that are not integers";
      return std::nullopt;
    }
    ids.push_back(id.get<int64_t>());
  }
  return ids;
}

}  // namespace

const char* const kTokenizerProbeText = kProbeTextBody;

const char* to_string(TokenizerMatch::State state) {
  switch (state) {
    case TokenizerMatch::State::Same:
      return "same";
    case TokenizerMatch::State::Different:
      return "different";
    case TokenizerMatch::State::Unknown:
      break;
  }
  return "unknown";
}

TokenizerProbe probe_tokenizer(net::StreamClient& client, const LaneEndpoint& lane) {
  TokenizerProbe out;
  out.ids = tokenize_probe(client, lane, out.why);
  return out;
}

TokenizerMatch match_tokenizers(const std::string& id_a, const TokenizerProbe& a,
                                const std::string& id_b, const TokenizerProbe& b) {
  TokenizerMatch out;
  if (!a.ids || !b.ids) {
    out.reason = "not known: " + (a.ids ? id_b + ": " + b.why : id_a + ": " + a.why);
    return out;
  }
  const std::vector<int64_t>& ids_a = *a.ids;
  const std::vector<int64_t>& ids_b = *b.ids;
  if (ids_a == ids_b) {
    out.state = TokenizerMatch::State::Same;
    out.reason = "/tokenize of the same text gave the same " + std::to_string(ids_a.size()) +
                 " ids on both lanes";
    return out;
  }
  size_t at = 0;
  while (at < ids_a.size() && at < ids_b.size() && ids_a[at] == ids_b[at]) ++at;
  out.state = TokenizerMatch::State::Different;
  out.reason = "/tokenize of the same text gave different ids (" + id_a + ": " +
               std::to_string(ids_a.size()) + " tokens, " + id_b + ": " +
               std::to_string(ids_b.size()) + " tokens; first difference at token " +
               std::to_string(at) + ")";
  return out;
}

TokenizerMatch compare_tokenizers(net::StreamClient& client, const std::string& id_a,
                                  const LaneEndpoint& a, const std::string& id_b,
                                  const LaneEndpoint& b) {
  return match_tokenizers(id_a, probe_tokenizer(client, a), id_b, probe_tokenizer(client, b));
}

nlohmann::json to_json(const TokenizerProbe& probe) {
  if (probe.ids) return {{"ids", *probe.ids}};
  return {{"unavailable", probe.why}};
}

TokenizerProbe tokenizer_probe_from(const nlohmann::json& j) {
  TokenizerProbe out;
  if (j.is_object() && j.contains("ids") && j["ids"].is_array()) {
    std::vector<int64_t> ids;
    for (const auto& id : j["ids"])
      if (id.is_number_integer()) ids.push_back(id.get<int64_t>());
    if (ids.size() == j["ids"].size()) {
      out.ids = std::move(ids);
      return out;
    }
  }
  out.why = j.is_object() && j.contains("unavailable") && j["unavailable"].is_string()
                ? j["unavailable"].get<std::string>()
                : std::string("the shard recorded no /tokenize answer");
  return out;
}

}  // namespace lb::run
