#include "core/logprobs/logprob_lines.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace lb::logprobs {
namespace {

using nlohmann::json;

json text_json(const std::string& bytes) { return token_text_json(bytes); }

}  // namespace

json token_text_json(const std::string& bytes) {
  if (valid_utf8(bytes)) return bytes;
  static const char* kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : bytes) {
    hex.push_back(kHex[c >> 4]);
    hex.push_back(kHex[c & 15]);
  }
  return json{{"x", hex}};
}

namespace {

json logprob_json(double v) {
  if (!std::isfinite(v)) return nullptr;
  const double r = std::round(v * 1e4) / 1e4;
  return std::isfinite(r) ? r : v;  // |v| near DBL_MAX overflows the scaling
}

bool text_from(const json& j, std::string& out) {
  if (j.is_string()) {
    out = j.get<std::string>();
    return true;
  }
  if (!j.is_object() || !j.contains("x") || !j["x"].is_string()) return false;
  const std::string& hex = j["x"].get_ref<const std::string&>();
  if (hex.size() % 2) return false;
  out.clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    const auto nibble = [](char c) {
      return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

double logprob_from(const json& j) {
  return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

bool token_from(const json& j, TokenLogprob& t) {
  if (!j.is_array() || j.size() < 3 || !text_from(j[0], t.token) || !j[2].is_array()) return false;
  t.logprob = logprob_from(j[1]);
  if (j.size() > 3 && j[3].is_number_integer()) t.id = j[3].get<int64_t>();
  if (j.size() > 4 && j[4].is_number_unsigned())
    t.flags = static_cast<uint8_t>(j[4].get<unsigned>());
  for (const auto& a : j[2]) {
    Alternative alt;
    if (!a.is_array() || a.size() < 2 || !text_from(a[0], alt.token)) return false;
    alt.logprob = logprob_from(a[1]);
    if (a.size() > 2 && a[2].is_number_integer()) alt.id = a[2].get<int64_t>();
    t.top.push_back(std::move(alt));
  }
  return true;
}

}  // namespace

std::string to_line(const PromptLogprobs& p) {
  json tokens = json::array();
  for (const auto& t : p.tokens) {
    json top = json::array();
    for (const auto& a : t.top) {
      json alt = json::array({text_json(a.token), logprob_json(a.logprob)});
      if (a.id >= 0) alt.push_back(a.id);
      top.push_back(std::move(alt));
    }
    json entry = json::array({text_json(t.token), logprob_json(t.logprob), std::move(top)});
    if (t.id >= 0 || t.flags) entry.push_back(t.id);
    if (t.flags) entry.push_back(t.flags);
    tokens.push_back(std::move(entry));
  }
  json line = {{"i", p.index}, {"id", p.prompt_id}, {"status", p.status}, {"k", p.top_k}};
  if (!p.note.empty()) line["note"] = p.note;
  line["t"] = std::move(tokens);
  return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::optional<PromptLogprobs> parse_line(std::string_view line, std::string& error) {
  const json j = json::parse(line.begin(), line.end(), nullptr, false);
  if (!j.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  PromptLogprobs p;
  const auto number = [&](const char* k) {
    return j.contains(k) && j[k].is_number_integer() ? j[k].get<int64_t>() : -1;
  };
  p.index = number("i");
  p.top_k = static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(number("k"), 1000)));
  if (j.contains("id") && j["id"].is_string()) p.prompt_id = j["id"];
  if (j.contains("status") && j["status"].is_string()) p.status = j["status"];
  if (j.contains("note") && j["note"].is_string()) p.note = j["note"];
  if (!j.contains("t") || !j["t"].is_array()) {
    error = "no token list \"t\"";
    return std::nullopt;
  }
  for (const auto& entry : j["t"]) {
    TokenLogprob t;
    if (!token_from(entry, t)) {
      error = "token " + std::to_string(p.tokens.size()) + " is not [text, logprob, [top...]]";
      return std::nullopt;
    }
    p.tokens.push_back(std::move(t));
  }
  return p;
}

std::vector<PromptLogprobs> parse_lines(std::string_view text, std::string& error) {
  std::vector<PromptLogprobs> out;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    std::string why;
    auto p = parse_line(line, why);
    if (!p) {
      error = "line " + std::to_string(line_no) + ": " + why;
      return out;
    }
    out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace lb::logprobs
