#pragma once
// The regular expressions a prompt set's fact checks carry ({"type": "regex", "pattern": ...}).
// A prompt set comes from anyone, so its patterns run on RE2: time linear in the text, memory
// bounded, no recursion per character. With std::regex, `^(a|b)*$` on 60,000 characters
// overflowed the stack and `^(a+)+$` on 40 characters spun forever. RE2's syntax is Perl's
// without backreferences and lookaround (docs/plan-file.md).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lb::plan {

inline constexpr std::size_t kMaxRegexPatternBytes = 4 * 1024;

// "" when `pattern` compiles; otherwise why not.
std::string user_regex_error(const std::string& pattern, bool ignore_case);

// Whether `pattern` matches somewhere in `text`; nullopt with *error when it cannot be evaluated.
std::optional<bool> user_regex_search(const std::string& pattern, bool ignore_case,
                                      std::string_view text, std::string* error);

}  // namespace lb::plan
