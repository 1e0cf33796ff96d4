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
  return request.tokens_as_ids ? "token_id:" + std::to_string(t.id + request.token_id_offset)
                               : t.text;
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
                                     const std::vector<PromptTokenScore>* prompt) {
  ojson offsets = ojson::array(), values = ojson::array(), tokens = ojson::array(),
        tops = ojson::array();
  const int k = std::max(1, request.top_logprobs);
  if (prompt) {
    // The prompt's tokens as vLLM's echo lists them: the first has no context, so no logprob;
    // each other lists the token itself and the lane's top-k there.
    for (const auto& p : *prompt) {
      offsets.push_back(offset_bytes);
      offset_bytes += static_cast<int64_t>(p.text.size());
      const TokenChoice self{p.text, p.id, p.logprob.value_or(0)};
      tokens.push_back(name_of(self, request));
      if (!p.logprob) {
        values.push_back(nullptr);
        tops.push_back(nullptr);
        continue;
      }
      values.push_back(rounded(*p.logprob));
      ojson alternatives = ojson::object();
      for (const auto& t : p.top) alternatives[name_of(t, request)] = rounded(t.logprob);
      alternatives[name_of(self, request)] = rounded(*p.logprob);
      tops.push_back(std::move(alternatives));
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

std::string prompt_logprobs_json(const std::vector<PromptTokenScore>& prompt,
                                 int64_t token_id_offset) {
  ojson out = ojson::array();
  for (const auto& p : prompt) {
    if (!p.logprob) {
      out.push_back(nullptr);
      continue;
    }
    ojson entry = ojson::object();
    entry[std::to_string(p.id + token_id_offset)] = {
        {"logprob", rounded(*p.logprob)}, {"rank", p.rank}, {"decoded_token", p.text}};
    for (size_t r = 0; r < p.top.size(); ++r) {
      const std::string key = std::to_string(p.top[r].id + token_id_offset);
      if (entry.contains(key)) continue;
      entry[key] = {{"logprob", rounded(p.top[r].logprob)},
                    {"rank", static_cast<int>(r) + 1},
                    {"decoded_token", p.top[r].text}};
    }
    out.push_back(std::move(entry));
  }
  return dump(out);
}

void splice_prompt_logprobs(std::string& body, const std::string& prompt_logprobs_json) {
  static const std::string kNull = "\"prompt_logprobs\":null";
  const size_t at = body.find(kNull);
  if (at == std::string::npos) return;
  body.replace(at + kNull.size() - 4, 4, prompt_logprobs_json);
}

void splice_logprobs(std::string& chunk, const std::string& logprobs_json) {
  static const std::string kNull = "\"logprobs\":null";
  const size_t at = chunk.find(kNull);
  if (at == std::string::npos) return;
  chunk.replace(at + 11, 4, logprobs_json);
}

}  // namespace lb::sim
