// Short real-time runs over HTTP deliver what the engine model decides for the same workload in
// virtual time (sim_engine_runs.h): each lane's c1 decode rate within 10 %, and the cold/warm
// TTFT ratio of a 30,000-token shared prefix, and the cold burst's reuse among its own requests.
// Decode runs at time scale 1; the prefix burst at half scale (only its ratio is asserted), and
// the time scale itself is checked to keep ratios.
// The model's figures against the field reports are sim_calibration_test's.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <thread>

#include "sim/profile.h"
#include "sim/tokenizer.h"
#include "sim_engine_runs.h"
#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

struct Timing {
  double ttft_s = 0;
  double decode_tok_s = 0;
};

// Client-side TTFT and decode rate of one streamed request (usage gives the token count).
Timing timed_request(uint16_t port, const std::string& body) {
  const HttpResult r = http_request(port, "POST", "/v1/chat/completions", body);
  Timing t;
  int64_t first_ns = 0, last_ns = 0, tokens = 0;
  for (const auto& [ns, data] : r.chunks) {
    const auto j = json::parse(data.substr(6), nullptr, false);
    if (j.is_discarded() || j["choices"].empty()) {
      if (!j.is_discarded() && j.contains("usage")) tokens = j["usage"]["completion_tokens"];
      continue;
    }
    const auto& delta = j["choices"][0]["delta"];
    if (!delta.contains("content") || delta["content"].get<std::string>().empty()) continue;
    if (first_ns == 0) first_ns = ns;
    last_ns = ns;
  }
  t.ttft_s = static_cast<double>(first_ns - r.sent_ns) / 1e9;
  t.decode_tok_s =
      static_cast<double>(tokens - 1) / (static_cast<double>(last_ns - first_ns) / 1e9);
  return t;
}

double timing_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string stream_body(const std::string& user, int max_tokens) {
  return chat_body(user, {{"stream", true},
                          {"max_tokens", max_tokens},
                          {"stream_options", {{"include_usage", true}}}});
}

// About `tokens` tokens of shared text (tokenizer-counted).
std::string shared_prefix(int64_t tokens) {
  static const char* words[] = {" agent",  " tool",  " state", " project",
                                " system", " skill", " file"};
  std::string out = "Context:";
  for (size_t i = 0; SimTokenizer::count(out) < tokens; ++i) out += words[i % 7];
  return out;
}

// Median TTFT of a burst of 5 concurrent requests sharing a prefix.
double burst_ttft(uint16_t port, const std::string& prefix) {
  std::vector<double> ttfts(5);
  std::vector<std::thread> threads;
  for (int i = 0; i < 5; ++i) {
    threads.emplace_back([&, i] {
      const std::string user = prefix + "\nRequest " + std::to_string(i) + ": summarise.";
      ttfts[static_cast<size_t>(i)] = timed_request(port, stream_body(user, 4)).ttft_s;
    });
  }
  for (auto& t : threads) t.join();
  return timing_median(ttfts);
}

// The usage's cached_tokens of each of a burst of 5 concurrent requests sharing a prefix.
std::vector<int64_t> burst_cached_tokens(uint16_t port, const std::string& prefix) {
  std::vector<int64_t> cached(5, -1);
  std::vector<std::thread> threads;
  for (int i = 0; i < 5; ++i) {
    threads.emplace_back([&, i] {
      const std::string user = prefix + "\nRequest " + std::to_string(i) + ": summarise.";
      const HttpResult r = http_request(port, "POST", "/v1/chat/completions", stream_body(user, 2));
      for (const auto& [ns, data] : r.chunks) {
        const auto j = json::parse(data.substr(6), nullptr, false);
        if (!j.is_discarded() && j.contains("usage") && j["usage"].is_object())
          cached[static_cast<size_t>(i)] =
              j["usage"]["prompt_tokens_details"].value("cached_tokens", int64_t(-1));
      }
    });
  }
  for (auto& t : threads) t.join();
  return cached;
}

// The model's median c1 decode rate for `output_tokens`-token answers to a short prompt (the
// chat-templated one-line prompts below are about 16 tokens; decode barely depends on it).
double model_decode_tok_s(const char* lane, int64_t output_tokens) {
  ClosedLoop loop(*builtin_profile(lane), 16, output_tokens, 2);
  loop.run(1);
  std::vector<double> rates;
  for (const auto& t : loop.done()) rates.push_back(t.decode_tok_s());
  return median_of(rates);
}

// The model's cold/warm median TTFT ratio of the 5-request shared-prefix burst.
double model_prefix_ratio(int64_t prefix_tokens, int64_t output_tokens) {
  VirtualClock clock;
  EngineModel engine(*builtin_profile("fp8"), clock);
  auto median_ttft = [&] {
    const BurstResult burst = run_burst(clock, engine, 5, prefix_tokens, 16, output_tokens, 100);
    std::vector<double> ttfts;
    for (const auto& t : burst.requests) ttfts.push_back(t.ttft_s());
    return median_of(ttfts);
  };
  const double cold = median_ttft();
  return cold / median_ttft();
}

