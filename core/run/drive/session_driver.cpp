#include "core/run/drive/session_driver.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

#include "core/net/steady_clock.h"
#include "core/run/drive/driver_ticks.h"

namespace lb::run {
namespace {

struct Inbox {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<metrics::RequestRecord> finished;
};

struct ActiveSession {
  size_t script = 0;
  size_t turn = 0;
  std::vector<plan::ChatMessage> history;
  int64_t due_ns = 0;
  uint64_t request_id = 0;  // 0 = none in flight
};

class SessionRun {
 public:
  SessionRun(net::StreamClient& client, RunSink& sink, const std::atomic<bool>& stop,
             const SessionPhase& phase, const LoadDriver::RecordHandler& on_record)
      : client_(client), sink_(sink), stop_(stop), phase_(phase), on_record_(on_record) {
    for (const auto& s : phase.scripts) total_turns_ += static_cast<int64_t>(s.user_turns.size());
  }

  void run(PhaseOutcome& out) {
    start_ns_ = steady_now_ns();
    while (true) {
      const int64_t now = steady_now_ns();
      if (stop_.load() && !cancelling_) cancel_in_flight();
      if (!cancelling_) {
        start_sessions(now);
        send_due(now);
      }
      if (active_.empty() || (cancelling_ && in_flight() == 0)) break;
      wait_for_work(now);
      drain(out);
      progress(out, false);
    }
    drain(out);
    progress(out, true);
    out.interrupted = out.interrupted || cancelling_;
  }

 private:
  size_t in_flight() const {
    return static_cast<size_t>(std::count_if(
        active_.begin(), active_.end(), [](const auto& kv) { return kv.second.request_id != 0; }));
  }

  void start_sessions(int64_t now) {
    const size_t limit = static_cast<size_t>(std::max(1, phase_.base.concurrency));
    while (active_.size() < limit && next_script_ < phase_.scripts.size()) {
      ActiveSession s;
      s.script = next_script_++;
      if (!phase_.scripts[s.script].system_prompt.empty())
        s.history.push_back({"system", phase_.scripts[s.script].system_prompt});
      s.due_ns = now;
      active_.emplace(s.script, std::move(s));
    }
  }

  void send_due(int64_t now) {
    for (auto& [key, s] : active_)
      if (s.request_id == 0 && s.due_ns <= now) submit(s);
  }

  void submit(ActiveSession& s) {
    s.history.push_back({"user", phase_.scripts[s.script].user_turns[s.turn]});
    net::HttpRequest req = phase_.base.lane->make_request(phase_.base.url);
    req.headers.emplace_back("Content-Type", "application/json");
    for (const auto& h : phase_.base.extra_headers) req.headers.push_back(h);
    req.body = chat_request_body(s.history, phase_.options);
    req.dialect = phase_.base.dialect;
    req.stream = true;
    req.timeouts = phase_.base.timeouts;
    req.max_stream_tokens = stream_token_cap(phase_.options.max_tokens);
    metrics::RequestRecord meta;
    meta.lane_id = phase_.base.lane->id;
    meta.experiment = phase_.base.experiment;
    meta.phase = phase_.base.phase;
    meta.index = next_index_++;
    meta.trial = phase_.base.trial;
    meta.t_sched_ns = s.due_ns;
    meta.session = static_cast<int64_t>(s.script);
    meta.turn = static_cast<int64_t>(s.turn);
    auto done = [inbox = inbox_, meta = std::move(meta)](net::StreamResult&& result) mutable {
      meta.result = std::move(result);
      {
        std::lock_guard lock(inbox->mutex);
        inbox->finished.push_back(std::move(meta));
      }
      inbox->cv.notify_one();
    };
    s.request_id = client_.submit(std::move(req), std::move(done));
    max_in_flight_ = std::max(max_in_flight_, static_cast<int>(in_flight()));
  }

  void cancel_in_flight() {
    cancelling_ = true;
    for (auto& [key, s] : active_)
      if (s.request_id != 0) client_.cancel(s.request_id);
    for (auto it = active_.begin(); it != active_.end();)
      it = it->second.request_id == 0 ? active_.erase(it) : std::next(it);
  }

  void wait_for_work(int64_t now) {
    int64_t wake_ns = now + kStopPollNs;
    if (!cancelling_)
      for (const auto& [key, s] : active_)
        if (s.request_id == 0) wake_ns = std::min(wake_ns, s.due_ns);
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
      auto it = active_.find(static_cast<size_t>(record.session));
      if (record.result.error == net::ErrorKind::Cancelled) {
        ++out.cancelled;
        if (it != active_.end()) active_.erase(it);
        continue;
      }
      on_record_(record);
      ++done_;
      const bool failed = record.result.error != net::ErrorKind::None;
      if (failed) ++out.errors;
      if (it != active_.end()) advance(it, record, failed);
      out.records.push_back(std::move(record));
    }
    out.max_in_flight = std::max(out.max_in_flight, max_in_flight_);
  }

  // The answer joins the history; the session ends after its last turn or a failed one.
  void advance(std::map<size_t, ActiveSession>::iterator it, const metrics::RequestRecord& record,
               bool failed) {
    ActiveSession& s = it->second;
    s.request_id = 0;
    s.history.push_back({"assistant", record.result.content});
    ++s.turn;
    if (failed || s.turn >= phase_.scripts[s.script].user_turns.size() || cancelling_) {
      active_.erase(it);
      return;
    }
    s.due_ns = steady_now_ns() + phase_.think_time_ns;
  }

  void progress(const PhaseOutcome& out, bool final) {
    const int64_t now = steady_now_ns();
    if (!final && now - last_progress_ns_ < kProgressEveryNs) return;
    last_progress_ns_ = now;
    RunProgress p;
    p.lane_id = phase_.base.lane->id;
    p.experiment = phase_.base.experiment;
    p.phase = phase_.base.phase;
    p.done = done_;
    p.total = total_turns_;
    p.errors = out.errors;
    const double elapsed_s = static_cast<double>(now - start_ns_) / 1e9;
    if (p.done > 0 && elapsed_s > 0)
      p.eta_s = elapsed_s / static_cast<double>(p.done) * static_cast<double>(p.total - p.done);
    sink_.on_progress(p);
  }

  net::StreamClient& client_;
  RunSink& sink_;
  const std::atomic<bool>& stop_;
  const SessionPhase& phase_;
  const LoadDriver::RecordHandler& on_record_;

  std::map<size_t, ActiveSession> active_;  // by script index
  size_t next_script_ = 0;
  int64_t next_index_ = 0;
  int64_t done_ = 0;
  int64_t total_turns_ = 0;
  int64_t start_ns_ = 0;
  int64_t last_progress_ns_ = 0;
  int max_in_flight_ = 0;
  bool cancelling_ = false;
  std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();
};

}  // namespace

PhaseOutcome SessionDriver::run(const SessionPhase& phase,
                                const LoadDriver::RecordHandler& on_record) {
  PhaseOutcome out;
  if (stop_.load()) {
    out.interrupted = true;
    return out;
  }
  SessionRun session_run(client_, sink_, stop_, phase, on_record);
  session_run.run(out);
  for (const auto& r : out.records) {
    if (r.result.t_sent_ns > 0 &&
        (out.first_send_ns == 0 || r.result.t_sent_ns < out.first_send_ns))
      out.first_send_ns = r.result.t_sent_ns;
    out.last_done_ns = std::max(out.last_done_ns, r.result.t_done_ns);
  }
  return out;
}

}  // namespace lb::run
