#include "soak_run.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <random>

#include <nlohmann/json.hpp>

#include "core/net/stream_client.h"
#include "sim/server.h"

namespace lb::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The outcome each injected fault must give the client.
std::string expected_outcome(const std::string& fault) {
  if (fault == "500") return net::to_string(net::ErrorKind::HttpStatus);
  if (fault == "429") return net::to_string(net::ErrorKind::RateLimited);
  if (fault == "drop") return net::to_string(net::ErrorKind::Truncated);
  if (fault == "stall") return net::to_string(net::ErrorKind::IdleTimeout);
  return "ok";
}

struct Finished {
  std::string request_id;
  std::string fault;
  net::StreamResult result;
};

struct Inbox {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Finished> finished;
};

struct PendingMatch {
  Finished done;
  Clock::time_point since;
};

// Every stream of the soak at once: the bench checks the descriptor limit for them itself.
net::ClientOptions soak_client_options(const SoakConfig& config) {
  net::ClientOptions options;
  options.max_transfers = static_cast<size_t>(config.streams) + 64;
  return options;
}

class SoakLoop {
 public:
  SoakLoop(const SoakConfig& config, const std::string& base_url, ArrivalLag& lag)
      : config_(config),
        url_(base_url + "/chat/completions"),
        lag_(lag),
        rng_(config.seed),
        client_(soak_client_options(config)) {}

  SoakResult run() {
    t0_ = Clock::now();
    double next_sample_s = 0;
    while (true) {
      const double t = seconds_since(t0_);
      if (t >= next_sample_s) {
        take_sample(t);
        next_sample_s += config_.sample_every_s;
      }
      const bool ending = t >= config_.duration_s;
      while (!ending && in_flight_ < config_.streams) submit_one();
      if (ending && in_flight_ == 0 && pending_.empty()) break;
      wait_and_drain();
      match_pending();
    }
    result_.elapsed_s = seconds_since(t0_);
    take_sample(result_.elapsed_s);
    result_.events_per_s = static_cast<double>(events_) / result_.elapsed_s;
    return std::move(result_);
  }