void expect_ratio(double got, double want, const char* what, double tolerance = 0.10) {
  const double err = std::abs(got / want - 1.0);
  QVERIFY2(err <= tolerance, qPrintable(QString("%1: %2, model %3 (%4% off)")
                                            .arg(what)
                                            .arg(got)
                                            .arg(want)
                                            .arg(err * 100, 0, 'f', 1)));
}

}  // namespace

class SimServerTimingTest : public QObject {
  Q_OBJECT
 private slots:
  void decode_ratios_at_time_scale_1() {
    auto bf16 = start_server("bf16");
    auto fp8 = start_server("fp8");
    auto mtp = start_server("fp8-mtp3");
    std::vector<double> b, f, m;
    for (int i = 0; i < 2; ++i) {
      const std::string user = "Explain request " + std::to_string(i);
      b.push_back(timed_request(bf16->port(), stream_body(user, 12)).decode_tok_s);
      f.push_back(timed_request(fp8->port(), stream_body(user, 12)).decode_tok_s);
      m.push_back(timed_request(mtp->port(), stream_body(user, 40)).decode_tok_s);
    }
    const double bf16_rate = timing_median(b), fp8_rate = timing_median(f),
                 mtp_rate = timing_median(m);
    qInfo("c1 decode tok/s: bf16 %.1f fp8 %.1f fp8-mtp3 %.1f", bf16_rate, fp8_rate, mtp_rate);
    expect_ratio(bf16_rate, model_decode_tok_s("bf16", 12), "bf16 decode");
    expect_ratio(fp8_rate, model_decode_tok_s("fp8", 12), "fp8 decode");
    expect_ratio(mtp_rate, model_decode_tok_s("fp8-mtp3", 40), "fp8-mtp3 decode");
  }

  void warm_prefix_ttft_ratio() {
    // Over HTTP the five requests reach the scheduler a few ms apart and the cold median comes
    // out lower than in virtual time, where they arrive together (about 20.2 against 21.8 at any
    // time scale), so this end-to-end check allows 15 %. It measures real time, and a loaded
    // machine (a CI run beside a compile measured 25.6) can move one burst that far: a second
    // attempt on a fresh server and prefix must then land within it.
    const double want = model_prefix_ratio(30'000, 4);
    QStringList attempts;
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto fp8 = start_server("fp8?time_scale=0.5");
      const std::string prefix =
          "Attempt " + std::to_string(attempt) + ". " + shared_prefix(30'000);
      const double cold = burst_ttft(fp8->port(), prefix);
      const double warm = burst_ttft(fp8->port(), prefix);
      qInfo("prefix burst median TTFT (scale 0.5): cold %.3f s warm %.3f s", cold, warm);
      attempts << QString::number(cold / warm, 'f', 2);
      if (std::abs(cold / warm / want - 1.0) <= 0.15) return;
    }
    QFAIL(qPrintable(QString("cold/warm prefix TTFT %1, model %2 (more than 15% off twice)")
                         .arg(attempts.join(" and "))
                         .arg(want, 0, 'f', 2)));
  }

  // Over HTTP, as in the model, the later requests of a cold burst reuse the prefix the first
  // one computed, and say so in their usage; only the request that computed it has none cached.
  void cold_burst_reports_reuse_among_its_requests() {
    auto fp8 = start_server("fp8?time_scale=0.1");
    const std::vector<int64_t> cached = burst_cached_tokens(fp8->port(), shared_prefix(30'000));
    QString all;
    for (int64_t c : cached) all += QString::number(c) + " ";
    qInfo("cold burst cached_tokens: %s", qPrintable(all));
    QCOMPARE(std::count(cached.begin(), cached.end(), int64_t(0)), std::ptrdiff_t(1));
    for (int64_t c : cached) QVERIFY2(c == 0 || c >= 20'000, qPrintable(all));
  }

  void time_scale_keeps_ratios() {
    auto full = start_server("fp8");
    auto fast = start_server("fp8?time_scale=0.25");
    std::vector<double> ttft_ratio, decode_ratio;
    for (int i = 0; i < 3; ++i) {
      const std::string body = stream_body("Scale check " + std::to_string(i), 30);
      const Timing a = timed_request(full->port(), body);
      const Timing b = timed_request(fast->port(), body);
      ttft_ratio.push_back(b.ttft_s / a.ttft_s);
      decode_ratio.push_back(b.decode_tok_s / a.decode_tok_s);
    }
    expect_ratio(timing_median(ttft_ratio), 0.25, "TTFT at scale 0.25");
    expect_ratio(timing_median(decode_ratio), 4.0, "decode at scale 0.25");
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimServerTimingTest)
#include "sim_server_timing_test.moc"
