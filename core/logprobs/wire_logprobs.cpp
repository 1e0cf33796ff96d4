#include "core/logprobs/wire_logprobs.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace lb::logprobs {
namespace {

using nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const json* key(const json& j, const char* name) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(name);
  return (it == j.end() || it->is_null()) ? nullptr : &*it;
}

// A logprob value: number as it is, strings naming NaN/inf flagged, anything else missing.
double read_logprob(const json* v, uint8_t& flags) {
  if (v && v->is_number()) {
    const double d = v->get<double>();
    if (!std::isfinite(d)) flags |= kNonFiniteLogprob;
    return d;
  }
  if (v && v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    if (s == "NaN" || s == "nan") return flags |= kNonFiniteLogprob, kNaN;
    if (s == "-Infinity" || s == "-inf") {
      flags |= kNonFiniteLogprob;
      return -std::numeric_limits<double>::infinity();
    }
    if (s == "Infinity" || s == "inf") {
      flags |= kNonFiniteLogprob;
      return std::numeric_limits<double>::infinity();
    }
  }
  flags |= kMissingLogprob;
  return kNaN;
}

int64_t read_id(const json& e, const char* name) {
  const json* v = key(e, name);
  if (v && v->is_number_integer()) return v->get<int64_t>();
  if (v && v->is_number_unsigned() && v->get<uint64_t>() <= INT64_MAX)
    return static_cast<int64_t>(v->get<uint64_t>());
  return -1;
}

// Token text: the "bytes" array when it is one (exact even for partial UTF-8 characters), else
// the string. vLLM's "token_id:N" names the id; its text is then only in bytes.
bool read_token(const json& e, const char* text_key, std::string& token, int64_t& id) {
  bool have = false;
  if (const json* t = key(e, text_key); t && t->is_string()) {
    token = t->get<std::string>();
    have = true;
    if (token.rfind("token_id:", 0) == 0) {
      char* end = nullptr;
      const long long n = std::strtoll(token.c_str() + 9, &end, 10);
      if (end && *end == '\0' && n >= 0) id = n, token.clear();
    }
  }
  if (const json* b = key(e, "bytes"); b && b->is_array()) {
    std::string bytes;
    for (const auto& x : *b) {
      if (!x.is_number_integer() || x.get<int64_t>() < 0 || x.get<int64_t>() > 255) return have;
      bytes.push_back(static_cast<char>(x.get<int64_t>()));
    }
    token = std::move(bytes);
    have = true;
  }
  return have;
}

// One {token, logprob, bytes, id} object (OpenAI chat, Ollama, llama.cpp) into an alternative.
bool read_alternative(const json& e, const char* text_key, const char* lp_key, Alternative& a) {
  uint8_t flags = 0;
  a.id = read_id(e, "id");
  if (a.id < 0) a.id = read_id(e, "token_id");
  const bool have = read_token(e, text_key, a.token, a.id);
  a.logprob = read_logprob(key(e, lp_key), flags);
  return (have || a.id >= 0) && (flags & kMissingLogprob) == 0;
}

void read_top_list(const json* list, const char* text_key, const char* lp_key, TokenLogprob& t) {
  if (!list || !list->is_array()) return;
  for (const auto& e : *list) {
    Alternative a;
    if (read_alternative(e, text_key, lp_key, a)) {
      t.top.push_back(std::move(a));
    } else {
      t.flags |= kBadAlternative;
    }
  }
}

void append_entries(const json& entries, const char* text_key, TokenSeries& out) {
  if (!entries.is_array()) return;
  for (const auto& e : entries) {
    TokenLogprob t;
    t.id = read_id(e, "id");
    if (!read_token(e, text_key, t.token, t.id)) t.flags |= kMissingLogprob;
    t.logprob = read_logprob(key(e, "logprob"), t.flags);
    read_top_list(key(e, "top_logprobs"), text_key, "logprob", t);
    out.push_back(std::move(t));
  }
}

}  // namespace

void append_openai_chat(const json& choice_logprobs, TokenSeries& out) {
  if (const json* content = key(choice_logprobs, "content")) append_entries(*content, "token", out);
}

void append_ollama(const json& logprobs, TokenSeries& out) {
  append_entries(logprobs, "token", out);
}

void append_openai_completions(const json& lp, TokenSeries& out) {
  const json* tokens = key(lp, "tokens");
  if (!tokens || !tokens->is_array()) return;
  const json* values = key(lp, "token_logprobs");
  const json* tops = key(lp, "top_logprobs");
  for (size_t i = 0; i < tokens->size(); ++i) {
    TokenLogprob t;
    const json& tok = (*tokens)[i];
    if (tok.is_string()) {
      read_token(json{{"token", tok}}, "token", t.token, t.id);
    } else {
      t.flags |= kMissingLogprob;
    }
    const bool have_value = values && values->is_array() && i < values->size();
    t.logprob = read_logprob(have_value ? &(*values)[i] : nullptr, t.flags);
    if (tops && tops->is_array() && i < tops->size() && (*tops)[i].is_object()) {
      for (const auto& [text, value] : (*tops)[i].items()) {
        Alternative a;
        uint8_t flags = 0;
        read_token(json{{"token", text}}, "token", a.token, a.id);
        a.logprob = read_logprob(&value, flags);
        if (flags & kMissingLogprob) {
          t.flags |= kBadAlternative;
          continue;
        }
        t.top.push_back(std::move(a));
      }
    }
    out.push_back(std::move(t));
  }
}

