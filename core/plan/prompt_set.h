#pragma once
// Prompt sets: the fixed workload of a regression experiment, each prompt with the fact checks
// that every lane's output must satisfy. The format is documented in resources/prompts/README.md.
// Loading validates everything and reports each problem with its line number and field.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lb::plan {

enum class CheckType { MustContain, MustNotContain, Regex, Numeric, ValidJson };
enum class NumericMatch { Any, Last };  // which number(s) of the output may satisfy the check

struct FactCheck {
  CheckType type = CheckType::MustContain;
  std::string text;  // must_contain / must_not_contain value, or the regex pattern
  bool ignore_case = false;
  double number = 0;     // numeric: expected value
  double tolerance = 0;  // numeric: allowed absolute difference (>= 0)
  NumericMatch match = NumericMatch::Any;
};

// "must_contain", "must_not_contain", "regex", "numeric", "valid_json"
std::string_view check_type_name(CheckType type);
std::optional<CheckType> check_type_from_name(std::string_view name);
// Short human description, e.g. `must_contain "Dave"` or `numeric 165 ± 0`.
std::string describe_check(const FactCheck& check);
// The check as it appears in a prompt-set file.
nlohmann::json check_to_json(const FactCheck& check);

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

// An image or a video sent with a prompt (chat `image_url` / `video_url` content parts, Responses
// `input_image`, Ollama `images`). Exactly one of `bytes` (a file's or a generated item's content,
// sent as a data: URL) or `url` (an http(s) URL, sent as it is) is set.
enum class MediaKind { Image, Video };
std::string_view media_kind_name(MediaKind kind);  // "image", "video"

struct MediaRef {
  MediaKind kind = MediaKind::Image;
  std::string mime;                          // "image/png", "image/jpeg", "video/mp4", ...
  std::string url;                           // http(s) URL; empty when bytes are given
  std::shared_ptr<const std::string> bytes;  // the encoded file; null when url is given
  std::string source;                        // file path as written in the set, or generator name
  int width_px = 0;                          // 0 = not known
  int height_px = 0;
  int frames = 0;  // videos: frame count; 0 = not known
};

struct PromptSpec {
  std::string id;
  std::string category;
  std::string prompt;                 // single user message (empty when messages is used)
  std::vector<ChatMessage> messages;  // full chat (empty when prompt is used)
  int max_tokens = 256;
  std::vector<FactCheck> checks;
  // Media attached to the last user message, in order, before its text.
  std::vector<MediaRef> media;
  // The request's messages either way.
  std::vector<ChatMessage> chat() const;
};

struct PromptSet {
  std::string name;  // e.g. "builtin:regression-20" or the file path
  std::vector<PromptSpec> prompts;
  const PromptSpec* find(std::string_view id) const;
};

struct PromptSetError {
  int line = 0;       // 1-based line of a JSONL file; 0 = whole file
  std::string field;  // e.g. "checks[1].tolerance"; empty = whole line or file
  std::string message;
  // "SOURCE:LINE: field "FIELD": MESSAGE" (line and field omitted when not known)
  std::string to_string(std::string_view source_name) const;
};

struct PromptSetResult {
  std::optional<PromptSet> set;  // set only when errors is empty
  std::vector<PromptSetError> errors;
  std::string source_name;
  bool ok() const { return set.has_value() && errors.empty(); }
  std::string error_text() const;  // one error per line
};

// JSONL prompt set (one object per line).
PromptSetResult parse_prompt_set_jsonl(std::string_view text, std::string_view source_name);
// Detects the format: JSONL, a JSON array of strings, or a ShareGPT file (array of objects with
// "conversations").
PromptSetResult parse_prompt_set(std::string_view text, std::string_view source_name);
// `ref` is "builtin:NAME" (compiled into the program) or a file path.
PromptSetResult load_prompt_set(const std::string& ref);

}  // namespace lb::plan
