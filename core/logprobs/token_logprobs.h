#pragma once
// Per-token log probabilities of one generated answer, as a server reported them: the token it
// chose, that token's logprob (natural log, nats), the top-K alternatives the server listed and
// the token ids when the server gave them. Odd wire values are kept and flagged, never fatal.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lb::logprobs {

struct Alternative {
  std::string token;   // the token's bytes (may be part of a UTF-8 character)
  double logprob = 0;  // nats; NaN when the server sent none or an unreadable value
  int64_t id = -1;     // -1 = the server did not say
};

// Why a token's numbers cannot be used as they are (bit flags, several may be set).
enum TokenFlag : uint8_t {
  kNonFiniteLogprob = 1,  // NaN, +/-inf (or a string standing for one)
  kMissingLogprob = 2,    // no logprob, null, or not a number
  kMissingTop = 4,        // top-K asked for, none listed
  kShortTop = 8,          // fewer alternatives listed than asked for
  kInvalidUtf8 = 16,      // the token's bytes are not whole UTF-8 characters (byte-level pieces)
  kBadAlternative = 32,   // an alternative without a usable token or logprob (dropped)
};

struct TokenLogprob {
  std::string token;
  double logprob = 0;
  int64_t id = -1;
  std::vector<Alternative> top;  // as listed by the server, best first after normalize()
  uint8_t flags = 0;
};

using TokenSeries = std::vector<TokenLogprob>;

// Whether a flag set leaves the token's logprob usable for comparison (kInvalidUtf8 and a short
// top-K do; missing or non-finite values do not).
bool usable(const TokenLogprob& t);
// "nan_or_inf_logprob,missing_top" etc.; "ok" for 0.
std::string describe_flags(uint8_t flags);
bool valid_utf8(std::string_view bytes);
// Sorts alternatives by logprob (best first; non-finite last) and sets kMissingTop / kShortTop
// against `requested_top_k` (0 = none asked for). Also marks kInvalidUtf8 on the token.
void normalize(TokenSeries& series, int requested_top_k);
// A logprob of an alternative equal to `token` (by id when both have ids, else by bytes).
const Alternative* find_alternative(const TokenLogprob& at, const std::string& token, int64_t id,
                                    bool by_id);

}  // namespace lb::logprobs
