#include "core/interop/imported_request.h"
#include "core/text/ascii_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace lb::interop {
namespace {

constexpr int64_t kTimelineBaseNs = 1'000'000'000;

int64_t to_ns(double seconds) { return static_cast<int64_t>(std::llround(seconds * 1e9)); }

bool contains(const std::string& haystack, const char* needle) {
  return haystack.find(needle) != std::string::npos;
}

// Tools quote the URL they called in their error text; a run folder keeps no host names.
std::string without_urls(std::string text) {
  for (const char* scheme : {"http://", "https://"}) {
    size_t at = 0;
    while ((at = text.find(scheme, at)) != std::string::npos) {
      size_t end = at;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
             text[end] != '\'' && text[end] != '"' && text[end] != ')')
        ++end;
      text.replace(at, end - at, "<url>");
      at += 5;
    }
  }
  return text;
}

}  // namespace

net::ErrorKind classify_tool_error(const std::string& message) {
  const std::string m = text::ascii_lower(message);
  if (contains(m, "429") || contains(m, "too many requests") || contains(m, "rate limit"))
    return net::ErrorKind::RateLimited;
  if (contains(m, "timeout") || contains(m, "timed out")) return net::ErrorKind::TotalTimeout;
  if (contains(m, "connect") || contains(m, "name resolution") || contains(m, "refused"))
    return net::ErrorKind::Connect;
  if (contains(m, "http") || contains(m, "status") || contains(m, "bad request"))
    return net::ErrorKind::HttpStatus;
  return net::ErrorKind::StreamError;
}

metrics::RequestRecord make_record(const ToolRequest& in, double t0_s, int64_t index) {
  metrics::RequestRecord rec;
  rec.index = index;
  net::StreamResult& r = rec.result;
  r.t_sent_ns = kTimelineBaseNs + to_ns(in.send_s - t0_s);
  r.t_submit_ns = r.t_sent_ns;
  rec.t_sched_ns = in.queue_s > 0 ? r.t_sent_ns - to_ns(in.queue_s) : r.t_sent_ns;
  if (in.ttft_s >= 0) {
    // Cumulative in seconds, rounded once per event, so gaps do not drift by rounding.
    double at_s = in.ttft_s;
    r.events.push_back({r.t_sent_ns + to_ns(at_s)});
    for (double gap : in.gaps_s) {
      at_s += std::max(0.0, gap);
      r.events.push_back({r.t_sent_ns + to_ns(at_s)});
    }
  }
  r.total_events = static_cast<int64_t>(r.events.size());
  r.t_first_byte_ns = r.events.empty() ? r.t_sent_ns : r.events.front().arrival_ns;
  const int64_t last_event_ns = r.events.empty() ? r.t_sent_ns : r.events.back().arrival_ns;
  r.t_done_ns = std::max(last_event_ns,
                         in.latency_s >= 0 ? r.t_sent_ns + to_ns(in.latency_s) : last_event_ns);
  r.usage.prompt_tokens = in.prompt_tokens;
  if (in.error.empty()) {
    r.usage.completion_tokens = in.output_tokens;
    r.http_status = 200;
  } else {
    r.error = classify_tool_error(in.error);
    r.error_message = without_urls(in.error);
  }
  return rec;
}

}  // namespace lb::interop