 private:
  std::string pick_fault() {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng_);
    const char* kinds[] = {"500", "drop", "429", "stall"};
    for (int i = 0; i < 4; ++i)
      if (u < config_.fault_rate * (i + 1)) return kinds[i];
    return "none";
  }

  std::string prompt(int64_t n) const {
    std::string text = "Soak request " + std::to_string(n) + ":";
    for (int i = 0; i < config_.input_words; ++i) text += " word" + std::to_string((n + i) % 97);
    return text;
  }

  void submit_one() {
    const int64_t n = result_.submitted++;
    const std::string id = "soak-" + std::to_string(n);
    const std::string fault = pick_fault();
    const nlohmann::json body = {{"messages", {{{"role", "user"}, {"content", prompt(n)}}}},
                                 {"stream", true},
                                 {"max_tokens", config_.output_tokens},
                                 {"ignore_eos", true},
                                 {"stream_options", {{"include_usage", true}}}};
    net::HttpRequest req;
    req.url = url_;
    req.method = "POST";
    req.http_version = net::HttpVersion::Http1_1;
    req.headers = {{"Content-Type", "application/json"}, {"x-request-id", id}};
    if (fault != "none") req.headers.emplace_back("x-sim-fault", fault);
    req.body = std::make_shared<const std::string>(body.dump());
    req.dialect = net::Dialect::OpenAiChat;
    req.stream = true;
    req.timeouts.first_byte_ms = 30'000;
    req.timeouts.idle_ms = config_.idle_timeout_ms;
    if (fault == "none") lag_.watch(id);
    ++in_flight_;
    client_.submit(std::move(req), [inbox = inbox_, id, fault](net::StreamResult&& r) {
      {
        std::lock_guard lock(inbox->mutex);
        inbox->finished.push_back({id, fault, std::move(r)});
      }
      inbox->cv.notify_one();
    });
  }

  void wait_and_drain() {
    std::deque<Finished> batch;
    {
      std::unique_lock lock(inbox_->mutex);
      inbox_->cv.wait_for(lock, std::chrono::milliseconds(50),
                          [this] { return !inbox_->finished.empty(); });
      batch.swap(inbox_->finished);
    }
    for (auto& f : batch) account(std::move(f));
  }

  void account(Finished f) {
    --in_flight_;
    ++result_.finished;
    const bool ok = f.result.error == net::ErrorKind::None;
    const std::string outcome = ok ? "ok" : net::to_string(f.result.error);
    ++result_.outcomes[f.fault][outcome];
    if (outcome != expected_outcome(f.fault)) ++result_.unexpected;
    if (ok) events_ += static_cast<int64_t>(f.result.events.size());
    if (ok && f.fault == "none") {
      pending_.push_back({std::move(f), Clock::now()});
    } else {
      lag_.forget(f.request_id);
    }
  }

  // The simulator stamps an event after its send returns, so the trace may trail the client.
  void match_pending() {
    const auto now = Clock::now();
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (lag_.try_match(it->done.request_id, it->done.result.events)) {
        it = pending_.erase(it);
      } else if (now - it->since > std::chrono::seconds(2)) {
        lag_.forget(it->done.request_id);
        ++result_.unmatched_trace;
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void take_sample(double t) {
    result_.samples.push_back(sample_process(t));
    if (!config_.progress) return;
    const auto& s = result_.samples.back();
    std::fprintf(stderr,
                 "t=%6.0fs  finished %lld  in flight %d  watched %zu  rss %.1f MB  fds %lld\n", t,
                 static_cast<long long>(result_.finished), in_flight_, lag_.watched(), s.rss_mb,
                 static_cast<long long>(s.open_fds));
  }

  const SoakConfig& config_;
  const std::string url_;
  ArrivalLag& lag_;
  std::mt19937_64 rng_;
  net::StreamClient client_;
  std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();
  std::deque<PendingMatch> pending_;
  Clock::time_point t0_;
  int in_flight_ = 0;
  int64_t events_ = 0;
  SoakResult result_;
};

}  // namespace

SoakResult run_soak(const SoakConfig& config) {
  auto parsed = sim::parse_lane_spec("fp8");
  sim::SimConfig sim_config = std::get<sim::SimConfig>(parsed);
  sim_config.time_scale = config.time_scale;
  // Every stream is admitted at once and decodes at the single-stream rate, so the load is the
  // same from the first second to the last.
  sim_config.profile.max_num_seqs = config.streams * 2;
  sim_config.profile.batch_slowdown = 0;
  sim_config.profile.decode_tok_s = config.decode_tok_s;
  sim_config.profile.prefill_tok_s = 200'000;  // prefill must not become the bottleneck
  // Every prompt is new, so a prefix cache would only fill towards its capacity (~1 KB a
  // request): growth by design that would hide a leak of the same size.
  sim_config.profile.prefix_caching = false;
  sim_config.profile.prefill_interference = 0;
  sim_config.faults.stall_ms =
      10.0 * static_cast<double>(config.idle_timeout_ms) / config.time_scale;
  ArrivalLag lag;
  sim_config.trace_sink = [&lag](const sim::TraceRecord& r) { lag.on_trace(r); };
  sim::Server server(std::move(sim_config));
  server.start(0);
  SoakResult result;
  {
    SoakLoop loop(config, server.base_url(), lag);
    result = loop.run();
  }
  result.requests_per_s = static_cast<double>(result.finished) / result.elapsed_s;
  result.lag = lag.figures();
  result.rss_mb = flatness(result.samples, config.warmup_s, config.duration_s, rss_of);
  result.open_fds = flatness(result.samples, config.warmup_s, config.duration_s, fds_of);
  return result;
}

}  // namespace lb::bench
