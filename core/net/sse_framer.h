#pragma once
// SseFramer turns raw response bytes into Server-Sent Events as the WHATWG spec defines them:
// LF, CRLF and CR line endings (a CR at the end of one read and an LF at the start of the next
// are one line ending), ':' comments, `event:`, `id:`, `retry:` and multi-line `data:` joined by
// '\n', with or without a space after the colon. Bytes are buffered raw and never decoded here,
// so a read boundary may fall anywhere, inside a UTF-8 character too.
//
// Two deliberate extensions: the non-standard `error:` field sent by older llama.cpp builds is
// surfaced as an event flagged legacy_error (a spec parser would drop it and hide the failure),
// and at end of stream a final event that lacks its blank line is still dispatched (the spec
// discards it; a benchmark must not lose the last tokens of a server that closes early).
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace lb::net {

struct SseEvent {
  std::string_view type;  // the `event:` name; empty means the default "message"
  std::string_view data;  // data lines joined with '\n'
  std::string_view id;    // last event id seen on this stream
  bool legacy_error = false;
};

class SseFramer {
 public:
  using Sink = std::function<void(const SseEvent&)>;

  // Events (data plus the line being read) larger than max_event_bytes stop the framer.
  SseFramer(size_t max_event_bytes, Sink sink);

  // Frames `bytes`, calling the sink for each completed event. Returns false once an event has
  // exceeded the size limit; error() then says so, and later calls do nothing.
  bool feed(std::string_view bytes);
  // End of stream: dispatches a final unterminated event. Returns true when that happened.
  bool finish();

  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  // Bytes held for an incomplete line or event (0 right after a blank line).
  size_t pending_bytes() const { return line_.size() + data_.size() + data_view_.size(); }

 private:
  // `borrowed`: the line is in the bytes being fed, which outlive the event only when it ends
  // within them.
  void process_line(std::string_view line, bool borrowed);
  void keep_borrowed_data();
  void dispatch();
  bool fail_too_large(size_t bytes);
  std::string_view skip_bom(std::string_view bytes);

  size_t max_event_bytes_;
  Sink sink_;
  std::string line_;  // an incomplete line carried over from the previous read
  std::string data_;
  // An event's only data line while it still sits in the bytes being fed: dispatched from there
  // without a copy when the event ends in the same read (the usual case), else copied to data_.
  std::string_view data_view_;
  bool data_borrowed_ = false;
  std::string type_;
  std::string id_;
  bool has_data_ = false;
  bool legacy_error_ = false;
  bool skip_lf_ = false;  // the previous read ended with CR: a leading LF belongs to it
  bool at_start_ = true;  // a UTF-8 BOM is skipped at the very start
  size_t bom_bytes_ = 0;  // BOM bytes matched so far
  bool failed_ = false;
  std::string error_;
};

}  // namespace lb::net
