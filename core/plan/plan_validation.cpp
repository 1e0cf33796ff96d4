#include "core/plan/plan_validation.h"

#include <algorithm>
#include <cmath>

namespace lb::plan::detail {
namespace {

using nlohmann::json;

// Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent
// transpositions ("modle" -> "model") each cost 1.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) {
    d[i][0] = i;
  }
  for (size_t j = 0; j <= b.size(); ++j) {
    d[0][j] = j;
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// Integral values print without a fraction ("0", not "0.0").
std::string format_number(double v) {
  if (std::floor(v) == v && std::abs(v) < 1e15) {
    return std::to_string(static_cast<int64_t>(v));
  }
  return nlohmann::json(v).dump();
}

std::string type_name(const json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) {
    return "integer";
  }
  if (v.is_number_float()) {
    return "number";
  }
  return v.type_name();
}

std::string describe_value(const json& v) {
  std::string text = v.dump();
  if (text.size() > 40) {
    text = text.substr(0, 37) + "...";
  }
  return text;
}

const char* value_type_name(json::value_t type) {
  switch (type) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "true or false";
    default:
      return "a number";
  }
}

}  // namespace

std::string key_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) {
    return std::string(key);
  }
  return std::string(parent) + "." + std::string(key);
}

std::string index_path(std::string_view parent, size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = SIZE_MAX;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // A likely typo: 1 edit in a short word, 2 in a word of 6 or more; none for 1-2 letters,
  // where any other short name would "match".
  const size_t limit = word.size() < 3 ? 0 : (word.size() < 6 ? 1 : 2);
  if (!best || best_distance == 0 || best_distance > limit) {
    return std::nullopt;
  }
  return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto match = closest_match(word, candidates);
  return match ? " (did you mean '" + *match + "'?)" : "";
}

ObjectReader::ObjectReader(const json& value, std::string path, ErrorList& errors)
    : path_(std::move(path)), errors_(errors) {
  if (value.is_object()) {
    object_ = &value;
  } else {
    errors_.add(path_, "must be an object (got " + type_name(value) + ")");
  }
}

bool ObjectReader::has(std::string_view key) const {
  return object_ != nullptr && object_->contains(key);
}

bool ObjectReader::has_boolean(std::string_view key) const {
  if (!has(key)) return false;
  const auto it = object_->find(key);
  return it != object_->end() && it->is_boolean();
}

void ObjectReader::error(std::string_view key, std::string message) {
  errors_.add(key_path(path_, key), std::move(message));
}

void ObjectReader::error_here(std::string message) { errors_.add(path_, std::move(message)); }

const json* ObjectReader::find(std::string_view key, bool required) {
  known_.emplace(key);
  if (object_ == nullptr) {
    return nullptr;
  }
  const auto it = object_->find(key);
  if (it == object_->end()) {
    if (required) {
      errors_.add(path_, "missing required key '" + std::string(key) + "'");
    }
    return nullptr;
  }
  return &*it;
}

const json* ObjectReader::member(std::string_view key, json::value_t type, bool required) {
  const json* v = find(key, required);
  if (v == nullptr) {
    return nullptr;
  }
  if (v->type() != type) {
    error(key, std::string("must be ") + value_type_name(type) + " (got " + type_name(*v) + ")");
    return nullptr;
  }
  return v;
}

bool ObjectReader::string(std::string_view key, std::string& out, bool required) {
  const json* v = member(key, json::value_t::string, required);
  if (v == nullptr) {
    return false;
  }
  out = v->get<std::string>();
  return true;
}

bool ObjectReader::boolean(std::string_view key, bool& out, bool required) {
  const json* v = member(key, json::value_t::boolean, required);
  if (v == nullptr) {
    return false;
  }
  out = v->get<bool>();
  return true;
}

