#include "core/report/json_access.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace lb::report {

const nlohmann::json& json_at(const nlohmann::json& root, std::initializer_list<const char*> path) {
  static const nlohmann::json kNull;
  const nlohmann::json* at = &root;
  for (const char* key : path) {
    if (!at->is_object()) return kNull;
    const auto it = at->find(key);
    if (it == at->end()) return kNull;
    at = &*it;
  }
  return *at;
}

double number_at(const nlohmann::json& root, std::initializer_list<const char*> path,
                 double fallback) {
  const auto& v = json_at(root, path);
  if (v.is_number()) return v.get<double>();
  if (v.is_object() && v.contains("value") && v["value"].is_number())
    return v["value"].get<double>();
  return fallback;
}

std::string string_at(const nlohmann::json& root, std::initializer_list<const char*> path) {
  const auto& v = json_at(root, path);
  return v.is_string() ? v.get<std::string>() : std::string();
}

long long concurrency_of(const std::string& phase) {
  if (phase.size() < 2 || phase[0] != 'c') return -1;
  for (size_t i = 1; i < phase.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(phase[i]))) return -1;
  // std::from_chars, not std::stoll: "c" + 20 digits from a summary must not throw.
  long long value = -1;
  const auto [end, ec] = std::from_chars(phase.data() + 1, phase.data() + phase.size(), value);
  return ec == std::errc() && end == phase.data() + phase.size() ? value : -1;
}

std::vector<std::string> keys_by_concurrency(const nlohmann::json& object) {
  std::vector<std::string> keys;
  if (object.is_object())
    for (const auto& [key, value] : object.items()) keys.push_back(key);
  auto rank = [](const std::string& k) {
    const long long c = concurrency_of(k);
    return c < 0 ? std::numeric_limits<long long>::max() : c;
  };
  std::stable_sort(keys.begin(), keys.end(),
                   [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return keys;
}

}  // namespace lb::report
