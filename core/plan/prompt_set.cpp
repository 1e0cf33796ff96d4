#include "core/plan/prompt_set.h"

#include <cmath>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/files/regular_file.h"
#include "core/plan/builtin_multimodal_set.h"
#include "core/plan/builtin_prompt_sets.h"
#include "core/plan/prompt_set_media.h"
#include "core/plan/user_regex.h"

namespace lb::plan {
namespace {

using nlohmann::json;

constexpr std::string_view kBuiltinPrefix = "builtin:";
constexpr int kDefaultMaxTokens = 256;

std::string json_type(const json& value) { return value.type_name(); }

// Collects errors for one line (or one array element) with a common field prefix.
class ErrorSink {
 public:
  ErrorSink(std::vector<PromptSetError>& errors, int line, std::string prefix)
      : errors_(errors), line_(line), prefix_(std::move(prefix)) {}
  void add(const std::string& field, std::string message) {
    std::string full = prefix_;
    if (!field.empty()) full += (full.empty() || field.front() == '[' ? "" : ".") + field;
    errors_.push_back({line_, full, std::move(message)});
  }
  std::size_t count() const { return errors_.size(); }

 private:
  std::vector<PromptSetError>& errors_;
  int line_;
  std::string prefix_;
};

void reject_unknown_keys(const json& object, const std::set<std::string>& allowed,
                         const std::string& prefix, ErrorSink& sink) {
  for (const auto& [key, unused] : object.items()) {
    if (!allowed.count(key)) sink.add(prefix.empty() ? key : prefix + "." + key, "unknown field");
  }
}

std::optional<std::string> string_field(const json& object, const std::string& key,
                                        const std::string& field, ErrorSink& sink) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (!it->is_string()) {
    sink.add(field, "expected a string, got " + json_type(*it));
    return std::nullopt;
  }
  return it->get<std::string>();
}

bool bool_field(const json& object, const std::string& key, const std::string& field,
                ErrorSink& sink) {
  auto it = object.find(key);
  if (it == object.end()) return false;
  if (!it->is_boolean()) {
    sink.add(field, "expected true or false, got " + json_type(*it));
    return false;
  }
  return it->get<bool>();
}

void parse_text_check(const json& object, const std::string& at, FactCheck& check,
                      ErrorSink& sink) {
  const bool is_regex = check.type == CheckType::Regex;
  const std::string key = is_regex ? "pattern" : "value";
  reject_unknown_keys(object, {"type", key, "ignore_case"}, at, sink);
  auto text = string_field(object, key, at + "." + key, sink);
  if (!object.contains(key)) sink.add(at + "." + key, "required");
  check.ignore_case = bool_field(object, "ignore_case", at + ".ignore_case", sink);
  if (!text) return;
  if (text->empty()) sink.add(at + "." + key, "must not be empty");
  check.text = *text;
  if (!is_regex) return;
  if (const std::string why = user_regex_error(check.text, check.ignore_case); !why.empty())
    sink.add(at + ".pattern", "invalid regular expression: " + why);
}

void parse_numeric_check(const json& object, const std::string& at, FactCheck& check,
                         ErrorSink& sink) {
  reject_unknown_keys(object, {"type", "value", "tolerance", "match"}, at, sink);
  auto value = object.find("value");
  if (value == object.end()) {
    sink.add(at + ".value", "required");
  } else if (!value->is_number()) {
    sink.add(at + ".value", "expected a number, got " + json_type(*value));
  } else {
    check.number = value->get<double>();
  }
  if (auto tol = object.find("tolerance"); tol != object.end()) {
    if (!tol->is_number() || tol->get<double>() < 0 || !std::isfinite(tol->get<double>())) {
      sink.add(at + ".tolerance", "expected a number >= 0");
    } else {
      check.tolerance = tol->get<double>();
    }
  }
  if (auto match = string_field(object, "match", at + ".match", sink)) {
    if (*match == "any") {
      check.match = NumericMatch::Any;
    } else if (*match == "last") {
      check.match = NumericMatch::Last;
    } else {
      sink.add(at + ".match", "expected \"any\" or \"last\", got \"" + *match + "\"");
    }
  }
}

std::optional<FactCheck> parse_check(const json& object, const std::string& at, ErrorSink& sink) {
  if (!object.is_object()) {
    sink.add(at, "expected an object, got " + json_type(object));
    return std::nullopt;
  }
  const std::size_t before = sink.count();
  auto type_name = string_field(object, "type", at + ".type", sink);
  if (!object.contains("type")) sink.add(at + ".type", "required");
  if (!type_name) return std::nullopt;
  auto type = check_type_from_name(*type_name);
  if (!type) {
    sink.add(at + ".type", "unknown check type \"" + *type_name +
                               "\" (expected must_contain, must_not_contain, regex, numeric or "
                               "valid_json)");
    return std::nullopt;
  }
  FactCheck check;
  check.type = *type;
  switch (*type) {
    case CheckType::MustContain:
    case CheckType::MustNotContain:
    case CheckType::Regex:
      parse_text_check(object, at, check, sink);
      break;
    case CheckType::Numeric:
      parse_numeric_check(object, at, check, sink);
      break;
    case CheckType::ValidJson:
      reject_unknown_keys(object, {"type"}, at, sink);
      break;
  }
  if (sink.count() != before) return std::nullopt;
  return check;
}

std::vector<ChatMessage> parse_messages(const json& value, ErrorSink& sink) {
  std::vector<ChatMessage> messages;
  if (!value.is_array() || value.empty()) {
    sink.add("messages", "expected a non-empty array of {\"role\", \"content\"} objects");
    return messages;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string at = "messages[" + std::to_string(i) + "]";
    const json& item = value[i];
    if (!item.is_object()) {
      sink.add(at, "expected an object, got " + json_type(item));
      continue;
    }
    reject_unknown_keys(item, {"role", "content"}, at, sink);
    auto role = string_field(item, "role", at + ".role", sink);
    auto content = string_field(item, "content", at + ".content", sink);
    if (!item.contains("role")) sink.add(at + ".role", "required");
    if (!item.contains("content")) sink.add(at + ".content", "required");
    if (role && *role != "system" && *role != "user" && *role != "assistant") {
      sink.add(at + ".role",
               "expected \"system\", \"user\" or \"assistant\", got \"" + *role + "\"");
    }
    if (role && content) messages.push_back({*role, *content});
  }
  return messages;
}

void parse_prompt_body(const json& object, PromptSpec& spec, ErrorSink& sink) {
  if (auto category = string_field(object, "category", "category", sink)) spec.category = *category;
  const bool has_prompt = object.contains("prompt");
  const bool has_messages = object.contains("messages");
  if (has_prompt == has_messages) {
    sink.add(has_prompt ? "messages" : "prompt",
             has_prompt ? "give either \"prompt\" or \"messages\", not both"
                        : "required (or \"messages\")");
  }
  if (auto prompt = string_field(object, "prompt", "prompt", sink)) spec.prompt = *prompt;
  if (has_messages) spec.messages = parse_messages(object.at("messages"), sink);
  if (auto max_tokens = object.find("max_tokens"); max_tokens != object.end()) {
    if (!max_tokens->is_number_integer() || max_tokens->get<long long>() <= 0 ||
        max_tokens->get<long long>() > 1'000'000) {
      sink.add("max_tokens", "expected an integer between 1 and 1000000");
    } else {
      spec.max_tokens = static_cast<int>(max_tokens->get<long long>());
    }
  }
  if (auto checks = object.find("checks"); checks != object.end()) {
    if (!checks->is_array()) {
      sink.add("checks", "expected an array, got " + json_type(*checks));
      return;
    }
    for (std::size_t i = 0; i < checks->size(); ++i) {
      auto check = parse_check((*checks)[i], "checks[" + std::to_string(i) + "]", sink);
      if (check) spec.checks.push_back(std::move(*check));
    }
  }
}

void parse_media(const json& object, const std::string& base_dir, PromptSpec& spec,
                 ErrorSink& sink) {
  auto media = object.find("media");
  if (media == object.end()) return;
  // The prompt's id goes with each problem: a set from elsewhere is fixed by finding the prompt.
  for (auto& error : parse_media_field(*media, base_dir, spec.media)) {
    sink.add(error.field, spec.id.empty() ? std::move(error.message)
                                          : error.message + " (prompt " + spec.id + ")");
  }
  bool has_user = false;
  for (const auto& message : spec.chat()) has_user = has_user || message.role == "user";
  if (!has_user) sink.add("media", "media go with the last user message, and there is none");
}

std::optional<PromptSpec> parse_prompt_object(const json& object, const std::string& base_dir,
                                              ErrorSink& sink) {
  if (!object.is_object()) {
    sink.add("", "expected a JSON object, got " + json_type(object));
    return std::nullopt;
  }
  const std::size_t before = sink.count();
  reject_unknown_keys(
      object, {"id", "category", "prompt", "messages", "max_tokens", "checks", "media"}, "", sink);
  PromptSpec spec;
  if (auto id = string_field(object, "id", "id", sink)) spec.id = *id;
  if (!object.contains("id")) sink.add("id", "required");
  if (object.contains("id") && spec.id.empty() && object.at("id").is_string()) {
    sink.add("id", "must not be empty");
  }
  parse_prompt_body(object, spec, sink);
  parse_media(object, base_dir, spec, sink);
  if (sink.count() != before) return std::nullopt;
  return spec;
}

PromptSetResult finish(PromptSetResult result, PromptSet set) {
  if (result.errors.empty() && set.prompts.empty()) {
    result.errors.push_back({0, "", "the prompt set is empty"});
  }
  if (result.errors.empty()) result.set = std::move(set);
  return result;
}

PromptSetResult parse_string_array(const json& array, std::string_view source_name) {
  PromptSetResult result;
  result.source_name = std::string(source_name);
  PromptSet set;
  set.name = result.source_name;
  for (std::size_t i = 0; i < array.size(); ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "p%03zu", i);
    set.prompts.push_back({id, "", array[i].get<std::string>(), {}, kDefaultMaxTokens, {}});
  }
  return finish(std::move(result), std::move(set));
}

