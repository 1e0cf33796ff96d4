#pragma once
// Whether two lanes cut text into the same token ids: each lane's POST /tokenize is asked for the
// ids of one fixed text (no chat template, no special tokens) and the lists are compared. Lanes
// serving different model families (other vocabularies, other sizes) give other ids; token
// positions and ids of one lane then mean nothing to the other, so the divergence analysis
// compares the texts and cross-scoring is not attempted. A lane without /tokenize leaves the
// question open: the analysis then judges each pair by its own tokens.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "core/run/lanes/lane_endpoint.h"

namespace lb::run {

// The text both lanes tokenize: words, digits, punctuation, accents and a CJK run, so that
// vocabularies which agree on plain words still part somewhere.
extern const char* const kTokenizerProbeText;

struct TokenizerMatch {
  enum class State { Same, Different, Unknown };
  State state = State::Unknown;
  std::string reason;  // plain words: what was compared and what came back
};
const char* to_string(TokenizerMatch::State state);  // "same", "different", "unknown"

// One lane's ids for kTokenizerProbeText, or why there are none.
struct TokenizerProbe {
  std::optional<std::vector<int64_t>> ids;
  std::string why;
};
TokenizerProbe probe_tokenizer(net::StreamClient& client, const LaneEndpoint& lane);
// Two lanes' probes compared (what compare_tokenizers does once it has both).
TokenizerMatch match_tokenizers(const std::string& id_a, const TokenizerProbe& a,
                                const std::string& id_b, const TokenizerProbe& b);
// A probe as a shard records it ({"ids": [...]} or {"unavailable": why}), and read back.
nlohmann::json to_json(const TokenizerProbe& probe);
TokenizerProbe tokenizer_probe_from(const nlohmann::json& j);

TokenizerMatch compare_tokenizers(net::StreamClient& client, const std::string& id_a,
                                  const LaneEndpoint& a, const std::string& id_b,
                                  const LaneEndpoint& b);

}  // namespace lb::run
