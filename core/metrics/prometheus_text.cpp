#include "core/metrics/prometheus_text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace lb::metrics {
namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

// A cursor over one line; every parse step reports failure with a message instead of throwing.
struct LineCursor {
  std::string_view s;
  size_t pos = 0;

  bool done() const { return pos >= s.size(); }
  char peek() const { return done() ? '\0' : s[pos]; }
  void skip_blanks() {
    while (!done() && is_blank(s[pos])) {
      ++pos;
    }
  }
  std::string_view name() {
    const size_t start = pos;
    if (done() || !is_name_start(s[pos])) {
      return {};
    }
    while (!done() && is_name_char(s[pos])) {
      ++pos;
    }
    return s.substr(start, pos - start);
  }
  std::string_view token() {
    const size_t start = pos;
    while (!done() && !is_blank(s[pos])) {
      ++pos;
    }
    return s.substr(start, pos - start);
  }
};

std::optional<double> parse_value(std::string_view text) {
  if (text.empty()) {
    return std::nullopt;
  }
  if (text == "+Inf" || text == "Inf" || text == "+inf" || text == "inf") {
    return std::numeric_limits<double>::infinity();
  }
  if (text == "-Inf" || text == "-inf") {
    return -std::numeric_limits<double>::infinity();
  }
  if (text == "NaN" || text == "nan") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (text.front() == '+') {
    text.remove_prefix(1);
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> parse_timestamp(std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return v;
}

// HELP text escapes: \\ and \n. Label values add \". Other backslashes are kept as written.
std::string unescape(std::string_view text, bool allow_quote) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      const char n = text[i + 1];
      if (n == '\\' || n == 'n' || (allow_quote && n == '"')) {
        out.push_back(n == 'n' ? '\n' : n);
        ++i;
        continue;
      }
    }
    out.push_back(c);
  }
  return out;
}

std::optional<MetricType> parse_type(std::string_view text) {
  if (text == "counter") {
    return MetricType::Counter;
  }
  if (text == "gauge") {
    return MetricType::Gauge;
  }
  if (text == "histogram") {
    return MetricType::Histogram;
  }
  if (text == "summary") {
    return MetricType::Summary;
  }
  if (text == "untyped") {
    return MetricType::Untyped;
  }
  return std::nullopt;
}

// Parses `{a="x",b="y"}` starting at '{'. Returns an error message or empty on success.
std::string parse_labels(LineCursor& cur, PromSample& sample) {
  ++cur.pos;  // '{'
  while (true) {
    cur.skip_blanks();
    if (cur.peek() == '}') {
      ++cur.pos;
      return {};
    }
    const std::string_view key = cur.name();
    if (key.empty()) {
      return "expected a label name";
    }
    cur.skip_blanks();
    if (cur.peek() != '=') {
      return "expected '=' after label '" + std::string(key) + "'";
    }
    ++cur.pos;
    cur.skip_blanks();
    if (cur.peek() != '"') {
      return "expected '\"' to open the value of label '" + std::string(key) + "'";
    }
    const size_t start = ++cur.pos;
    while (!cur.done() && cur.peek() != '"') {
      cur.pos += cur.peek() == '\\' ? 2 : 1;
    }
    if (cur.done()) {
      return "unterminated value of label '" + std::string(key) + "'";
    }
    sample.labels.emplace_back(std::string(key),
                               unescape(cur.s.substr(start, cur.pos - start), true));
    ++cur.pos;  // closing quote
    cur.skip_blanks();
    if (cur.peek() == ',') {
      ++cur.pos;
    } else if (cur.peek() != '}') {
      return "expected ',' or '}' after label '" + std::string(key) + "'";
    }
  }
}

std::string parse_sample_line(std::string_view line, PromSample& sample) {
  LineCursor cur{line};
  cur.skip_blanks();
  const std::string_view name = cur.name();
  if (name.empty()) {
    return "expected a metric name";
  }
  sample.name = std::string(name);
  cur.skip_blanks();
  if (cur.peek() == '{') {
    std::string err = parse_labels(cur, sample);
    if (!err.empty()) {
      return err;
    }
  }
  cur.skip_blanks();
  const std::string_view value_text = cur.token();
  const auto value = parse_value(value_text);
  if (!value) {
    return value_text.empty() ? "missing value" : "bad value '" + std::string(value_text) + "'";
  }
  sample.value = *value;
  cur.skip_blanks();
  if (!cur.done()) {
    const std::string_view ts_text = cur.token();
    const auto ts = parse_timestamp(ts_text);
    if (!ts) {
      return "bad timestamp '" + std::string(ts_text) + "'";
    }
    sample.timestamp_ms = *ts;
    cur.skip_blanks();
    if (!cur.done()) {
      return "unexpected text after the timestamp";
    }
  }
  return {};
}