std::optional<PromptSpec> parse_sharegpt_item(const json& item, std::size_t index,
                                              ErrorSink& sink) {
  if (!item.is_object() || !item.contains("conversations") || !item["conversations"].is_array()) {
    sink.add("conversations", "expected an object with a \"conversations\" array");
    return std::nullopt;
  }
  PromptSpec spec;
  char fallback_id[32];
  std::snprintf(fallback_id, sizeof fallback_id, "sharegpt-%04zu", index);
  spec.id =
      item.contains("id") && item["id"].is_string() ? item["id"].get<std::string>() : fallback_id;
  std::size_t keep = 0;  // messages up to and including the last human turn
  const json& turns = item["conversations"];
  for (std::size_t t = 0; t < turns.size(); ++t) {
    const std::string at = "conversations[" + std::to_string(t) + "]";
    const json& turn = turns[t];
    if (!turn.is_object() || !turn.contains("from") || !turn.contains("value") ||
        !turn["from"].is_string() || !turn["value"].is_string()) {
      sink.add(at, "expected {\"from\": string, \"value\": string}");
      return std::nullopt;
    }
    const std::string from = turn["from"].get<std::string>();
    std::string role = from == "human" || from == "user"      ? "user"
                       : from == "gpt" || from == "assistant" ? "assistant"
                       : from == "system"                     ? "system"
                                                              : "";
    if (role.empty()) {
      sink.add(at + ".from", "expected \"human\", \"gpt\" or \"system\", got \"" + from + "\"");
      return std::nullopt;
    }
    spec.messages.push_back({role, turn["value"].get<std::string>()});
    if (role == "user") keep = spec.messages.size();
  }
  if (keep == 0) {
    sink.add("conversations", "has no human turn");
    return std::nullopt;
  }
  spec.messages.resize(keep);
  return spec;
}

