#include "core/compare/fact_check.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/compare/number_scan.h"
#include "core/plan/user_regex.h"
#include "core/text/ascii_text.h"

namespace lb::compare {
namespace {

using plan::CheckType;

bool contains(std::string_view haystack, std::string_view needle, bool ignore_case) {
  if (!ignore_case) return haystack.find(needle) != std::string_view::npos;
  return text::contains_ascii_nocase(haystack, needle);
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

bool parses_as_json(std::string_view text, std::string* error) {
  try {
    const auto parsed = nlohmann::json::parse(text);
    return !parsed.is_discarded();
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range for 1e999
    if (error) *error = e.what();
    return false;
  }
}

// Models often wrap JSON in a Markdown fence; "```json\n{...}\n```" counts as valid JSON.
bool fenced_json(std::string_view output) {
  std::size_t pos = 0;
  while ((pos = output.find("```", pos)) != std::string_view::npos) {
    std::size_t body = output.find('\n', pos);
    if (body == std::string_view::npos) return false;
    const std::string_view info = trim(output.substr(pos + 3, body - pos - 3));
    const std::size_t close = output.find("```", body + 1);
    if (close == std::string_view::npos) return false;
    if ((info.empty() || text::ascii_lower(std::string(info)) == "json") &&
        parses_as_json(trim(output.substr(body + 1, close - body - 1)), nullptr)) {
      return true;
    }
    pos = close + 3;
  }
  return false;
}

CheckResult numeric(const plan::FactCheck& check, CheckResult result, std::string_view output) {
  const auto numbers = scan_numbers(output);
  const auto near = [&](const NumberToken& n) {
    return std::fabs(n.value - check.number) <= check.tolerance;
  };
  bool ok = false;
  if (check.match == plan::NumericMatch::Last) {
    ok = !numbers.empty() && near(numbers.back());
  } else {
    ok = std::any_of(numbers.begin(), numbers.end(), near);
  }
  if (ok) return result;
  result.status = CheckStatus::Fail;
  std::string found;
  for (std::size_t i = 0; i < numbers.size() && i < 10; ++i) {
    found += (i ? ", " : "") + numbers[i].text;
  }
  if (numbers.size() > 10) found += ", ...";
  result.detail = numbers.empty() ? "no number found" : "numbers found: " + found;
  return result;
}

CheckResult regex(const plan::FactCheck& check, CheckResult result, std::string_view output) {
  if (output.size() > kMaxRegexInputBytes) {
    result.status = CheckStatus::Error;
    result.detail = "output longer than " + std::to_string(kMaxRegexInputBytes) + " bytes";
    return result;
  }
  std::string error;
  const std::optional<bool> found =
      plan::user_regex_search(check.text, check.ignore_case, output, &error);
  if (!found) {
    result.status = CheckStatus::Error;
    result.detail = "regular expression error: " + error;
  } else if (!*found) {
    result.status = CheckStatus::Fail;
    result.detail = "no match";
  }
  return result;
}

}  // namespace

const char* check_status_name(CheckStatus status) {
  switch (status) {
    case CheckStatus::Pass:
      return "pass";
    case CheckStatus::Fail:
      return "fail";
    case CheckStatus::Error:
      return "error";
  }
  return "error";
}

bool check_status_from_name(std::string_view name, CheckStatus& out) {
  for (auto s : {CheckStatus::Pass, CheckStatus::Fail, CheckStatus::Error}) {
    if (name == check_status_name(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

CheckResult run_check(const plan::FactCheck& check, std::size_t index, std::string_view output) {
  CheckResult result{index, check.type, CheckStatus::Pass, {}};
  switch (check.type) {
    case CheckType::MustContain:
      if (!contains(output, check.text, check.ignore_case)) {
        result.status = CheckStatus::Fail;
        result.detail = "not found";
      }
      return result;
    case CheckType::MustNotContain:
      if (contains(output, check.text, check.ignore_case)) {
        result.status = CheckStatus::Fail;
        result.detail = "found";
      }
      return result;
    case CheckType::Regex:
      return regex(check, std::move(result), output);
    case CheckType::Numeric:
      return numeric(check, std::move(result), output);
    case CheckType::ValidJson: {
      std::string error;
      if (!parses_as_json(trim(output), &error) && !fenced_json(output)) {
        result.status = CheckStatus::Fail;
        result.detail = "not valid JSON (and no valid ```json block)";
      }
      return result;
    }
  }
  return result;
}

std::vector<CheckResult> run_checks(const std::vector<plan::FactCheck>& checks,
                                    std::string_view output) {
  std::vector<CheckResult> out;
  out.reserve(checks.size());
  for (std::size_t i = 0; i < checks.size(); ++i) out.push_back(run_check(checks[i], i, output));
  return out;
}

std::vector<std::size_t> flipped_checks(const std::vector<CheckResult>& a,
                                        const std::vector<CheckResult>& b) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i].status == CheckStatus::Pass && b[i].status != CheckStatus::Pass) out.push_back(i);
  }
  return out;
}

}  // namespace lb::compare
