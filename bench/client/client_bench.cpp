#include "client_bench.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>

#include "core/logprobs/raw_logprobs.h"
#include "core/net/stream_client.h"
#include "replay_server.h"

namespace lb::bench {

namespace {

using lb::net::ErrorKind;
using lb::net::HttpRequest;
using lb::net::StreamClient;
using lb::net::StreamResult;

// A vLLM-shaped content chunk (~190 bytes on the wire).
std::string content_event(int i) {
  return "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,"
         "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok" +
         std::to_string(i % 1000) + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
}

// The same chunk with vLLM's logprobs for its token and `top_k` alternatives (~190 + 60 * (K+1)
// bytes): what a regression asking for logprobs receives.
std::string logprob_event(int i, int top_k) {
  const std::string token = " tok" + std::to_string(i % 1000);
  const auto entry = [](const std::string& t, double lp) {
    std::string bytes;
    for (unsigned char c : t) bytes += (bytes.empty() ? "" : ",") + std::to_string(c);
    return "{\"token\":\"" + t + "\",\"logprob\":" + std::to_string(lp) + ",\"bytes\":[" + bytes +
           "]";
  };
  std::string top;
  for (int k = 0; k < top_k; ++k)
    top += (k ? "," : "") + entry(k ? " alt" + std::to_string(k) : token, -0.01 - 1.3 * k) + "}";
  return "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1,"
         "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" +
         token + "\"},\"logprobs\":{\"content\":[" + entry(token, -0.01) + ",\"top_logprobs\":[" +
         top + "]}]},\"finish_reason\":null}]}\n\n";
}

// The plain chunk behind an SSE comment that makes it as long as the logprob chunk.
std::string padded_event(int i, int top_k) {
  const std::string plain = content_event(i);
  const size_t target = logprob_event(i, top_k).size();
  const size_t pad = target > plain.size() + 3 ? target - plain.size() - 3 : 0;
  return ": " + std::string(pad, 'x') + "\n" + plain;
}

// One fidelity event as the config asks for it.
std::string fidelity_event(const FidelityConfig& config, int i) {
  if (config.top_logprobs <= 0) return content_event(i);
  return config.logprobs_as_comment ? padded_event(i, config.top_logprobs)
                                    : logprob_event(i, config.top_logprobs);
}

int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
}

HttpRequest bench_request(const std::string& url, int stream) {
  HttpRequest r;
  r.url = url;
  r.headers.emplace_back("X-Bench-Stream", std::to_string(stream));
  r.body = std::make_shared<const std::string>(R"({"model":"m","stream":true})");
  r.http_version = lb::net::HttpVersion::Http1_1;
  r.timeouts.idle_ms = 30'000;
  r.timeouts.first_byte_ms = 60'000;
  return r;
}

// Runs `count` requests at once and waits for all. The completion and the observer run on the
// client's I/O thread; the observer tracks that thread's CPU time between first and last event.
struct RunAll {
  std::vector<StreamResult> results;
  int64_t io_cpu_ns = 0;
  double seconds = 0;
};

RunAll run_all(StreamClient& client, const std::string& url, int count) {
  RunAll out;
  out.results.resize(count);
  std::mutex mutex;
  std::promise<void> all_done;
  std::atomic<int> remaining{count};
  std::atomic<int64_t> cpu_first{0}, cpu_last{0};
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    client.submit(
        bench_request(url, i),
        [&, i](StreamResult&& r) {
          {
            std::lock_guard lock(mutex);
            out.results[i] = std::move(r);
          }
          cpu_last = thread_cpu_ns();
          if (--remaining == 0) all_done.set_value();
        },
        [&](uint64_t, const lb::net::EventArrival&) {
          if (cpu_first.load(std::memory_order_relaxed) == 0) cpu_first = thread_cpu_ns();
        });
  }
  all_done.get_future().wait();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.io_cpu_ns = cpu_last - cpu_first;
  return out;
}

}  // namespace

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(rank);
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (rank - static_cast<double>(lo));
}

