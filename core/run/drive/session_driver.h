#pragma once
// SessionDriver runs multi-turn chat sessions against one lane through the shared StreamClient.
// A turn is sent only after the lane answered the one before it (plus the think time), and it
// carries the whole history: the system prompt, every earlier user turn and the lane's own
// answers, as a chat client sends it. Up to `concurrency` sessions are in flight at once; when one
// ends the next begins. Like LoadDriver, the calling thread schedules and the I/O thread only
// moves results into a locked inbox.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/load_driver.h"

namespace lb::run {

struct SessionScript {
  std::string system_prompt;            // empty = none
  std::vector<std::string> user_turns;  // one request per entry
};

struct SessionPhase {
  // Names, lane, URL, dialect, timeouts, headers and event forwarding; `concurrency` is the number
  // of sessions in flight at once. request_at, count, schedule and warm-ups are not used.
  LoadPhase base;
  std::vector<SessionScript> scripts;
  ChatRequestOptions options;  // every turn's request options (max_tokens, model, ...)
  int64_t think_time_ns = 0;   // from an answer's end to the next turn's send
};

class SessionDriver {
 public:
  SessionDriver(net::StreamClient& client, RunSink& sink, const std::atomic<bool>& stop)
      : client_(client), sink_(sink), stop_(stop) {}

  // Every turn's record carries its session (index into scripts) and turn (0-based); its index
  // is the request's place in send order. A failed turn ends its session: the history it would
  // extend has no answer. t_sched of a turn is when it became due (previous answer + think time).
  PhaseOutcome run(const SessionPhase& phase, const LoadDriver::RecordHandler& on_record);

 private:
  net::StreamClient& client_;
  RunSink& sink_;
  const std::atomic<bool>& stop_;
};

}  // namespace lb::run
