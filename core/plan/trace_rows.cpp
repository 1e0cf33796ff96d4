#include "core/plan/trace_rows.h"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/text/civil_date.h"

namespace lb::plan::detail {
namespace {

using nlohmann::json;

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// RFC 4180 fields: commas separate, double quotes enclose, "" is a quote inside quotes.
std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  for (auto& f : fields) {
    f = std::string(trim_blanks(f));
  }
  return fields;
}

std::optional<int64_t> parse_whole(std::string_view s) {
  s = trim_blanks(s);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
    return std::nullopt;
  }
  return v;
}

std::optional<double> parse_number(std::string_view s) {
  s = trim_blanks(s);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

std::string shown_field(std::string_view s) {
  constexpr size_t kMaxShown = 40;
  std::string out(s.substr(0, kMaxShown));
  if (s.size() > kMaxShown) {
    out += "...";
  }
  return "'" + out + "'";
}

// Beyond any model's context: a count this large is a broken row, not a request to build.
constexpr int64_t kMaxTraceTokens = 10'000'000;
// Offsets are int64 ns: about 292 years. Timestamps stay well inside that.
constexpr double kMaxTimestampS = 1e9;
constexpr int64_t kMinYear = 1970;
constexpr int64_t kMaxYear = 2200;

// A request must ask for at least one prompt and one output token, and for a sane number.
std::string check_tokens(const TraceRow& row, const char* input_name, const char* output_name) {
  for (const auto& [count, name] :
       {std::pair{row.input_tokens, input_name}, std::pair{row.output_tokens, output_name}}) {
    if (count > kMaxTraceTokens) {
      return std::string(name) + " must be <= " + std::to_string(kMaxTraceTokens) + " (got " +
             std::to_string(count) + ")";
    }
  }
  if (row.input_tokens < 1) {
    return std::string(input_name) + " must be >= 1 (got " + std::to_string(row.input_tokens) + ")";
  }
  if (row.output_tokens < 1) {
    return std::string(output_name) + " must be >= 1 (got " + std::to_string(row.output_tokens) +
           "; a failed request in the trace)";
  }
  return "";
}

class MooncakeReader : public TraceRowReader {
 public:
  bool has_header() const override { return false; }
  std::string header(std::string_view) override { return ""; }

  std::string row(std::string_view line, TraceRow& out) const override {
    const json j = json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      return "not a JSON object";
    }
    const auto ts = j.find("timestamp");
    if (ts == j.end()) {
      return "missing 'timestamp'";
    }
    if (!ts->is_number() || ts->get<double>() < 0 || ts->get<double>() > kMaxTimestampS * 1e3) {
      return "'timestamp' must be a number of ms from 0 to 1e12";
    }
    out.timestamp_ns = std::llround(ts->get<double>() * 1e6);
    for (const char* key : {"input_length", "output_length"}) {
      const auto v = j.find(key);
      if (v == j.end()) {
        return std::string("missing '") + key + "'";
      }
      if (!v->is_number_integer()) {
        return std::string("'") + key + "' must be an integer";
      }
    }
    out.input_tokens = j["input_length"].get<int64_t>();
    out.output_tokens = j["output_length"].get<int64_t>();
    out.hash_ids.clear();
    if (const auto ids = j.find("hash_ids"); ids != j.end()) {
      if (!ids->is_array()) {
        return "'hash_ids' must be an array of integers";
      }
      for (const auto& id : *ids) {
        if (!id.is_number_integer() || id.get<int64_t>() < 0) {
          return "'hash_ids' must hold integers >= 0 (got " + id.dump() + ")";
        }
        out.hash_ids.push_back(id.get<int64_t>());
      }
    }
    return check_tokens(out, "'input_length'", "'output_length'");
  }
};

// A CSV format: a header naming the columns, then one request per row.
class CsvReader : public TraceRowReader {
 public:
  CsvReader(std::string time, std::string input, std::string output)
      : names_{std::move(time), std::move(input), std::move(output)} {}
  bool has_header() const override { return true; }