// "# HELP name text" / "# TYPE name type"; any other comment is ignored.
std::string parse_comment_line(std::string_view line, PrometheusSnapshot& snap) {
  LineCursor cur{line};
  ++cur.pos;  // '#'
  cur.skip_blanks();
  const std::string_view keyword = cur.token();
  if (keyword != "HELP" && keyword != "TYPE") {
    return {};
  }
  cur.skip_blanks();
  const std::string_view name = cur.name();
  if (name.empty()) {
    return "expected a metric name after # " + std::string(keyword);
  }
  if (!cur.done() && !is_blank(cur.peek())) {
    return "bad metric name after # " + std::string(keyword);
  }
  cur.skip_blanks();
  const std::string_view rest = cur.s.substr(cur.pos);
  if (keyword == "HELP") {
    snap.families[std::string(name)].help = unescape(rest, false);
    return {};
  }
  std::string_view type_text = rest;
  while (!type_text.empty() && is_blank(type_text.back())) {
    type_text.remove_suffix(1);
  }
  const auto type = parse_type(type_text);
  if (!type) {
    return "unknown metric type '" + std::string(type_text) + "'";
  }
  snap.families[std::string(name)].type = *type;
  return {};
}

bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The family of a sample: its own name when declared, else the declared family it extends with
// one of the suffixes the exposition formats append.
std::string family_of(const std::string& name, const std::map<std::string, PromFamilyInfo>& fams) {
  if (fams.count(name)) {
    return name;
  }
  static constexpr std::array<std::string_view, 8> kSuffixes = {
      "_total", "_created", "_bucket", "_sum", "_count", "_info", "_gsum", "_gcount"};
  for (const auto suffix : kSuffixes) {
    if (!has_suffix(name, suffix)) {
      continue;
    }
    std::string base = name.substr(0, name.size() - suffix.size());
    if (fams.count(base)) {
      return base;
    }
  }
  return name;
}

}  // namespace

const char* to_string(MetricType type) {
  switch (type) {
    case MetricType::Counter:
      return "counter";
    case MetricType::Gauge:
      return "gauge";
    case MetricType::Histogram:
      return "histogram";
    case MetricType::Summary:
      return "summary";
    case MetricType::Untyped:
      return "untyped";
  }
  return "untyped";
}

const std::string* PromSample::label(std::string_view key) const {
  for (const auto& [k, v] : labels) {
    if (k == key) {
      return &v;
    }
  }
  return nullptr;
}

std::vector<const PromSample*> PrometheusSnapshot::find(std::string_view name) const {
  std::vector<const PromSample*> out;
  for (const auto& s : samples) {
    if (s.name == name) {
      out.push_back(&s);
    }
  }
  return out;
}

std::optional<double> PrometheusSnapshot::sum(std::string_view name) const {
  std::optional<double> total;
  for (const auto& s : samples) {
    if (s.name == name) {
      total = total.value_or(0.0) + s.value;
    }
  }
  return total;
}

MetricType PrometheusSnapshot::type_of_family(std::string_view family) const {
  const auto it = families.find(std::string(family));
  return it == families.end() ? MetricType::Untyped : it->second.type;
}

PrometheusSnapshot parse_prometheus_text(std::string_view text) {
  PrometheusSnapshot snap;
  int line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    size_t first = 0;
    while (first < line.size() && is_blank(line[first])) {
      ++first;
    }
    if (first == line.size()) {
      continue;
    }
    line.remove_prefix(first);
    std::string err;
    if (line.front() == '#') {
      err = parse_comment_line(line, snap);
    } else {
      PromSample sample;
      err = parse_sample_line(line, sample);
      if (err.empty()) {
        snap.samples.push_back(std::move(sample));
      }
    }
    if (!err.empty()) {
      snap.issues.push_back({line_no, err});
    }
  }
  for (auto& s : snap.samples) {
    s.family = family_of(s.name, snap.families);
    snap.families.try_emplace(s.family);
  }
  return snap;
}

}  // namespace lb::metrics