bool ObjectReader::read_integer(const json& v, const std::string& where, int64_t& out,
                                IntRange range) {
  int64_t value = 0;
  if (v.is_number_integer()) {
    value = v.get<int64_t>();
  } else if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    value = u > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(u);
  } else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
             std::abs(v.get<double>()) < 9e15) {
    value = static_cast<int64_t>(v.get<double>());
  } else {
    errors_.add(where, "must be an integer (got " +
                           (v.is_number() ? describe_value(v) : type_name(v)) + ")");
    return false;
  }
  if (value < range.min) {
    errors_.add(where,
                "must be >= " + std::to_string(range.min) + " (got " + std::to_string(value) + ")");
    return false;
  }
  if (value > range.max) {
    errors_.add(where,
                "must be <= " + std::to_string(range.max) + " (got " + std::to_string(value) + ")");
    return false;
  }
  out = value;
  return true;
}

bool ObjectReader::integer(std::string_view key, int64_t& out, IntRange range, bool required) {
  const json* v = find(key, required);
  return v != nullptr && read_integer(*v, key_path(path_, key), out, range);
}

bool ObjectReader::number(std::string_view key, double& out, double min, double max,
                          bool min_exclusive, bool required) {
  const json* v = find(key, required);
  if (v == nullptr) {
    return false;
  }
  if (!v->is_number()) {
    error(key, "must be a number (got " + type_name(*v) + ")");
    return false;
  }
  const double value = v->get<double>();
  const bool low = min_exclusive ? value <= min : value < min;
  if (low || value > max || !std::isfinite(value)) {
    std::string range = std::string(min_exclusive ? "> " : ">= ") + format_number(min);
    if (max < 1e300) {
      range += " and <= " + format_number(max);
    }
    error(key, "must be " + range + " (got " + describe_value(*v) + ")");
    return false;
  }
  out = value;
  return true;
}

bool ObjectReader::integer_list(std::string_view key, std::vector<int64_t>& out, IntRange range,
                                bool allow_scalar, bool required) {
  const json* v = find(key, required);
  if (v == nullptr) {
    return false;
  }
  const std::string where = key_path(path_, key);
  if (allow_scalar && v->is_number()) {
    int64_t single = 0;
    if (!read_integer(*v, where, single, range)) {
      return false;
    }
    out = {single};
    return true;
  }
  if (!v->is_array()) {
    errors_.add(where, std::string("must be an array of integers") +
                           (allow_scalar ? " or an integer" : "") + " (got " + type_name(*v) + ")");
    return false;
  }
  if (v->empty()) {
    errors_.add(where, "must not be empty");
    return false;
  }
  std::vector<int64_t> values;
  bool ok = true;
  for (size_t i = 0; i < v->size(); ++i) {
    int64_t item = 0;
    if (read_integer((*v)[i], index_path(where, i), item, range)) {
      values.push_back(item);
    } else {
      ok = false;
    }
  }
  if (ok) {
    out = std::move(values);
  }
  return ok;
}

bool ObjectReader::string_list(std::string_view key, std::vector<std::string>& out, bool required) {
  const json* v = member(key, json::value_t::array, required);
  if (v == nullptr) {
    return false;
  }
  std::vector<std::string> values;
  bool ok = true;
  for (size_t i = 0; i < v->size(); ++i) {
    const json& item = (*v)[i];
    if (!item.is_string()) {
      errors_.add(index_path(key_path(path_, key), i),
                  "must be a string (got " + type_name(item) + ")");
      ok = false;
      continue;
    }
    values.push_back(item.get<std::string>());
  }
  if (ok) {
    out = std::move(values);
  }
  return ok;
}

void ObjectReader::finish() {
  if (object_ == nullptr) {
    return;
  }
  const std::vector<std::string> candidates(known_.begin(), known_.end());
  for (const auto& [key, value] : object_->items()) {
    if (known_.count(key)) {
      continue;
    }
    errors_.add(key_path(path_, key), "unknown key '" + key + "'" + did_you_mean(key, candidates));
  }
}

}  // namespace lb::plan::detail
