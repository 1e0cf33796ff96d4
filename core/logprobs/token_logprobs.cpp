#include "core/logprobs/token_logprobs.h"

#include <algorithm>
#include <cmath>

namespace lb::logprobs {

bool usable(const TokenLogprob& t) {
  return (t.flags & (kNonFiniteLogprob | kMissingLogprob)) == 0 && std::isfinite(t.logprob);
}

std::string describe_flags(uint8_t flags) {
  if (flags == 0) return "ok";
  static constexpr std::pair<uint8_t, const char*> kNames[] = {
      {kNonFiniteLogprob, "nan_or_inf_logprob"},
      {kMissingLogprob, "missing_logprob"},
      {kMissingTop, "missing_top_k"},
      {kShortTop, "short_top_k"},
      {kInvalidUtf8, "invalid_utf8_piece"},
      {kBadAlternative, "bad_alternative"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((flags & bit) == 0) continue;
    if (!out.empty()) out += ',';
    out += name;
  }
  return out;
}

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (s.size() - i <= n) return false;
    for (size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

void normalize(TokenSeries& series, int requested_top_k) {
  const auto better = [](const Alternative& a, const Alternative& b) {
    const bool fa = std::isfinite(a.logprob), fb = std::isfinite(b.logprob);
    if (fa != fb) return fa;
    return fa && a.logprob > b.logprob;
  };
  for (auto& t : series) {
    std::stable_sort(t.top.begin(), t.top.end(), better);
    if (requested_top_k > 0 && t.top.empty()) t.flags |= kMissingTop;
    if (requested_top_k > 0 && !t.top.empty() &&
        t.top.size() < static_cast<size_t>(requested_top_k))
      t.flags |= kShortTop;
    if (!valid_utf8(t.token)) t.flags |= kInvalidUtf8;
  }
}

const Alternative* find_alternative(const TokenLogprob& at, const std::string& token, int64_t id,
                                    bool by_id) {
  for (const auto& a : at.top) {
    if (by_id ? (a.id >= 0 && a.id == id) : a.token == token) return &a;
  }
  return nullptr;
}

}  // namespace lb::logprobs
