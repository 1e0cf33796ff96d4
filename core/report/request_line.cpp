#include "core/report/request_line.h"

#include <cmath>

#include <simdjson.h>

#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace lb::report {
namespace {

namespace od = simdjson::ondemand;

// How a line failed: JSON that cannot be read, or JSON whose fields have the wrong types.
enum class LineFault { none, not_json, wrong_type };

// Thrown-free error flow: every simdjson call reports through `fault`, and the first one wins.
// A value of another type than expected reads as if the field were absent, as the report has
// always treated such fields; only ok and warmup must be booleans.
struct FieldReader {
  LineFault fault = LineFault::none;
  std::vector<double>& scratch;  // one array's entries before they are copied out exactly sized

  bool failed(simdjson::error_code e, LineFault kind = LineFault::not_json) {
    if (e == simdjson::SUCCESS) return false;
    if (fault == LineFault::none) fault = kind;
    return true;
  }

  // The error that means "not this type" rather than "not JSON".
  static bool other_type(simdjson::error_code e) { return e == simdjson::INCORRECT_TYPE; }

  template <typename Result>
  double number(Result&& v, double fallback) {
    double d = fallback;
    const simdjson::error_code e = std::forward<Result>(v).get_double().get(d);
    if (e == simdjson::SUCCESS) return d;
    if (!other_type(e)) failed(e);
    return fallback;
  }

  // A whole number from the line: FALLBACK for one that is not finite or outside int64 (a
  // damaged line's 5.9e27 must not become whatever the conversion makes of it).
  template <typename Result>
  int64_t whole(Result&& v, int64_t fallback) {
    const double d = number(std::forward<Result>(v), static_cast<double>(fallback));
    constexpr double kLimit = 9.2e18;  // inside int64's range, with room for rounding
    return std::isfinite(d) && d > -kLimit && d < kLimit ? static_cast<int64_t>(d) : fallback;
  }

  std::string text(od::value& v) {
    std::string_view s;
    const simdjson::error_code e = v.get_string().get(s);
    if (e == simdjson::SUCCESS) return std::string(s);
    if (!other_type(e)) failed(e);
    return {};
  }

  bool boolean(od::value& v) {
    bool b = false;
    const simdjson::error_code e = v.get_bool().get(b);
    if (e == simdjson::SUCCESS) return b;
    // "tru" starts like a boolean but is not JSON; a string or number is JSON of another type.
    od::json_type t = od::json_type::null;
    const bool misspelt = v.type().get(t) == simdjson::SUCCESS && t == od::json_type::boolean;
    failed(e, other_type(e) && !misspelt ? LineFault::wrong_type : LineFault::not_json);
    return false;
  }

  // Each entry as T, NaN where it is not a number; empty when the value is not an array.
  template <typename T>
  std::vector<T> numbers(od::value& v) {
    od::array array;
    const simdjson::error_code e = v.get_array().get(array);
    if (e != simdjson::SUCCESS) {
      if (!other_type(e)) failed(e);
      return {};
    }
    scratch.clear();
    for (auto element : array) {
      od::value item;
      if (failed(element.get(item))) return {};
      // Stamps and counts are written as integers, which parse faster than as doubles.
      int64_t whole = 0;
      if (item.get_int64().get(whole) == simdjson::SUCCESS)
        scratch.push_back(static_cast<double>(whole));
      else
        scratch.push_back(number(item, std::numeric_limits<double>::quiet_NaN()));
      if (fault != LineFault::none) return {};
    }
    return std::vector<T>(scratch.begin(), scratch.end());
  }

  // The "kind" of an error object; empty for null or any other type.
  std::string error_kind(od::value& v) {
    od::object object;
    const simdjson::error_code e = v.get_object().get(object);
    if (e != simdjson::SUCCESS) {
      if (!other_type(e)) failed(e);
      return {};
    }
    std::string kind;
    for (auto field : object) {
      std::string_view key;
      od::value value;
      if (failed(field.unescaped_key().get(key)) || failed(field.value().get(value))) return {};
      if (key == "kind") kind = text(value);
      if (fault != LineFault::none) return {};
    }
    return kind;
  }

