#pragma once
// Test inputs of prompt_set_test.cpp, kept out of the file moc parses (its tokenizer trips over
// some raw string literals).
#include <string_view>

inline constexpr std::string_view kMinimalLine = R"({"id": "a", "prompt": "p"})";
inline constexpr std::string_view kZeroMaxTokens = R"({"id": "b", "prompt": "p", "max_tokens": 0})";
inline constexpr std::string_view kNegativeTolerance =
    R"({"id": "a", "prompt": "p", "checks": [{"type": "numeric", "value": 1, "tolerance": -1}]})";
inline constexpr std::string_view kInvalidRegex =
    R"({"id": "a", "prompt": "p", "checks": [{"type": "regex", "pattern": "a[b"}]})";
inline constexpr std::string_view kUnknownField = R"({"id": "a", "prompt": "p", "colour": 1})";
inline constexpr std::string_view kMissingId = R"({"prompt": "p"})";
inline constexpr std::string_view kUnknownCheckType =
    R"({"id": "a", "prompt": "p", "checks": [{"type": "contains"}]})";
inline constexpr std::string_view kNoPrompt = R"({"id": "a"})";
inline constexpr std::string_view kBadRole =
    R"({"id": "a", "messages": [{"role": "robot", "content": "x"}]})";
inline constexpr std::string_view kMessagesAndChecks =
    R"({"id": "m", "messages": [{"role": "system", "content": "be terse"}, {"role": "user", "content": "2+2?"}], "checks": [{"type": "numeric", "value": 4, "match": "last"}, {"type": "must_contain", "value": "four", "ignore_case": true}, {"type": "valid_json"}]})";
inline constexpr std::string_view kMustContainJson =
    R"({"ignore_case":true,"type":"must_contain","value":"four"})";
inline constexpr std::string_view kStringArray = R"(["first prompt", "second prompt"])";
inline constexpr std::string_view kArrayWithNumber = R"(["a", 3])";
inline constexpr std::string_view kShareGpt =
    R"([
      {"id": "conv1", "conversations": [{"from": "system", "value": "sys"},
        {"from": "human", "value": "hi"}, {"from": "gpt", "value": "hello"},
        {"from": "human", "value": "and now?"}, {"from": "gpt", "value": "bye"}]},
      {"conversations": [{"from": "human", "value": "q"}]}])";
inline constexpr std::string_view kShareGptNoHuman =
    R"([{"conversations": [{"from": "gpt", "value": "x"}]}])";
inline constexpr std::string_view kRegexLine =
    R"({"id": "x", "prompt": "hello", "checks": [{"type": "regex", "pattern": "^h"}]})";