void append_vllm_prompt_logprobs(const json& prompt_logprobs,
                                 const std::vector<int64_t>& prompt_ids, int top_k,
                                 TokenSeries& out) {
  if (!prompt_logprobs.is_array()) return;
  for (size_t i = 0; i < prompt_ids.size(); ++i) {
    TokenLogprob t;
    t.id = prompt_ids[i];
    const json* entry = i < prompt_logprobs.size() ? &prompt_logprobs[i] : nullptr;
    const json* own =
        entry && entry->is_object() ? key(*entry, std::to_string(t.id).c_str()) : nullptr;
    t.logprob = read_logprob(own ? key(*own, "logprob") : nullptr, t.flags);
    if (own && key(*own, "decoded_token") && (*own)["decoded_token"].is_string())
      t.token = (*own)["decoded_token"].get<std::string>();
    static const json kNoEntry = json::object();
    const json& listed = entry && entry->is_object() ? *entry : kNoEntry;
    for (const auto& [id_text, value] : listed.items()) {
      const json* rank = key(value, "rank");
      if (rank && rank->is_number() && rank->get<double>() > top_k) continue;
      Alternative a;
      uint8_t flags = 0;
      a.logprob = read_logprob(key(value, "logprob"), flags);
      char* end = nullptr;
      a.id = std::strtoll(id_text.c_str(), &end, 10);
      if ((flags & kMissingLogprob) || end == id_text.c_str() || *end != '\0') {
        t.flags |= kBadAlternative;
        continue;
      }
      if (key(value, "decoded_token") && value["decoded_token"].is_string())
        a.token = value["decoded_token"].get<std::string>();
      t.top.push_back(std::move(a));
    }
    out.push_back(std::move(t));
  }
}

void append_llamacpp(const json& probs, TokenSeries& out) {
  if (!probs.is_array()) return;
  for (const auto& e : probs) {
    if (!key(e, "probs")) {
      append_entries(json::array({e}), "token", out);
      continue;
    }
    // Older builds: {content, probs[{tok_str, prob}]}, probabilities in [0, 1].
    TokenLogprob t;
    uint8_t flags = 0;
    if (!read_token(e, "content", t.token, t.id)) t.flags |= kMissingLogprob;
    const json* list = key(e, "probs");
    t.logprob = kNaN;
    for (const auto& p : list->is_array() ? *list : json::array()) {
      Alternative a;
      const double prob = read_logprob(key(p, "prob"), flags);
      if (!read_token(p, "tok_str", a.token, a.id) || (flags & kMissingLogprob)) {
        t.flags |= kBadAlternative;
        flags = 0;
        continue;
      }
      a.logprob = prob > 0 ? std::log(prob) : -std::numeric_limits<double>::infinity();
      if (a.token == t.token && std::isnan(t.logprob)) t.logprob = a.logprob;
      t.top.push_back(std::move(a));
    }
    if (std::isnan(t.logprob)) t.flags |= kMissingLogprob;
    if (!std::isfinite(t.logprob) && !std::isnan(t.logprob)) t.flags |= kNonFiniteLogprob;
    out.push_back(std::move(t));
  }
}

void append_tgi_token(const json& token, const json* top_tokens, TokenSeries& out) {
  TokenLogprob t;
  t.id = read_id(token, "id");
  if (!read_token(token, "text", t.token, t.id)) t.flags |= kMissingLogprob;
  t.logprob = read_logprob(key(token, "logprob"), t.flags);
  read_top_list(top_tokens, "text", "logprob", t);
  out.push_back(std::move(t));
}

void append_tgi_details(const json& details, TokenSeries& out) {
  const json* tokens = key(details, "tokens");
  if (!tokens || !tokens->is_array()) return;
  const json* tops = key(details, "top_tokens");
  for (size_t i = 0; i < tokens->size(); ++i) {
    const json* top = (tops && tops->is_array() && i < tops->size()) ? &(*tops)[i] : nullptr;
    append_tgi_token((*tokens)[i], top, out);
  }
}

bool quote_nonfinite_literals(std::string_view in, std::string& out) {
  out.clear();
  bool in_string = false, changed = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < in.size()) {
        out.push_back(in[++i]);
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    bool quoted = false;
    for (std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
      if (in.substr(i, word.size()) == word) {
        out += '"';
        out += word;
        out += '"';
        i += word.size() - 1;
        quoted = changed = true;
        break;
      }
    }
    if (!quoted) out.push_back(c);
  }
  return changed;
}

}  // namespace lb::logprobs
