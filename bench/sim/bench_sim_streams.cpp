// lanebench-bench-sim: N concurrent streams against an in-process simulator lane; every event's
// send-time error = (steady_clock right after its write) - (the time the engine model scheduled
// it), from the simulator's own trace. The client is a minimal Beast reader on its own thread.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "sim/server.h"
#include "sim/sim_config.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

struct Options {
  int streams = 1000;
  int tokens = 100;
  double decode_tok_s = 20.0;
  int runs = 1;
  bool json = false;
};

struct RunResult {
  int64_t events = 0;
  int failed_streams = 0;
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
  double events_per_s = 0;
  double duration_s = 0;
};

void raise_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

// One streaming request; checks that the stream ended with [DONE] and all tokens.
class Stream : public std::enable_shared_from_this<Stream> {
 public:
  Stream(asio::io_context& io, uint16_t port, int index, int tokens, std::atomic<int>& done,
         std::atomic<int>& failed)
      : socket_(io), port_(port), index_(index), tokens_(tokens), done_(done), failed_(failed) {}

  void start() {
    tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), port_);
    socket_.async_connect(ep, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->finish(false);
      self->send();
    });
  }

 private:
  void send() {
    const nlohmann::json body = {
        {"messages", {{{"role", "user"}, {"content", "Stream " + std::to_string(index_)}}}},
        {"stream", true},
        {"max_tokens", tokens_},
        {"stream_options", {{"include_usage", true}}}};
    req_ = {http::verb::post, "/v1/chat/completions", 11};
    req_.set(http::field::host, "127.0.0.1");
    req_.set(http::field::content_type, "application/json");
    req_.set("x-request-id", "bench-" + std::to_string(index_));
    req_.body() = body.dump();
    req_.prepare_payload();
    http::async_write(socket_, req_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->finish(false);
      self->parser_.body_limit(64 * 1024 * 1024);
      http::async_read(self->socket_, self->buffer_, self->parser_,
                       [self](beast::error_code ec2, size_t) { self->on_read(ec2); });
    });
  }

  void on_read(beast::error_code ec) {
    const std::string& body = parser_.get().body();
    const std::string want = "\"completion_tokens\":" + std::to_string(tokens_);
    finish(!ec && body.find(want) != std::string::npos && body.size() >= 14 &&
           body.compare(body.size() - 14, 14, "data: [DONE]\n\n") == 0);
  }

  void finish(bool ok) {
    if (!ok) ++failed_;
    ++done_;
    beast::error_code ignored;
    socket_.close(ignored);
  }

  tcp::socket socket_;
  uint16_t port_;
  int index_;
  int tokens_;
  std::atomic<int>& done_;
  std::atomic<int>& failed_;
  http::request<http::string_body> req_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
};

double percentile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

RunResult run_once(const Options& o) {
  const std::string spec =
      "fp8?max_num_seqs=" + std::to_string(o.streams + 8) +
      "&batch_slowdown=0&prefill_interference=0&decode_tok_s=" + std::to_string(o.decode_tok_s);
  auto parsed = lb::sim::parse_lane_spec(spec);
  lb::sim::SimConfig config = std::get<lb::sim::SimConfig>(parsed);
  std::vector<std::pair<int64_t, int64_t>> stamps;  // sched, sent; I/O thread only until stop
  stamps.reserve(static_cast<size_t>(o.streams) * static_cast<size_t>(o.tokens + 4));
  config.trace_sink = [&stamps](const lb::sim::TraceRecord& r) {
    stamps.emplace_back(r.sched_ns, r.sent_ns);
  };
  lb::sim::Server server(config);
  const uint16_t port = server.start(0);

  asio::io_context io;
  std::atomic<int> done{0}, failed{0};
  for (int i = 0; i < o.streams; ++i) {
    std::make_shared<Stream>(io, port, i, o.tokens, done, failed)->start();
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::thread client([&io] { io.run(); });
  client.join();
  const double duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  server.stop();

  RunResult r;
  std::vector<double> errors_ms;
  errors_ms.reserve(stamps.size());
  for (const auto& [sched, sent] : stamps)
    errors_ms.push_back(static_cast<double>(sent - sched) / 1e6);
  r.events = static_cast<int64_t>(errors_ms.size());
  r.failed_streams = failed.load();
  r.p50_ms = percentile(errors_ms, 0.50);
  r.p99_ms = percentile(errors_ms, 0.99);
  r.max_ms = errors_ms.empty() ? 0 : errors_ms.back();
  r.duration_s = duration_s;
  r.events_per_s = static_cast<double>(r.events) / duration_s;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"lanebench-bench-sim: simulator send-time error with many concurrent streams"};
  app.add_option("--streams", o.streams, "concurrent streams")->check(CLI::Range(1, 8000));
  app.add_option("--tokens", o.tokens, "tokens per stream (one event each)")
      ->check(CLI::Range(2, 100000));
  app.add_option("--decode-tok-s", o.decode_tok_s, "per-stream decode rate")
      ->check(CLI::PositiveNumber);
  app.add_option("--runs", o.runs, "runs; the table shows each")->check(CLI::Range(1, 100));
  app.add_flag("--json", o.json, "one JSON object per run");
  CLI11_PARSE(app, argc, argv);
  raise_fd_limit();
  if (!o.json) {
    std::printf(
        "| streams | events | failed | events/s | p50 error ms | p99 error ms | max ms |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  int status = 0;
  for (int run = 0; run < o.runs; ++run) {
    const RunResult r = run_once(o);
    if (r.failed_streams > 0 || r.p99_ms >= 0.5) status = 1;
    if (o.json) {
      std::printf(
          "{\"streams\":%d,\"events\":%lld,\"failed\":%d,\"events_per_s\":%.0f,"
          "\"p50_ms\":%.4f,\"p99_ms\":%.4f,\"max_ms\":%.4f,\"duration_s\":%.2f}\n",
          o.streams, static_cast<long long>(r.events), r.failed_streams, r.events_per_s, r.p50_ms,
          r.p99_ms, r.max_ms, r.duration_s);
    } else {
      std::printf("| %d | %lld | %d | %.0f | %.3f | %.3f | %.3f |\n", o.streams,
                  static_cast<long long>(r.events), r.failed_streams, r.events_per_s, r.p50_ms,
                  r.p99_ms, r.max_ms);
    }
    std::fflush(stdout);
  }
  return status;
}
