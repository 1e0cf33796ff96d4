#include "core/run/drive/load_driver.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "core/run/drive/body_prefetcher.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/drive/driver_ticks.h"

namespace lb::run {

namespace {

// An open-loop stage starts its clock once this many bodies (or bytes of them) are built ahead,
// or after at most kPrimeMaxNs.
constexpr int64_t kPrimeRequests = 64;
constexpr int64_t kPrimeBytes = int64_t{8} << 20;
constexpr int64_t kPrimeMaxNs = 2'000'000'000;

int64_t output_tokens_of(const net::StreamResult& r) {
  if (r.usage.completion_tokens >= 0) return r.usage.completion_tokens;
  int64_t n = 0;
  for (const auto& e : r.events) n += e.tokens >= 0 ? e.tokens : 1;
  return n;
}

// One stage of a phase: the warm-ups, or the measured requests.
class Stage {
 public:
  Stage(net::StreamClient& client, RunSink& sink, const std::atomic<bool>& stop,
        const LoadPhase& phase, bool warmup, const LoadDriver::RecordHandler& on_record)
      : client_(client),
        sink_(sink),
        stop_(stop),
        phase_(phase),
        warmup_(warmup),
        on_record_(on_record) {}

  void run(int64_t count, int64_t duration_ns, PhaseOutcome& out) {
    count_ = share_of_count(count);
    duration_ns_ = duration_ns;
    // This client of a split lane may have none of the phase's requests: it still meets the
    // others at its start, or they would wait for it in vain.
    const bool none = count > 0 && count_ == 0;
    if (!none) {
      if (!warmup_ && !phase_.schedule_ns.empty())
        offsets_ = phase_.schedule_ns;
      else if (phase_.arrival)
        offsets_ = arrival_offsets_ns(*phase_.arrival, count, duration_ns);
      keep_share_of_offsets();
    }
    // Open loop: bodies are built ahead on a thread of their own, and the clock starts once the
    // first ones are ready, so a large prompt never delays the sends due with or after it.
    if (open_loop() && !offsets_.empty()) {
      prefetch_ = std::make_unique<BodyPrefetcher>(
          [this](int64_t n, bool warmup) { return phase_.request_at(global_index(n), warmup); },
          warmup_, static_cast<int64_t>(offsets_.size()));
      prefetch_->wait_primed(kPrimeRequests, kPrimeBytes, kPrimeMaxNs, stop_);
    }
    start_ns_ = steady_now_ns();
    if (!warmup_ && !begin_measured()) {
      out.interrupted = true;
      return;
    }
    if (none) return;
    while (true) {
      const int64_t now = steady_now_ns();
      if (stop_.load() && !cancelling_) cancel_in_flight();
      if (!cancelling_) submit_due(now);
      if ((cancelling_ || !more_to_submit(now)) && in_flight_.empty()) break;
      wait_for_work(now);
      drain(out);
      maybe_progress(out, false);
    }
    drain(out);
    maybe_progress(out, true);
    out.interrupted = out.interrupted || cancelling_;
  }

 private:
  bool split() const { return phase_.split_clients > 1; }

  // Of COUNT requests (0 = no bound), those this client sends: n with n mod clients == client.
  int64_t share_of_count(int64_t count) const {
    if (!split() || count <= 0) return count;
    const int64_t k = phase_.split_client, clients = phase_.split_clients;
    return count > k ? (count - k + clients - 1) / clients : 0;
  }

  void keep_share_of_offsets() {
    if (!split()) return;
    std::vector<int64_t> kept;
    for (size_t i = 0; i < offsets_.size(); ++i) {
      if (static_cast<int64_t>(i) % phase_.split_clients != phase_.split_client) continue;
      kept.push_back(offsets_[i]);
      open_indexes_.push_back(static_cast<int64_t>(i));
    }
    offsets_ = std::move(kept);
  }

  // The phase's request number of this client's Nth request.
  int64_t global_index(int64_t n) const {
    if (!split()) return n;
    if (!open_indexes_.empty()) return open_indexes_[static_cast<size_t>(n)];
    return n * phase_.split_clients + phase_.split_client;
  }

  // This client's share of the phase's concurrency (0 = unlimited stays so).
  int concurrency() const {
    const int c = phase_.concurrency;
    if (!split() || c <= 0) return c;
    const auto k = phase_.split_client, clients = phase_.split_clients;
    return static_cast<int>(c / clients + (k < c % clients ? 1 : 0));
  }