FidelityResult run_fidelity(const FidelityConfig& config) {
  std::vector<std::string> events;
  for (int i = 0; i < config.events_per_stream; ++i) events.push_back(fidelity_event(config, i));
  events.push_back("data: [DONE]\n\n");
  // Every stream's script is built (and its memory written) before the run, so the server's
  // thread hands one over instead of copying all its events while the other streams run.
  std::mt19937_64 rng(42);
  std::vector<lb::test::ResponseScript> scripts(config.concurrency);
  for (auto& script : scripts) {
    script = lb::test::sse_script(events, config.event_interval_us);
    // Streams start at random phases, as requests admitted at different times do.
    script.header_delay_us = static_cast<int64_t>(rng() % config.event_interval_us);
  }
  std::mutex scripts_mutex;
  lb::test::ReplayServer server([&](const lb::test::ServedRequest& request) {
    std::lock_guard lock(scripts_mutex);
    const size_t i = std::stoul(request.header("x-bench-stream"));
    return std::move(scripts.at(i));
  });
  // As an experiment that asks for logprobs does (core/run/experiments/experiment_context.cpp).
  if (config.top_logprobs > 0 && !config.logprobs_as_comment) {
    lb::logprobs::reserve_raw_blocks(events.front().size() * events.size() *
                                     static_cast<size_t>(config.concurrency));
  }
  StreamClient client;
  RunAll run = run_all(client, server.url("/v1/chat/completions"), config.concurrency);
  server.wait_for_finished(config.concurrency, std::chrono::seconds(10));

  std::unordered_map<std::string, lb::test::ServedRequest> by_stream;
  for (auto& s : server.served()) by_stream.emplace(s.header("x-bench-stream"), std::move(s));
  FidelityResult out;
  out.concurrency = config.concurrency;
  std::vector<double> errors_ms, sent_ms;
  for (size_t i = 0; i < run.results.size(); ++i) {
    const StreamResult& r = run.results[i];
    const auto it = by_stream.find(std::to_string(i));
    if (r.error != ErrorKind::None || it == by_stream.end()) {
      ++out.failed_requests;
      continue;
    }
    const auto& served = it->second;
    sent_ms.push_back((served.received_ns - r.t_sent_ns) / 1e6);
    for (size_t e = 0; e < r.events.size() && e < served.sent.size(); ++e) {
      errors_ms.push_back((r.events[e].arrival_ns - served.sent[e].sent_ns) / 1e6);
    }
  }
  out.events = static_cast<int64_t>(errors_ms.size());
  out.p50_error_ms = percentile(errors_ms, 50);
  out.p99_error_ms = percentile(errors_ms, 99);
  out.max_error_ms = percentile(errors_ms, 100);
  out.p99_t_sent_to_server_ms = percentile(sent_ms, 99);
  out.cpu_us_per_event = out.events ? run.io_cpu_ns / 1e3 / static_cast<double>(out.events) : 0;
  out.errors_ms = std::move(errors_ms);
  return out;
}

ThroughputResult run_throughput(const ThroughputConfig& config) {
  std::vector<std::string> writes;
  int n = 0;
  for (int w = 0; w < config.writes_per_stream; ++w) {
    std::string batch;
    for (int e = 0; e < config.events_per_write; ++e) batch += content_event(n++);
    writes.push_back(std::move(batch));
  }
  writes.push_back("data: [DONE]\n\n");
  lb::test::ServerOptions options;
  options.record_sends = false;
  lb::test::ReplayServer server(
      [&](const lb::test::ServedRequest&) { return lb::test::sse_script(writes, 0); }, options);
  StreamClient client;
  RunAll run = run_all(client, server.url("/v1/chat/completions"), config.concurrency);
  ThroughputResult out;
  out.concurrency = config.concurrency;
  for (const auto& r : run.results) {
    if (r.error != ErrorKind::None) {
      ++out.failed_requests;
      continue;
    }
    out.events += static_cast<int64_t>(r.events.size());
  }
  out.seconds = run.seconds;
  out.events_per_s = static_cast<double>(out.events) / run.seconds;
  out.cpu_us_per_event = out.events ? run.io_cpu_ns / 1e3 / static_cast<double>(out.events) : 0;
  return out;
}

}  // namespace lb::bench
