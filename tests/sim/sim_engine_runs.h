#pragma once
// Workloads run on the engine model in virtual time: a closed loop of clients and a burst of
// requests sharing a prefix. The calibration test measures the field reports' figures with
// them; the server tests compare what a lane delivers over HTTP with what the model decides.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/engine_model.h"
#include "sim/sim_clock.h"

namespace lb::sim::test {

struct RequestTiming {
  double submit_s = 0, first_s = 0, last_s = 0;
  int64_t tokens = 0, cached = 0;
  double ttft_s() const { return first_s - submit_s; }
  double e2e_s() const { return last_s - submit_s; }
  // Tokens after the first over the time they took (1/TPOT); 0 for a single-token request.
  double decode_tok_s() const {
    return tokens > 1 ? static_cast<double>(tokens - 1) / (last_s - first_s) : 0.0;
  }
};

// `tokens` prompt tokens: the first `shared_prefix` are the same for every salt, the rest are
// unique to the salt.
inline std::shared_ptr<const std::vector<TokenId>> engine_prompt(int64_t tokens, uint64_t salt,
                                                                 int64_t shared_prefix = 0) {
  auto p = std::make_shared<std::vector<TokenId>>(static_cast<size_t>(tokens));
  for (int64_t i = 0; i < tokens; ++i) {
    (*p)[static_cast<size_t>(i)] =
        i < shared_prefix ? i + 1 : static_cast<TokenId>(salt * 1'000'003 + i + 7);
  }
  return p;
}

inline double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Submits one request and records its timing into `done` when its last token is out; `then`
// runs after that (the closed loop sends its next request from there).
inline void submit_timed(VirtualClock& clock, EngineModel& engine, SeqSpec spec,
                         std::vector<RequestTiming>& done, std::function<void()> then = {}) {
  auto t = std::make_shared<RequestTiming>();
  t->submit_s = clock.now_s();
  engine.submit(std::move(spec), [&clock, &done, t, then](const StepOutput& s) {
    if (s.first) t->first_s = clock.now_s(), t->cached = s.cached_tokens;
    t->tokens += s.tokens;
    if (!s.last) return;
    t->last_s = clock.now_s();
    done.push_back(*t);
    if (then) then();
  });
}

// Closed loop: `concurrency` clients each send their next request when the previous finishes,
// until `requests` have been sent. Every prompt is unique (no prefix reuse).
class ClosedLoop {
 public:
  ClosedLoop(const Profile& p, int64_t prompt_tokens, int64_t output_tokens, int64_t requests)
      : engine_(p, clock_),
        prompt_tokens_(prompt_tokens),
        output_tokens_(output_tokens),
        remaining_(requests) {}

  // Runs the loop to the end; returns its duration in model seconds.
  double run(int concurrency) {
    for (int i = 0; i < concurrency; ++i) send();
    clock_.run();
    return clock_.now_s();
  }
  const std::vector<RequestTiming>& done() const { return done_; }
  double aggregate_tok_s(double duration_s) const {
    return static_cast<double>(static_cast<int64_t>(done_.size()) * output_tokens_) / duration_s;
  }

 private:
  void send() {
    if (remaining_-- <= 0) return;
    const uint64_t salt = salt_++;
    submit_timed(clock_, engine_,
                 SeqSpec{engine_prompt(prompt_tokens_, salt), output_tokens_, salt}, done_,
                 [this] { send(); });
  }

  VirtualClock clock_;
  EngineModel engine_;
  int64_t prompt_tokens_, output_tokens_, remaining_;
  uint64_t salt_ = 1;
  std::vector<RequestTiming> done_;
};

struct BurstResult {
  std::vector<RequestTiming> requests;
  double duration_s = 0;  // from the burst's start to its last token
  int64_t output_tokens() const {
    int64_t n = 0;
    for (const auto& r : requests) n += r.tokens;
    return n;
  }
};

// `n` simultaneous requests of `shared_prefix + suffix` prompt tokens that share the prefix,
// each with its own suffix. The same `salt_base` on the same engine repeats the identical burst.
inline BurstResult run_burst(VirtualClock& clock, EngineModel& engine, int n, int64_t shared_prefix,
                             int64_t suffix, int64_t output_tokens, uint64_t salt_base) {
  BurstResult result;
  const double t0 = clock.now_s();
  for (int i = 0; i < n; ++i) {
    const uint64_t salt = salt_base + static_cast<uint64_t>(i);
    submit_timed(
        clock, engine,
        SeqSpec{engine_prompt(shared_prefix + suffix, salt, shared_prefix), output_tokens, salt},
        result.requests);
  }
  clock.run();
  result.duration_s = clock.now_s() - t0;
  return result;
}

}  // namespace lb::sim::test