  std::string header(std::string_view line) override {
    const auto fields = split_csv(line);
    columns_ = fields.size();
    for (size_t n = 0; n < names_.size(); ++n) {
      index_[n] = fields.size();
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i] == names_[n]) {
          index_[n] = i;
        }
      }
      if (index_[n] == fields.size()) {
        return "the header has no column '" + names_[n] + "'";
      }
    }
    return "";
  }

  std::string row(std::string_view line, TraceRow& out) const override {
    const auto fields = split_csv(line);
    if (fields.size() != columns_) {
      return "expected " + std::to_string(columns_) + " fields, got " +
             std::to_string(fields.size());
    }
    if (std::string e = timestamp(fields[index_[0]], out.timestamp_ns); !e.empty()) {
      return "'" + names_[0] + "' " + e;
    }
    int64_t* counts[] = {&out.input_tokens, &out.output_tokens};
    for (size_t n = 1; n < names_.size(); ++n) {
      const auto v = parse_whole(fields[index_[n]]);
      if (!v) {
        return "'" + names_[n] + "' is not an integer: " + shown_field(fields[index_[n]]);
      }
      *counts[n - 1] = *v;
    }
    out.hash_ids.clear();
    const std::string in_name = "'" + names_[1] + "'";
    const std::string out_name = "'" + names_[2] + "'";
    return check_tokens(out, in_name.c_str(), out_name.c_str());
  }

 protected:
  // Returns "" or what is wrong with the field.
  virtual std::string timestamp(std::string_view field, int64_t& ns) const = 0;

 private:
  std::vector<std::string> names_;
  size_t index_[3] = {0, 0, 0};
  size_t columns_ = 0;
};

class AzureReader : public CsvReader {
 public:
  AzureReader() : CsvReader("TIMESTAMP", "ContextTokens", "GeneratedTokens") {}

 protected:
  std::string timestamp(std::string_view field, int64_t& ns) const override {
    const auto v = parse_trace_datetime_ns(field);
    if (!v) {
      return "is not a date-time like 2023-11-16 18:15:46.6805900: " + shown_field(field);
    }
    ns = *v;
    return "";
  }
};

class BurstGptReader : public CsvReader {
 public:
  BurstGptReader() : CsvReader("Timestamp", "Request tokens", "Response tokens") {}

 protected:
  std::string timestamp(std::string_view field, int64_t& ns) const override {
    const auto v = parse_number(field);
    if (!v || *v < 0 || *v > kMaxTimestampS) {
      return "must be a number of seconds from 0 to 1e9: " + shown_field(field);
    }
    ns = std::llround(*v * 1e9);
    return "";
  }
};

std::optional<int64_t> fixed_digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) {
    return std::nullopt;
  }
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return std::nullopt;
    }
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// The fraction after the seconds, ".6805900" (1 to 9 digits), as ns.
std::optional<int64_t> fraction_ns(std::string_view rest) {
  if (rest.empty()) {
    return 0;
  }
  if (rest.front() != '.' || rest.size() < 2 || rest.size() > 10) {
    return std::nullopt;
  }
  const auto digits = fixed_digits(rest, 1, rest.size() - 1);
  if (!digits) {
    return std::nullopt;
  }
  int64_t ns = *digits;
  for (size_t i = rest.size() - 1; i < 9; ++i) {
    ns *= 10;
  }
  return ns;
}

}  // namespace

std::optional<int64_t> parse_trace_datetime_ns(std::string_view text) {
  const std::string_view s = trim_blanks(text);
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
      s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  const auto y = fixed_digits(s, 0, 4), mo = fixed_digits(s, 5, 2), d = fixed_digits(s, 8, 2);
  const auto h = fixed_digits(s, 11, 2), mi = fixed_digits(s, 14, 2), sec = fixed_digits(s, 17, 2);
  const auto frac = fraction_ns(s.substr(19));
  if (!y || !mo || !d || !h || !mi || !sec || !frac) {
    return std::nullopt;
  }
  if (*y < kMinYear || *y > kMaxYear || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 ||
      *mi > 59 || *sec > 60) {
    return std::nullopt;
  }
  const int64_t seconds = text::days_from_civil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *sec;
  return seconds * 1'000'000'000 + *frac;
}

std::unique_ptr<TraceRowReader> make_trace_row_reader(TraceFormat format) {
  switch (format) {
    case TraceFormat::Mooncake:
      return std::make_unique<MooncakeReader>();
    case TraceFormat::Azure:
      return std::make_unique<AzureReader>();
    case TraceFormat::BurstGpt:
      return std::make_unique<BurstGptReader>();
    case TraceFormat::Auto:
      break;
  }
  return nullptr;
}

std::optional<TraceFormat> detect_trace_format(std::string_view first_line) {
  const std::string_view line = trim_blanks(first_line);
  if (!line.empty() && line.front() == '{') {
    return TraceFormat::Mooncake;
  }
  const auto fields = split_csv(line);
  auto has = [&](std::string_view name) {
    for (const auto& f : fields) {
      if (f == name) {
        return true;
      }
    }
    return false;
  };
  if (has("ContextTokens") && has("GeneratedTokens")) {
    return TraceFormat::Azure;
  }
  if (has("Request tokens") && has("Response tokens")) {
    return TraceFormat::BurstGpt;
  }
  return std::nullopt;
}

}  // namespace lb::plan::detail
