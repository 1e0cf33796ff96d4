#pragma once
// SimTokenizer: the simulator's documented, deterministic and invertible tokenizer (see
// sim/README.md "Tokenizer"). Text is cut into word runs (with one leading space attached),
// whitespace runs and single punctuation characters; runs are split into pieces of at most four
// bytes without splitting a UTF-8 code point. A piece's id encodes its bytes, so detokenize needs
// no vocabulary and every id maps back to exactly one piece.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lb::sim {

using TokenId = int64_t;

class SimTokenizer {
 public:
  static constexpr int kMaxPieceBytes = 4;
  // Chat-template markers: one token each, ids above every byte-piece id.
  static constexpr TokenId kImStart = 5'000'000'000;
  static constexpr TokenId kImEnd = 5'000'000'001;
  static constexpr TokenId kThinkStart = 5'000'000'002;
  static constexpr TokenId kThinkEnd = 5'000'000'003;

  static std::vector<std::string_view> pieces(std::string_view text);
  static void encode_append(std::string_view text, std::vector<TokenId>& out);
  static std::vector<TokenId> encode(std::string_view text);
  static int64_t count(std::string_view text);
  static TokenId piece_id(std::string_view piece);
  // Empty string for ids that are neither a piece nor a marker.
  static std::string piece_text(TokenId id);
  static bool valid_id(TokenId id);
  static std::string decode(const std::vector<TokenId>& ids);
};

}  // namespace lb::sim