PromptSetResult parse_sharegpt(const json& array, std::string_view source_name) {
  PromptSetResult result;
  result.source_name = std::string(source_name);
  PromptSet set;
  set.name = result.source_name;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < array.size(); ++i) {
    ErrorSink sink(result.errors, 0, "[" + std::to_string(i) + "]");
    auto spec = parse_sharegpt_item(array[i], i, sink);
    if (!spec) continue;
    if (!ids.insert(spec->id).second) sink.add("id", "duplicate id \"" + spec->id + "\"");
    set.prompts.push_back(std::move(*spec));
  }
  return finish(std::move(result), std::move(set));
}

// A prompt set of 100,000 long prompts is tens of MiB; its media are files of their own.
constexpr size_t kMaxPromptSetBytes = 256 * files::kMiB;

}  // namespace

std::string_view media_kind_name(MediaKind kind) {
  return kind == MediaKind::Video ? "video" : "image";
}

std::string_view check_type_name(CheckType type) {
  switch (type) {
    case CheckType::MustContain:
      return "must_contain";
    case CheckType::MustNotContain:
      return "must_not_contain";
    case CheckType::Regex:
      return "regex";
    case CheckType::Numeric:
      return "numeric";
    case CheckType::ValidJson:
      return "valid_json";
  }
  return "unknown";
}

std::optional<CheckType> check_type_from_name(std::string_view name) {
  for (auto type : {CheckType::MustContain, CheckType::MustNotContain, CheckType::Regex,
                    CheckType::Numeric, CheckType::ValidJson}) {
    if (check_type_name(type) == name) return type;
  }
  return std::nullopt;
}

