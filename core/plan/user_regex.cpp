#include "core/plan/user_regex.h"

#include <re2/re2.h>

#include <memory>

namespace lb::plan {
namespace {

std::unique_ptr<re2::RE2> compile(const std::string& pattern, bool ignore_case,
                                  std::string* error) {
  if (pattern.size() > kMaxRegexPatternBytes) {
    *error = "pattern longer than " + std::to_string(kMaxRegexPatternBytes) + " bytes";
    return nullptr;
  }
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_case_sensitive(!ignore_case);
  options.set_max_mem(8 << 20);  // a pattern whose program needs more is refused, not run
  auto re = std::make_unique<re2::RE2>(pattern, options);
  if (!re->ok()) {
    *error = re->error();
    return nullptr;
  }
  return re;
}

}  // namespace

std::string user_regex_error(const std::string& pattern, bool ignore_case) {
  std::string error;
  compile(pattern, ignore_case, &error);
  return error;
}

std::optional<bool> user_regex_search(const std::string& pattern, bool ignore_case,
                                      std::string_view text, std::string* error) {
  const auto re = compile(pattern, ignore_case, error);
  if (!re) return std::nullopt;
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re);
}

}  // namespace lb::plan
