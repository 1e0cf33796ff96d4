#include "core/net/sse_framer.h"

#include <cstring>

namespace lb::net {

namespace {

// Position of the next CR or LF at or after `from`, or npos. LF is found with memchr (fast);
// CR is rare, so it is only looked for in front of that LF.
size_t find_eol(std::string_view bytes, size_t from) {
  const char* begin = bytes.data() + from;
  const size_t n = bytes.size() - from;
  const void* lf = std::memchr(begin, '\n', n);
  const size_t span = lf ? static_cast<const char*>(lf) - begin : n;
  const void* cr = std::memchr(begin, '\r', span);
  if (cr) return from + (static_cast<const char*>(cr) - begin);
  return lf ? from + span : std::string_view::npos;
}

}  // namespace

SseFramer::SseFramer(size_t max_event_bytes, Sink sink)
    : max_event_bytes_(max_event_bytes), sink_(std::move(sink)) {}

bool SseFramer::fail_too_large(size_t bytes) {
  failed_ = true;
  error_ = "SSE event larger than the limit of " + std::to_string(max_event_bytes_) + " bytes (" +
           std::to_string(bytes) + " bytes buffered before the event ended)";
  line_.clear();
  data_.clear();
  data_view_ = {};
  data_borrowed_ = false;
  return false;
}

// The BOM is matched byte by byte: the first reads may cut it into pieces.
std::string_view SseFramer::skip_bom(std::string_view bytes) {
  static constexpr std::string_view kBom = "\xEF\xBB\xBF";
  while (at_start_ && !bytes.empty()) {
    if (bytes[0] != kBom[bom_bytes_]) {
      at_start_ = false;
      line_.append(kBom.substr(0, bom_bytes_));  // a partial BOM was data after all
      return bytes;
    }
    bytes.remove_prefix(1);
    if (++bom_bytes_ == kBom.size()) at_start_ = false;
  }
  return bytes;
}

bool SseFramer::feed(std::string_view bytes) {
  if (failed_) return false;
  if (at_start_) bytes = skip_bom(bytes);
  size_t pos = 0;
  if (skip_lf_ && !bytes.empty()) {
    skip_lf_ = false;
    if (bytes[0] == '\n') pos = 1;
  }
  while (pos < bytes.size()) {
    const size_t eol = find_eol(bytes, pos);
    if (eol == std::string_view::npos) {
      const size_t held = pending_bytes() + (bytes.size() - pos);
      if (held > max_event_bytes_) return fail_too_large(held);
      line_.append(bytes.data() + pos, bytes.size() - pos);
      break;
    }
    const size_t held = pending_bytes() + (eol - pos);
    if (held > max_event_bytes_) return fail_too_large(held);
    if (line_.empty()) {
      process_line(bytes.substr(pos, eol - pos), true);  // common case: no copy
    } else {
      line_.append(bytes.data() + pos, eol - pos);
      process_line(line_, false);
      line_.clear();
    }
    if (bytes[eol] == '\r') {
      if (eol + 1 == bytes.size()) {
        skip_lf_ = true;  // CR LF may be split across reads
        pos = eol + 1;
      } else {
        pos = eol + (bytes[eol + 1] == '\n' ? 2 : 1);
      }
    } else {
      pos = eol + 1;
    }
  }
  keep_borrowed_data();  // the event goes on in the next read; these bytes do not
  return true;
}

void SseFramer::keep_borrowed_data() {
  if (!data_borrowed_) return;
  data_.assign(data_view_);
  data_view_ = {};
  data_borrowed_ = false;
}

bool SseFramer::finish() {
  if (failed_) return false;
  if (!line_.empty()) {
    std::string last;
    last.swap(line_);
    process_line(last, false);
  }
  if (!has_data_) return false;
  dispatch();
  return true;
}

void SseFramer::process_line(std::string_view line, bool borrowed) {
  if (line.empty()) return dispatch();
  if (line[0] == ':') return;  // comment (keep-alives, pings, fixture headers)
  const size_t colon = line.find(':');
  std::string_view field = line.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
  }
  if (field == "data" || field == "error") {
    if (!has_data_ && borrowed) {
      data_view_ = value;
      data_borrowed_ = true;
    } else {
      keep_borrowed_data();
      if (has_data_) data_ += '\n';
      data_.append(value);
    }
    has_data_ = true;
    legacy_error_ = legacy_error_ || field == "error";
  } else if (field == "event") {
    type_.assign(value);
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) id_.assign(value);
  }
  // "retry" and unknown fields are ignored, as the spec says.
}

void SseFramer::dispatch() {
  if (has_data_) {
    sink_(
        SseEvent{type_, data_borrowed_ ? data_view_ : std::string_view(data_), id_, legacy_error_});
  }
  data_.clear();
  data_view_ = {};
  data_borrowed_ = false;
  type_.clear();
  has_data_ = false;
  legacy_error_ = false;
}

}  // namespace lb::net
