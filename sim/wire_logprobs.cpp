#include "wire_logprobs.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "text_filler.h"

namespace lb::sim {
namespace {

using ojson = nlohmann::ordered_json;

double rounded(double v) { return std::round(v * 1e6) / 1e6; }

ojson bytes_of(const std::string& s) {
  ojson b = ojson::array();
  for (unsigned char c : s) b.push_back(static_cast<int>(c));
  return b;
}

std::string name_of(const TokenChoice& t, const GenRequest& request) {
  return request.tokens_as_ids ? "token_id:" + std::to_string(t.id) : t.text;
}

ojson chat_entry(const TokenChoice& t, const GenRequest& request) {
  return ojson{
      {"token", name_of(t, request)}, {"logprob", rounded(t.logprob)}, {"bytes", bytes_of(t.text)}};
}

std::string dump(const ojson& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string chat_logprobs_json(const LogprobModel& model, int64_t begin, int64_t end,
                               const GenRequest& request) {
  if (end <= begin) return "null";
  ojson content = ojson::array();
  for (int64_t c = begin; c < end; ++c) {
    const auto top = model.top(c, std::max(1, request.top_logprobs));
    ojson entry = chat_entry(top.front(), request);
    ojson list = ojson::array();
    for (int k = 0; k < request.top_logprobs && k < static_cast<int>(top.size()); ++k)
      list.push_back(chat_entry(top[static_cast<size_t>(k)], request));
    entry["top_logprobs"] = std::move(list);
    content.push_back(std::move(entry));
  }
  return dump(ojson{{"content", std::move(content)}});
}

std::string completion_logprobs_json(const LogprobModel& model, int64_t begin, int64_t end,
                                     int64_t offset_bytes, const GenRequest& request,
                                     const std::vector<TokenId>* prompt) {
  ojson offsets = ojson::array(), values = ojson::array(), tokens = ojson::array(),
        tops = ojson::array();
  const int k = std::max(1, request.top_logprobs);
  if (prompt) {
    // The prompt's tokens scored as vLLM's echo does: the first has no context, so no logprob.
    const uint64_t seed = fnv1a64(request.prompt_text);
    for (size_t i = 0; i < prompt->size(); ++i) {
      const std::string piece = SimTokenizer::piece_text((*prompt)[i]);
      const double lp = -(0.2 + 3.0 * static_cast<double>(fnv1a64(piece, seed + i) % 1000) / 1000);
      offsets.push_back(offset_bytes);
      offset_bytes += static_cast<int64_t>(piece.size());
      tokens.push_back(request.tokens_as_ids ? "token_id:" + std::to_string((*prompt)[i]) : piece);
      if (i == 0) {
        values.push_back(nullptr);
        tops.push_back(nullptr);
        continue;
      }
      values.push_back(rounded(lp));
      tops.push_back(ojson{{tokens.back().get<std::string>(), rounded(lp)}});
    }
  }
  for (int64_t c = begin; c < end; ++c) {
    const auto top = model.top(c, k);
    offsets.push_back(offset_bytes);
    offset_bytes += static_cast<int64_t>(top.front().text.size());
    values.push_back(rounded(top.front().logprob));
    tokens.push_back(name_of(top.front(), request));
    ojson alternatives = ojson::object();
    for (const auto& t : top) alternatives[name_of(t, request)] = rounded(t.logprob);
    tops.push_back(std::move(alternatives));
  }
  return dump(ojson{{"text_offset", std::move(offsets)},
                    {"token_logprobs", std::move(values)},
                    {"tokens", std::move(tokens)},
                    {"top_logprobs", std::move(tops)}});
}

void splice_logprobs(std::string& chunk, const std::string& logprobs_json) {
  static const std::string kNull = "\"logprobs\":null";
  const size_t at = chunk.find(kNull);
  if (at == std::string::npos) return;
  chunk.replace(at + 11, 4, logprobs_json);
}

}  // namespace lb::sim