std::string describe_check(const FactCheck& check) {
  std::string out(check_type_name(check.type));
  switch (check.type) {
    case CheckType::MustContain:
    case CheckType::MustNotContain:
    case CheckType::Regex:
      out += " " + json(check.text).dump();
      if (check.ignore_case) out += " (ignore case)";
      break;
    case CheckType::Numeric: {
      std::ostringstream s;
      s << " " << check.number << " ± " << check.tolerance;
      if (check.match == NumericMatch::Last) s << " (last number)";
      out += s.str();
      break;
    }
    case CheckType::ValidJson:
      break;
  }
  return out;
}

json check_to_json(const FactCheck& check) {
  json out = {{"type", check_type_name(check.type)}};
  switch (check.type) {
    case CheckType::MustContain:
    case CheckType::MustNotContain:
      out["value"] = check.text;
      if (check.ignore_case) out["ignore_case"] = true;
      break;
    case CheckType::Regex:
      out["pattern"] = check.text;
      if (check.ignore_case) out["ignore_case"] = true;
      break;
    case CheckType::Numeric:
      out["value"] = check.number;
      out["tolerance"] = check.tolerance;
      if (check.match == NumericMatch::Last) out["match"] = "last";
      break;
    case CheckType::ValidJson:
      break;
  }
  return out;
}

std::vector<ChatMessage> PromptSpec::chat() const {
  if (!messages.empty()) return messages;
  return {{"user", prompt}};
}

const PromptSpec* PromptSet::find(std::string_view id) const {
  for (const auto& prompt : prompts) {
    if (prompt.id == id) return &prompt;
  }
  return nullptr;
}

std::string PromptSetError::to_string(std::string_view source_name) const {
  std::string out(source_name);
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  if (!field.empty()) out += "field \"" + field + "\": ";
  return out + message;
}

std::string PromptSetResult::error_text() const {
  std::string out;
  for (const auto& error : errors) out += error.to_string(source_name) + "\n";
  return out;
}

PromptSetResult parse_prompt_set_jsonl(std::string_view text, std::string_view source_name) {
  PromptSetResult result;
  result.source_name = std::string(source_name);
  PromptSet set;
  set.name = result.source_name;
  std::set<std::string> ids;
  const std::string base_dir = media_base_dir(source_name);
  int line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ErrorSink sink(result.errors, line_number, "");
    json object = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded()) {
      sink.add("", "not valid JSON");
      continue;
    }
    auto spec = parse_prompt_object(object, base_dir, sink);
    if (!spec) continue;
    if (!ids.insert(spec->id).second) sink.add("id", "duplicate id \"" + spec->id + "\"");
    set.prompts.push_back(std::move(*spec));
  }
  return finish(std::move(result), std::move(set));
}

PromptSetResult parse_prompt_set(std::string_view text, std::string_view source_name) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '[') {
    return parse_prompt_set_jsonl(text, source_name);
  }
  PromptSetResult result;
  result.source_name = std::string(source_name);
  json array = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (array.is_discarded() || !array.is_array()) {
    result.errors.push_back({0, "", "starts with '[' but is not a valid JSON array"});
    return result;
  }
  bool all_strings = true;
  for (const auto& item : array) all_strings = all_strings && item.is_string();
  if (all_strings) return parse_string_array(array, source_name);
  if (array[0].is_object() && array[0].contains("conversations")) {
    return parse_sharegpt(array, source_name);
  }
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_string()) {
      result.errors.push_back(
          {0, "[" + std::to_string(i) + "]",
           "expected a string (a JSON array of prompts) or a ShareGPT conversation, got " +
               json_type(array[i])});
      break;
    }
  }
  return result;
}

PromptSetResult load_prompt_set(const std::string& ref) {
  if (std::string_view(ref).substr(0, kBuiltinPrefix.size()) == kBuiltinPrefix) {
    const std::string name = ref.substr(kBuiltinPrefix.size());
    if (name == kMultimodalSetName) {
      PromptSetResult result;
      result.source_name = ref;
      result.set = multimodal_prompt_set();
      return result;
    }
    if (auto text = builtin_prompt_set_text(name)) return parse_prompt_set_jsonl(*text, ref);
    PromptSetResult result;
    result.source_name = ref;
    std::string known;
    for (const auto& n : builtin_prompt_set_names()) known += (known.empty() ? "" : ", ") + n;
    result.errors.push_back(
        {0, "", "no built-in prompt set named \"" + name + "\" (built-in: " + known + ")"});
    return result;
  }
  std::string error;
  auto text = files::read_regular_file(ref, kMaxPromptSetBytes, &error);
  if (!text) {
    PromptSetResult result;
    result.source_name = ref;
    // The result's source name already gives the path.
    result.errors.push_back({0, "", files::error_reason(error, ref)});
    return result;
  }
  return parse_prompt_set(*text, ref);
}

}  // namespace lb::plan