  // The measured stage's start: for a client of a split lane, when all the lane's clients agreed
  // to start (it sleeps until then), else now; phase_.on_measured_start runs just before. False
  // when the clients did not meet or the run was stopped meanwhile.
  bool begin_measured() {
    std::optional<int64_t> start;
    if (phase_.common_start_ns) {
      start = phase_.common_start_ns();
      if (!start) return false;
    }
    if (phase_.on_measured_start) phase_.on_measured_start();
    while (start && !stop_.load()) {
      const int64_t now = steady_now_ns();
      if (now >= *start) break;
      std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(*start - now, kStopPollNs)));
    }
    start_ns_ = start ? *start : steady_now_ns();
    return !stop_.load();
  }

  bool open_loop() const {
    return phase_.arrival.has_value() || (!warmup_ && !phase_.schedule_ns.empty());
  }

  bool more_to_submit(int64_t now) const {
    if (phase_.deadline_ns > 0 && now >= phase_.deadline_ns) return false;
    if (open_loop()) return next_ < static_cast<int64_t>(offsets_.size());
    if (count_ > 0 && next_ >= count_) return false;
    if (count_ <= 0 && duration_ns_ <= 0) return false;
    return duration_ns_ <= 0 || now - start_ns_ < duration_ns_;
  }

  bool slot_free() const {
    return concurrency() <= 0 || static_cast<int>(in_flight_.size()) < concurrency();
  }

  void submit_due(int64_t now) {
    while (more_to_submit(now) && slot_free()) {
      int64_t t_sched = now;
      if (open_loop()) {
        t_sched = start_ns_ + offsets_[static_cast<size_t>(next_)];
        if (t_sched > now) return;
      }
      submit_one(next_++, t_sched);
      now = steady_now_ns();
    }
  }

  void submit_one(int64_t n, int64_t t_sched) {
    PlannedRequest planned =
        prefetch_ ? prefetch_->take() : phase_.request_at(global_index(n), warmup_);
    net::HttpRequest req = phase_.lane->make_request(phase_.url);
    req.headers.emplace_back("Content-Type", "application/json");
    for (const auto& h : phase_.extra_headers) req.headers.push_back(h);
    req.body = std::move(planned.body);
    req.dialect = phase_.dialect;
    req.stream = true;
    req.timeouts = phase_.timeouts;
    req.max_stream_tokens = stream_token_cap(planned.max_tokens);
    metrics::RequestRecord meta;
    meta.lane_id = phase_.lane->id;
    meta.experiment = phase_.experiment;
    meta.phase = phase_.phase;
    meta.index = planned.index;
    meta.warmup = warmup_;
    meta.trial = phase_.trial;
    // Closed loop: the request was ready to go once its media were encoded, so that client-side
    // time is not counted as queueing (it is recorded as media.encode_ms).
    meta.t_sched_ns = open_loop() ? t_sched : t_sched + planned.media.encode_ns;
    meta.expected_prompt_tokens = planned.expected_prompt_tokens;
    meta.media = std::move(planned.media);
    if (!planned.refused.empty()) return refuse(std::move(meta), std::move(planned.refused));
    // The inbox is shared with the callback so that its last notify never touches a Stage that
    // has already returned.
    auto done = [inbox = inbox_, meta = std::move(meta)](net::StreamResult&& result) mutable {
      meta.result = std::move(result);
      {
        std::lock_guard lock(inbox->mutex);
        inbox->finished.push_back(std::move(meta));
      }
      inbox->cv.notify_one();
    };
    const uint64_t id = client_.submit(std::move(req), std::move(done));
    in_flight_.insert(id);
    max_in_flight_ = std::max(max_in_flight_, static_cast<int>(in_flight_.size()));
    if (!queue_said_ && in_flight_.size() > client_.max_transfers()) {
      queue_said_ = true;
      sink_.on_message(MessageLevel::Warning,
                       "lane " + phase_.lane->id + " " + phase_.phase + ": more than " +
                           std::to_string(client_.max_transfers()) +
                           " requests at once; this client sends that many at a time (a third "
                           "of its descriptor limit) and the rest wait, which shows as their "
                           "lateness: raise the limit (ulimit -n) or split the lane over "
                           "several clients");
    }
  }

  // Recorded like a finished request that failed, without reaching the server.
  void refuse(metrics::RequestRecord meta, std::string why) {
    meta.result.error = net::ErrorKind::Refused;
    meta.result.error_message = std::move(why);
    meta.result.t_done_ns = steady_now_ns();
    std::lock_guard lock(inbox_->mutex);
    inbox_->finished.push_back(std::move(meta));
  }

  void cancel_in_flight() {
    cancelling_ = true;
    for (uint64_t id : in_flight_) client_.cancel(id);
  }

