#include "request_synth.h"

#include <algorithm>
#include <cmath>

namespace lb::bench {
namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr double kLongGapShare = 0.02;     // a step that waited for another request's prefill
constexpr double kCoalescedShare = 0.005;  // an event read together with the one before it
constexpr int32_t kBytesPerToken = 4;

int64_t ms_to_ns(double ms) { return static_cast<int64_t>(std::llround(ms * kNsPerMs)); }

}  // namespace

std::vector<LaneModel> lane_models() {
  LaneModel bf16{"bf16", "Qwen/Qwen3.8-27B", 180, 6.0, 42, 0.012, {}};
  LaneModel fp8{"fp8", "Qwen/Qwen3.8-27B-FP8", 150, 4.5, 64, 0.010, {}};
  LaneModel mtp{"fp8-mtp3", "Qwen/Qwen3.8-27B-FP8", 150, 4.5, 56, 0.016, {0.9, 0.75, 0.6}};
  return {bf16, fp8, mtp};
}

ClosedLoop::ClosedLoop(int64_t concurrency, int64_t start_ns)
    : free_at_ns_(static_cast<size_t>(std::max<int64_t>(1, concurrency)), start_ns) {}

int64_t ClosedLoop::next_send_ns() {
  current_ = static_cast<size_t>(std::min_element(free_at_ns_.begin(), free_at_ns_.end()) -
                                 free_at_ns_.begin());
  return free_at_ns_[current_];
}

void ClosedLoop::finished(int64_t done_ns) { free_at_ns_[current_] = done_ns + 200'000; }

int64_t ClosedLoop::end_ns() const {
  return *std::max_element(free_at_ns_.begin(), free_at_ns_.end());
}

double RequestSynth::lognormal(double median, double sigma) {
  return median * std::exp(sigma * std::normal_distribution<double>(0.0, 1.0)(rng_));
}

int32_t RequestSynth::tokens_of_step(const LaneModel& lane) {
  int32_t tokens = 1;
  for (double a : lane.acceptance) {
    if (uniform() >= a) break;
    ++tokens;
  }
  return tokens;
}

void RequestSynth::add_events(const LaneModel& lane, const PhaseRequest& request,
                              int64_t concurrency, int64_t cut_after_events, net::StreamResult& r) {
  const double ttft_ms = lognormal(
      lane.ttft_base_ms + lane.ttft_per_stream_ms * static_cast<double>(concurrency), 0.2);
  const double step_ms =
      1000.0 / lane.step_per_s * (1.0 + lane.batch_slowdown * static_cast<double>(concurrency));
  r.t_first_byte_ns = r.t_sent_ns + ms_to_ns(ttft_ms) - 50'000;
  int64_t at_ns = r.t_sent_ns + ms_to_ns(ttft_ms);
  int64_t tokens_left = request.output_tokens;
  std::vector<int64_t> accepted(lane.acceptance.size(), 0);
  while (tokens_left > 0 && static_cast<int64_t>(r.events.size()) < cut_after_events) {
    if (!r.events.empty()) {
      double gap_ms = step_ms * (0.85 + 0.3 * uniform());
      const double u = uniform();
      if (u < kCoalescedShare) gap_ms = 0;
      if (u > 1.0 - kLongGapShare) gap_ms *= 4;
      at_ns += ms_to_ns(gap_ms);
    }
    const int32_t tokens =
        static_cast<int32_t>(std::min<int64_t>(tokens_of_step(lane), tokens_left));
    for (int32_t k = 1; k < tokens; ++k) ++accepted[static_cast<size_t>(k - 1)];
    tokens_left -= tokens;
    net::EventArrival e;
    e.arrival_ns = at_ns;
    e.tokens = tokens;
    e.content_bytes = static_cast<uint32_t>(tokens * kBytesPerToken);
    r.events.push_back(e);
  }
  r.total_events = static_cast<int64_t>(r.events.size()) + 2;  // role chunk, usage chunk
  r.t_done_ns = at_ns + 400'000;
  if (lane.acceptance.empty() || tokens_left > 0) return;
  const auto steps = static_cast<int64_t>(r.events.size());
  r.spec.num_drafts = steps;
  r.spec.num_draft_tokens = steps * static_cast<int64_t>(lane.acceptance.size());
  r.spec.num_accepted_tokens = request.output_tokens - steps;
  r.spec.accepted_per_position = accepted;
}

void RequestSynth::fail_before_stream(net::StreamResult& r) {
  r.http_status = 503;
  r.error = net::ErrorKind::HttpStatus;
  r.error_message = "HTTP 503: Service Unavailable (the engine is overloaded; retry later)";
  r.t_first_byte_ns = r.t_sent_ns + ms_to_ns(3 + 2 * uniform());
  r.t_done_ns = r.t_first_byte_ns + 150'000;
}

metrics::RequestRecord RequestSynth::make(const LaneModel& lane, const PhaseRequest& request,
                                          int64_t concurrency, int64_t sched_ns,
                                          double failure_rate) {
  metrics::RequestRecord rec;
  rec.lane_id = lane.id;
  rec.experiment = request.experiment;
  rec.phase = request.phase;
  rec.index = request.index;
  rec.warmup = request.warmup;
  rec.t_sched_ns = sched_ns;
  rec.expected_prompt_tokens = request.prompt_tokens;
  net::StreamResult& r = rec.result;
  r.t_submit_ns = sched_ns + 10'000 + static_cast<int64_t>(20'000 * uniform());
  r.t_sent_ns = r.t_submit_ns + 40'000 + static_cast<int64_t>(40'000 * uniform());
  r.http_version_used = "1.1";
  r.model = lane.model;
  const double u = uniform();
  if (u < failure_rate / 2) {
    fail_before_stream(r);
    return rec;
  }
  r.http_status = 200;
  const bool truncated = u < failure_rate;
  const int64_t cut = truncated ? 1 + static_cast<int64_t>(uniform() * 8) : INT64_MAX;
  add_events(lane, request, concurrency, cut, r);
  if (truncated) {
    r.error = net::ErrorKind::Truncated;
    r.error_message = "the connection closed before the stream ended";
    return rec;
  }
  r.content = request.content;
  r.finish_reason = request.content.empty() ? "length" : "stop";
  r.usage.prompt_tokens = request.prompt_tokens;
  r.usage.completion_tokens = request.output_tokens;
  return rec;
}

}  // namespace lb::bench