  // The counts of a "media" object; the per-item entries are skipped unread.
  void media(od::value& v, RequestPoint& p) {
    od::object object;
    const simdjson::error_code e = v.get_object().get(object);
    if (e != simdjson::SUCCESS) {
      if (!other_type(e)) failed(e);
      return;
    }
    for (auto field : object) {
      std::string_view key;
      od::value value;
      if (failed(field.unescaped_key().get(key)) || failed(field.value().get(value))) return;
      if (key == "images") p.media_images = whole(value, 0);
      if (key == "videos") p.media_videos = whole(value, 0);
      if (key == "pixels") p.media_pixels = whole(value, 0);
      if (fault != LineFault::none) return;
    }
  }
};

void read_field(FieldReader& r, std::string_view key, od::value& v, RequestPoint& p) {
  if (key == "event_offsets_ns")
    p.event_offsets_ns = r.numbers<double>(v);
  else if (key == "event_tokens")
    p.event_tokens = r.numbers<float>(v);
  else if (key == "lane")
    p.lane = r.text(v);
  else if (key == "experiment")
    p.experiment = r.text(v);
  else if (key == "phase")
    p.phase = r.text(v);
  else if (key == "index")
    p.index = r.whole(v, 0);
  else if (key == "turn")
    p.turn = r.whole(v, -1);
  else if (key == "warmup")
    p.warmup = r.boolean(v);
  else if (key == "ok")
    p.ok = r.boolean(v);
  else if (key == "ttft_ms")
    p.ttft_ms = r.number(v, -1);
  else if (key == "e2el_ms")
    p.e2el_ms = r.number(v, -1);
  else if (key == "tpot_ms")
    p.tpot_ms = r.number(v, -1);
  else if (key == "decode_tok_s")
    p.decode_tok_s = r.number(v, -1);
  else if (key == "output_tokens")
    p.output_tokens = r.whole(v, -1);
  else if (key == "prompt_tokens")
    p.prompt_tokens = r.whole(v, -1);
  else if (key == "output_tokens_provenance")
    p.output_tokens_provenance = r.text(v);
  else if (key == "prompt_tokens_provenance")
    p.prompt_tokens_provenance = r.text(v);
  else if (key == "error")
    p.error_kind = r.error_kind(v);
  else if (key == "t_sched_ns")
    p.t_sched_ns = r.whole(v, -1);
  else if (key == "t_sent_ns")
    p.t_sent_ns = r.whole(v, -1);
  else if (key == "media")
    r.media(v, p);
  // Any other field is skipped unread.
}

}  // namespace

struct RequestLineParser::Impl {
  od::parser parser;
  std::vector<double> scratch;
};

RequestLineParser::RequestLineParser() : impl_(std::make_unique<Impl>()) {}
RequestLineParser::~RequestLineParser() = default;

std::optional<RequestPoint> RequestLineParser::parse(const char* line, size_t size, size_t readable,
                                                     std::string* problem) {
  FieldReader r{LineFault::none, impl_->scratch};
  RequestPoint p;
  od::document doc;
  od::object object;
  if (!r.failed(impl_->parser.iterate(line, size, readable).get(doc)) &&
      !r.failed(doc.get_object().get(object), LineFault::not_json)) {
    for (auto field : object) {
      std::string_view key;
      od::value value;
      if (r.failed(field.unescaped_key().get(key)) || r.failed(field.value().get(value))) break;
      read_field(r, key, value, p);
      if (r.fault != LineFault::none) break;
    }
    // Whatever follows the object (another document, stray text) makes the line not ours.
    const char* rest = nullptr;
    if (r.fault == LineFault::none && doc.current_location().get(rest) == simdjson::SUCCESS)
      r.fault = LineFault::not_json;
  }
  if (r.fault != LineFault::none) {
    if (problem)
      *problem = r.fault == LineFault::wrong_type ? "has fields of the wrong type"
                                                  : "is incomplete or not JSON";
    return std::nullopt;
  }
  return p;
}

std::optional<RequestPoint> parse_request_line(std::string_view line, std::string* problem) {
  std::string padded(line);
  padded.resize(line.size() + simdjson::SIMDJSON_PADDING, ' ');
  RequestLineParser parser;
  return parser.parse(padded.data(), line.size(), padded.size(), problem);
}

size_t request_line_padding() { return simdjson::SIMDJSON_PADDING; }

}  // namespace lb::report
