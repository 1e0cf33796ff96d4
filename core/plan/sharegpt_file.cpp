#include "core/plan/sharegpt_file.h"

#include <nlohmann/json.hpp>

#include "core/files/regular_file.h"

namespace lb::plan {
namespace {

using nlohmann::json;

// Errors after this many are summarised: a file of a million bad rows names the first ones.
constexpr size_t kMaxErrors = 20;

std::string at(size_t i) { return "[" + std::to_string(i) + "]"; }

class Reader {
 public:
  Reader(std::string_view source, ConversationReadResult& out) : source_(source), out_(out) {}

  void error(const std::string& where, const std::string& message) {
    if (out_.errors.size() < kMaxErrors)
      out_.errors.push_back(source_ + ": " + where + ": " + message);
  }

  // One conversation; false when it is malformed (the error is recorded).
  bool read(const json& item, size_t i, Conversation& c) {
    const std::string where = at(i);
    if (!item.is_object()) return error(where, "must be an object with 'conversations'"), false;
    const auto it = item.find("conversations");
    if (it == item.end() || !it->is_array())
      return error(where + ".conversations", "missing, or not a list of {from, value} turns"),
             false;
    bool ok = true;
    for (size_t j = 0; j < it->size(); ++j)
      ok = turn((*it)[j], where + ".conversations" + at(j), c) && ok;
    c.position = static_cast<int64_t>(i);
    return ok;
  }

 private:
  bool turn(const json& t, const std::string& where, Conversation& c) {
    if (!t.is_object()) return error(where, "must be an object {from, value}"), false;
    const auto from = t.find("from");
    const auto value = t.find("value");
    if (from == t.end() || !from->is_string())
      return error(where + ".from", "missing or not a string"), false;
    if (value == t.end() || !value->is_string())
      return error(where + ".value", "missing or not a string"), false;
    const std::string& who = from->get_ref<const std::string&>();
    const std::string& text = value->get_ref<const std::string&>();
    if (who == "human" || who == "user") {
      if (text.empty()) return error(where + ".value", "an empty user turn"), false;
      c.user_turns.push_back(text);
    } else if (who == "system") {
      c.system_prompt = text;
    } else if (who != "gpt" && who != "assistant" && who != "chatgpt" && who != "bing" &&
               who != "bard") {
      return error(where + ".from",
                   "unknown speaker '" + who + "'; one of human, user, gpt, assistant, system"),
             false;
    }
    return true;
  }

  std::string source_;
  ConversationReadResult& out_;
};

}  // namespace

std::string ConversationReadResult::error_text() const {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  return out;
}

ConversationReadResult read_sharegpt_text(std::string_view text, std::string_view source_name,
                                          int64_t max_conversations) {
  ConversationReadResult out;
  const std::string source(source_name);
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    const std::string what = e.what();
    const size_t tag_end = what.find("] ");
    out.errors.push_back(source + ": invalid JSON: " +
                         (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
    return out;
  }
  if (!doc.is_array()) {
    out.errors.push_back(source + ": must be a JSON list of {\"conversations\": [...]} objects");
    return out;
  }
  Reader reader(source, out);
  for (size_t i = 0; i < doc.size(); ++i) {
    if (max_conversations > 0 &&
        static_cast<int64_t>(out.conversations.size()) >= max_conversations)
      break;
    Conversation c;
    if (!reader.read(doc[i], i, c)) continue;
    if (c.user_turns.empty()) {
      ++out.skipped;
      continue;
    }
    out.conversations.push_back(std::move(c));
  }
  if (out.errors.empty() && out.conversations.empty())
    out.errors.push_back(source + ": no conversation with a user turn (" +
                         std::to_string(doc.size()) + " entries)");
  return out;
}

ConversationReadResult read_sharegpt_file(const std::string& path, int64_t max_conversations) {
  constexpr size_t kMaxConversationFileBytes = 1024 * files::kMiB;
  std::string error;
  const auto text = files::read_regular_file(path, kMaxConversationFileBytes, &error);
  if (!text) {
    ConversationReadResult out;
    out.errors.push_back(path + ": cannot read the conversation file (" +
                         files::error_reason(error, path) + ")");
    return out;
  }
  return read_sharegpt_text(*text, path, max_conversations);
}

}  // namespace lb::plan
