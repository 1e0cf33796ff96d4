#include "core/fleet/request_line_record.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;

int64_t line_whole(const json& j, const char* key, int64_t otherwise = -1) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : otherwise;
}

double line_number(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : -1.0;
}

std::string line_text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

net::ErrorKind error_kind_of(const json& line) {
  const auto it = line.find("error");
  if (it == line.end() || !it->is_object()) return net::ErrorKind::None;
  const std::string kind = line_text(*it, "kind");
  for (int k = static_cast<int>(net::ErrorKind::Connect);
       k <= static_cast<int>(net::ErrorKind::Refused); ++k)
    if (kind == metrics::error_kind_key(static_cast<net::ErrorKind>(k)))
      return static_cast<net::ErrorKind>(k);
  return net::ErrorKind::ClientError;  // an error of a kind this version does not know
}

void read_spec(const json& line, net::SpecDecodeUsage& spec) {
  const auto it = line.find("spec_decode");
  if (it == line.end() || !it->is_object()) return;
  spec.num_drafts = line_whole(*it, "num_drafts");
  spec.num_draft_tokens = line_whole(*it, "num_draft_tokens");
  spec.num_accepted_tokens = line_whole(*it, "num_accepted_tokens");
}

// The events from their offsets and tokens. Which carried content is not written, only when the
// first did (ttft_content_ms): events from then on are marked as content, the earlier ones as
// reasoning. An estimated token count came from bytes; the first event carries that many.
bool read_events(const json& line, metrics::RequestRecord& r) {
  const auto offsets = line.find("event_offsets_ns");
  if (offsets == line.end()) return true;
  if (!offsets->is_array()) return false;
  const auto tokens = line.find("event_tokens");
  const bool has_tokens = tokens != line.end() && tokens->is_array();
  // An offset is within a day of the send (a request's limit is far less).
  constexpr int64_t kMaxOffsetNs = int64_t{86'400} * 1'000'000'000;
  const double content_ms = line_number(line, "ttft_content_ms");
  const int64_t content_from_ns = content_ms >= 0 && content_ms * 1e6 < double(kMaxOffsetNs)
                                      ? std::llround(content_ms * 1e6)
                                      : kMaxOffsetNs + 1;
  net::StreamResult& result = r.result;
  result.events.reserve(offsets->size());
  for (size_t i = 0; i < offsets->size(); ++i) {
    const json& at = (*offsets)[i];
    if (!at.is_number_integer()) return false;
    const int64_t offset_ns = at.get<int64_t>();
    if (offset_ns < 0 || offset_ns > kMaxOffsetNs) return false;
    net::EventArrival e;
    if (__builtin_add_overflow(result.t_sent_ns, offset_ns, &e.arrival_ns)) return false;
    if (has_tokens && i < tokens->size() && (*tokens)[i].is_number_integer()) {
      const int64_t n = (*tokens)[i].get<int64_t>();
      e.tokens = n >= 0 && n <= INT32_MAX ? static_cast<int32_t>(n) : -1;
    }
    (offset_ns >= content_from_ns - 1000 ? e.content_bytes : e.reasoning_bytes) = 1;
    result.events.push_back(e);
  }
  return true;
}

// The events' bytes as the token count's provenance needs them: an estimate came from bytes (4 a
// token), so the events carry that many in all; a count of 0 measured from a response without
// text, none.
void fit_event_bytes(const std::string& output_from, int64_t output, net::StreamResult& result) {
  auto& events = result.events;
  if (events.empty()) return;
  if (output_from == "measured") {
    for (auto& e : events) e.content_bytes = e.reasoning_bytes = 0;
    return;
  }
  if (output_from != "estimated" || output <= 0) return;
  for (auto& e : events) e.tokens = -1;
  const int64_t total =
      std::llround(double(std::min<int64_t>(output, INT32_MAX)) * metrics::kEstimatedBytesPerToken);
  const int64_t rest = static_cast<int64_t>(events.size()) - 1;  // one byte each
  if (total <= rest) return;
  auto& first = events.front();
  (first.content_bytes > 0 ? first.content_bytes : first.reasoning_bytes) =
      static_cast<uint32_t>(std::min<int64_t>(total - rest, UINT32_MAX));
}

void read_usage(const json& line, metrics::RequestRecord& r) {
  net::Usage& usage = r.result.usage;
  const int64_t output = line_whole(line, "output_tokens");
  const std::string output_from = line_text(line, "output_tokens_provenance");
  if (output_from == "server") usage.completion_tokens = output;
  fit_event_bytes(output_from, output, r.result);
  const int64_t prompt = line_whole(line, "prompt_tokens");
  const std::string prompt_from = line_text(line, "prompt_tokens_provenance");
  if (prompt_from == "server") usage.prompt_tokens = prompt;
  if (prompt_from == "estimated") r.expected_prompt_tokens = prompt;
  usage.cached_tokens = line_whole(line, "cached_tokens");
  usage.reasoning_tokens = line_whole(line, "reasoning_tokens");
}

}  // namespace

std::optional<metrics::RequestRecord> record_from_line(const json& line) {
  if (!line.is_object()) return std::nullopt;
  metrics::RequestRecord r;
  r.lane_id = line_text(line, "lane");
  r.experiment = line_text(line, "experiment");
  r.phase = line_text(line, "phase");
  if (r.lane_id.empty() || r.phase.empty()) return std::nullopt;
  r.index = line_whole(line, "index", 0);
  const auto warmup = line.find("warmup");
  r.warmup = warmup != line.end() && warmup->is_boolean() && warmup->get<bool>();
  r.trial = line_whole(line, "trial", 0);
  r.session = line_whole(line, "session");
  r.turn = line_whole(line, "turn");
  r.t_sched_ns = line_whole(line, "t_sched_ns", 0);
  net::StreamResult& result = r.result;
  result.t_submit_ns = line_whole(line, "t_submit_ns", 0);
  result.t_sent_ns = line_whole(line, "t_sent_ns", 0);
  result.t_first_byte_ns = line_whole(line, "t_first_byte_ns", 0);
  result.t_done_ns = line_whole(line, "t_done_ns", 0);
  result.total_events = line_whole(line, "total_events", 0);
  result.http_status = static_cast<int>(line_whole(line, "http_status", 0));
  result.finish_reason = line_text(line, "finish_reason");
  result.model = line_text(line, "model");
  result.error = error_kind_of(line);
  if (result.error != net::ErrorKind::None)
    result.error_message = line_text(line.value("error", json::object()), "message");
  if (!read_events(line, r)) return std::nullopt;
  read_usage(line, r);
  read_spec(line, result.spec);
  return r;
}

}  // namespace lb::fleet
