#pragma once
// ShareGPT conversation files for multi-turn sessions (docs/sessions.md): a JSON list of
// {"conversations": [{"from": "human"|"gpt"|"system", "value": "..."}, ...]}. Only the user's
// turns are kept: a session sends each of them after the lane's own previous answers, as a chat
// client does, so the recorded answers ("gpt") are not replayed. Errors name the file and the
// position, e.g. "chats.json: [3].conversations[1].from: ...".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lb::plan {

struct Conversation {
  std::string system_prompt;            // empty = none
  std::vector<std::string> user_turns;  // in order; never empty
  int64_t position = 0;                 // 0-based index of the conversation in its file
};

struct ConversationReadResult {
  std::vector<Conversation> conversations;  // those with at least one user turn, file order
  int64_t skipped = 0;                      // conversations without a user turn
  std::vector<std::string> errors;          // "FILE: [i].conversations[j].from: message"
  bool ok() const { return errors.empty() && !conversations.empty(); }
  std::string error_text() const;  // one error per line
};

// MAX_CONVERSATIONS > 0 stops after that many usable conversations.
ConversationReadResult read_sharegpt_text(std::string_view text, std::string_view source_name,
                                          int64_t max_conversations = 0);
ConversationReadResult read_sharegpt_file(const std::string& path, int64_t max_conversations = 0);

}  // namespace lb::plan
