#pragma once
// Runs a prompt's fact checks (plan/prompt_set.h) on one lane's output. A check that passes on
// lane A and fails on lane B is a candidate flipped fact: the pair blocks until reviewed.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/plan/prompt_set.h"

namespace lb::compare {

enum class CheckStatus { Pass, Fail, Error };
const char* check_status_name(CheckStatus status);  // "pass", "fail", "error"
bool check_status_from_name(std::string_view name, CheckStatus& out);

struct CheckResult {
  std::size_t check_index = 0;  // position in the prompt's checks
  plan::CheckType type = plan::CheckType::MustContain;
  CheckStatus status = CheckStatus::Pass;
  std::string detail;  // why it failed (or could not run), e.g. "numbers found: 175, 2"
};

// Regex checks (RE2, plan/user_regex.h) run on at most this many bytes of output: model outputs
// far beyond this are not what a fact check is for.
constexpr std::size_t kMaxRegexInputBytes = 1024 * 1024;

CheckResult run_check(const plan::FactCheck& check, std::size_t index, std::string_view output);
std::vector<CheckResult> run_checks(const std::vector<plan::FactCheck>& checks,
                                    std::string_view output);

// Indices of checks that pass on A and do not pass on B.
std::vector<std::size_t> flipped_checks(const std::vector<CheckResult>& a,
                                        const std::vector<CheckResult>& b);

}  // namespace lb::compare