  void wait_for_work(int64_t now) {
    int64_t wake_ns = now + kStopPollNs;
    if (!cancelling_ && open_loop() && more_to_submit(now) && slot_free())
      wake_ns = std::min(wake_ns, start_ns_ + offsets_[static_cast<size_t>(next_)]);
    std::unique_lock lock(inbox_->mutex);
    const auto deadline = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(wake_ns));
    inbox_->cv.wait_until(lock, deadline, [this] { return !inbox_->finished.empty(); });
  }

  void drain(PhaseOutcome& out) {
    std::deque<metrics::RequestRecord> batch;
    {
      std::lock_guard lock(inbox_->mutex);
      batch.swap(inbox_->finished);
    }
    for (auto& record : batch) {
      in_flight_.erase(record.result.id);
      if (record.result.error == net::ErrorKind::Cancelled) {
        ++out.cancelled;
        continue;
      }
      on_record_(record);
      if (warmup_) continue;
      ++done_;
      if (record.result.error != net::ErrorKind::None) {
        ++out.errors;
      } else {
        tokens_ += output_tokens_of(record.result);
      }
      if (out.spool)
        out.spool->add(record);
      else
        out.records.push_back(std::move(record));
    }
    if (!warmup_) out.max_in_flight = std::max(out.max_in_flight, max_in_flight_);
  }

  void maybe_progress(const PhaseOutcome& out, bool final) {
    const int64_t now = steady_now_ns();
    if (!final && now - last_progress_ns_ < kProgressEveryNs) return;
    last_progress_ns_ = now;
    RunProgress p;
    p.lane_id = phase_.lane->id;
    p.experiment = phase_.experiment;
    p.phase = warmup_ ? phase_.phase + " warm-up" : phase_.phase;
    p.done = warmup_ ? next_ - static_cast<int64_t>(in_flight_.size()) : done_;
    p.total = open_loop() ? static_cast<int64_t>(offsets_.size()) : count_;
    p.errors = out.errors;
    const double elapsed_s = static_cast<double>(now - start_ns_) / 1e9;
    p.output_tok_s = elapsed_s > 0 ? static_cast<double>(tokens_) / elapsed_s : 0;
    if (p.total > 0 && p.done > 0)
      p.eta_s = elapsed_s / static_cast<double>(p.done) * static_cast<double>(p.total - p.done);
    else if (duration_ns_ > 0)
      p.eta_s = std::max(0.0, static_cast<double>(duration_ns_) / 1e9 - elapsed_s);
    sink_.on_progress(p);
  }

  net::StreamClient& client_;
  RunSink& sink_;
  const std::atomic<bool>& stop_;
  const LoadPhase& phase_;
  const bool warmup_;
  const LoadDriver::RecordHandler& on_record_;

  int64_t count_ = 0;
  int64_t duration_ns_ = 0;
  int64_t start_ns_ = 0;
  std::vector<int64_t> offsets_;
  std::vector<int64_t> open_indexes_;  // a split lane's client: the phase's index of each offset
  int64_t next_ = 0;
  int64_t done_ = 0;
  int64_t tokens_ = 0;
  int max_in_flight_ = 0;
  int64_t last_progress_ns_ = 0;
  bool cancelling_ = false;
  bool queue_said_ = false;  // the client's transfer limit was reached (said once)
  std::unordered_set<uint64_t> in_flight_;
  std::unique_ptr<BodyPrefetcher> prefetch_;  // open loop only

  struct Inbox {
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<metrics::RequestRecord> finished;
  };
  std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();
};

}  // namespace

PhaseOutcome LoadDriver::run(const LoadPhase& phase, const RecordHandler& on_record) {
  PhaseOutcome out;
  if (phase.spool_slo) out.spool = std::make_shared<metrics::RecordSpool>(*phase.spool_slo);
  if (phase.warmups > 0 && !stop_.load()) {
    Stage warm(client_, sink_, stop_, phase, /*warmup=*/true, on_record);
    warm.run(phase.warmups, phase.warmup_duration_ns, out);
  }
  if (!stop_.load()) {
    Stage measured(client_, sink_, stop_, phase, /*warmup=*/false, on_record);
    measured.run(phase.count, phase.duration_ns, out);
  } else {
    out.interrupted = true;
  }
  out.first_send_ns = out.spool ? out.spool->first_send_ns() : 0;
  out.last_done_ns = out.spool ? out.spool->last_done_ns() : 0;
  for (const auto& r : out.records) {
    if (r.result.t_sent_ns > 0 &&
        (out.first_send_ns == 0 || r.result.t_sent_ns < out.first_send_ns))
      out.first_send_ns = r.result.t_sent_ns;
    out.last_done_ns = std::max(out.last_done_ns, r.result.t_done_ns);
  }
  return out;
}

}  // namespace lb::run
