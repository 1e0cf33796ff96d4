#pragma once
// Reference answers compiled into lb_sim (resources/sim/*.answers.jsonl) and the prompt set they
// answer (resources/prompts/regression-20.jsonl), so a lane needs no file at run time.
#include <string_view>

namespace lb::sim {

std::string_view builtin_regression_prompts();
std::string_view builtin_regression_answers();

}  // namespace lb::sim
