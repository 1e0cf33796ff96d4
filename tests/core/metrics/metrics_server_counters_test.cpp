// Server counters from the wire fixtures' /metrics bytes, and before/after deltas. The "before"
// snapshots are the fixture with some counters lowered; expected deltas are worked out below.
#include <QtTest>

#include "test_main.h"

#include <cmath>

#include "core/metrics/server_counters.h"
#include "fixture_text.h"

using namespace lb::metrics;

namespace {
ServerCounters counters_of(const std::string& text) {
  return extract_server_counters(parse_prometheus_text(text));
}

void replace(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  QVERIFY2(at != std::string::npos, from.c_str());
  text.replace(at, from.size(), to);
}

bool counters_near(double a, double b) {
  return std::abs(a - b) < 1e-12 * std::max(1.0, std::abs(b));
}

// vLLM fixture with lower counters: queries 1.5e6, hits 1e6, drafts 100000, draft tokens
// 300000, accepted 200000, per position 86000 / 66000 / 48000, prompt tokens 1.8e6.
std::string vllm_before() {
  std::string t = read_wire_fixture("vllm_metrics.prom");
  replace(t, "engine=\"0\"} 1.853952e+06\nvllm:prefix_cache_queries_created",
          "engine=\"0\"} 1.5e+06\nvllm:prefix_cache_queries_created");
  replace(t, "} 1.216512e+06", "} 1000000");
  replace(t, "} 137450.0\n# HELP vllm:spec_decode_num_draft_tokens",
          "} 100000\n# HELP vllm:spec_decode_num_draft_tokens");
  replace(t, "} 412350.0", "} 300000");
  replace(t, "} 274887.0", "} 200000");
  replace(t, "position=\"0\"} 118203.0", "position=\"0\"} 86000");
  replace(t, "position=\"1\"} 91504.0", "position=\"1\"} 66000");
  replace(t, "position=\"2\"} 65180.0", "position=\"2\"} 48000");
  replace(t, "vllm:prompt_tokens_total{model_name=\"Qwen/Qwen3-8B\",engine=\"0\"} 1.853952e+06",
          "vllm:prompt_tokens_total{model_name=\"Qwen/Qwen3-8B\",engine=\"0\"} 1800000");
  replace(t, "le=\"0.04\"} 97.0", "le=\"0.04\"} 90.0");
  return t;
}
}  // namespace

class ServerCountersTest : public QObject {
  Q_OBJECT
 private slots:
  void vllm() {
    const ServerCounters c = counters_of(read_wire_fixture("vllm_metrics.prom"));
    QCOMPARE(c.kind, ServerKind::Vllm);
    QCOMPARE(*c.running, 12.0);
    QCOMPARE(*c.waiting, 3.0);
    QCOMPARE(*c.kv_cache_usage, 0.4137);
    QCOMPARE(*c.prompt_tokens, 1853952.0);
    QCOMPARE(*c.generation_tokens, 412337.0);
    QCOMPARE(*c.prefix_cache_queries, 1853952.0);
    QCOMPARE(*c.prefix_cache_hits, 1216512.0);
    QCOMPARE(*c.spec_num_drafts, 137450.0);
    QCOMPARE(*c.spec_num_draft_tokens, 412350.0);
    QCOMPARE(*c.spec_num_accepted_tokens, 274887.0);
    QCOMPARE(c.spec_accepted_per_position, (std::vector<double>{118203, 91504, 65180}));
    QCOMPARE(*c.num_gpu_blocks, int64_t(27354));
    QCOMPARE(*c.block_size, int64_t(16));
    QCOMPARE(*c.kv_capacity_tokens, int64_t(437664));
    QCOMPARE(c.cache_dtype, std::string("auto"));
    QCOMPARE(*c.prefix_caching_enabled, true);
    QCOMPARE(*kv_windows(c, 40960), 10.68515625);
    QVERIFY(!kv_windows(c, 0));
    QCOMPARE(c.ttft_s.buckets.size(), size_t(9));
    QCOMPARE(c.ttft_s.buckets[4].first, 0.04);
    QCOMPARE(c.ttft_s.buckets[4].second, 97.0);
    QVERIFY(std::isinf(c.ttft_s.buckets.back().first));
    QCOMPARE(*c.ttft_s.count, 140.0);
    QCOMPARE(*c.ttft_s.sum, 5.43);
    QCOMPARE(c.itl_s.buckets.size(), size_t(3));
    QCOMPARE(*c.e2el_s.count, 1013.0);
    QVERIFY(!c.prefix_cache_hit_rate_gauge);
  }
  void sglang() {
    const ServerCounters c = counters_of(read_wire_fixture("sglang_metrics.prom"));
    QCOMPARE(c.kind, ServerKind::Sglang);
    QCOMPARE(*c.running, 162.0);
    QCOMPARE(*c.waiting, 26.0);
    QCOMPARE(*c.kv_cache_usage, 0.28);
    QCOMPARE(*c.kv_capacity_tokens, int64_t(442368));
    QCOMPARE(*c.prompt_tokens, 8128902.0);
    QCOMPARE(*c.generation_tokens, 7557572.0);
    QCOMPARE(*c.prefix_cache_hit_rate_gauge, 0.4375);
    QCOMPARE(*c.spec_accept_length_gauge, 3.12);
    QCOMPARE(*c.spec_accept_rate_gauge, 0.705);
    QVERIFY(!c.prefix_cache_hits);  // this build has no cached_tokens_total counter
    QVERIFY(!c.spec_num_drafts);
    QCOMPARE(c.ttft_s.buckets.size(), size_t(3));
    QCOMPARE(c.ttft_s.buckets[1], (std::pair<double, double>{0.1, 6.0}));
    QCOMPARE(*c.ttft_s.sum, 2351.8);
    QCOMPARE(*c.e2el_s.count, 11228.0);
  }
  void sglangCachedTokensCounter() {
    std::string t = read_wire_fixture("sglang_metrics.prom");
    t +=
        "# TYPE sglang:cached_tokens_total counter\n"
        "sglang:cached_tokens_total{model_name=\"Qwen/Qwen3-8B\",cache_source=\"device\"} 3000000\n"
        "sglang:cached_tokens_total{model_name=\"Qwen/Qwen3-8B\",cache_source=\"host\"} 500000\n";
    const ServerCounters c = counters_of(t);
    QCOMPARE(*c.prefix_cache_hits, 3500000.0);
    QCOMPARE(*c.prefix_cache_queries, 8128902.0);
  }
  void llamacpp() {
    const ServerCounters c = counters_of(read_wire_fixture("llamacpp_metrics.prom"));
    QCOMPARE(c.kind, ServerKind::LlamaCpp);
    QCOMPARE(*c.prompt_tokens, 1000.0);
    QCOMPARE(*c.generation_tokens, 5000.0);
    QCOMPARE(*c.running, 1.0);
    QCOMPARE(*c.waiting, 3.0);
    QCOMPARE(*c.spec_num_draft_tokens, 200.0);
    QCOMPARE(*c.spec_num_accepted_tokens, 120.0);
    QVERIFY(!c.spec_num_drafts);
    QVERIFY(!c.kv_capacity_tokens);
    QVERIFY(c.ttft_s.empty());
  }
  void vllmDelta() {
    const ServerCounters before = counters_of(vllm_before());
    const ServerCounters after = counters_of(read_wire_fixture("vllm_metrics.prom"));
    const CounterDelta d = delta(before, after);
    QVERIFY(d.reset_counters.empty());
    QCOMPARE(d.provenance, Provenance::Server);
    QCOMPARE(*d.prompt_tokens, 53952.0);
    QCOMPARE(*d.generation_tokens, 0.0);
    QCOMPARE(*d.prefix_cache_queries, 353952.0);
    QCOMPARE(*d.prefix_cache_hits, 216512.0);
    QVERIFY(counters_near(*d.prefix_cache_hit_rate, 216512.0 / 353952.0));  // 0.61170
    QCOMPARE(*d.spec_num_drafts, 37450.0);
    QCOMPARE(*d.spec_num_draft_tokens, 112350.0);
    QCOMPARE(*d.spec_num_accepted_tokens, 74887.0);
    QVERIFY(counters_near(*d.spec_acceptance_rate, 74887.0 / 112350.0));       // 0.66655
    QVERIFY(counters_near(*d.spec_acceptance_length, 1 + 74887.0 / 37450.0));  // 2.99965
    QCOMPARE(d.spec_accepted_per_position, (std::vector<double>{32203, 25504, 17180}));
    QCOMPARE(d.spec_acceptance_per_position.size(), size_t(3));
    QVERIFY(counters_near(d.spec_acceptance_per_position[0], 32203.0 / 37450.0));
    QCOMPARE(d.ttft_s.buckets[4].second, 7.0);  // 97 - 90
    QCOMPARE(d.ttft_s.buckets[3].second, 0.0);
    QCOMPARE(*d.ttft_s.count, 0.0);
    const nlohmann::json j = to_json(d);
    QVERIFY(counters_near(j.at("spec_acceptance_length").get<double>(), 1 + 74887.0 / 37450.0));
    QCOMPARE(j.at("provenance").get<std::string>(), std::string("server"));
    QCOMPARE(j.at("ttft_seconds").at("buckets").back().at("le").get<std::string>(),
             std::string("+Inf"));
  }
  void counterResetIsFlaggedNotSubtracted() {
    // Server restarted between the snapshots: "after" holds smaller counters than "before".
    const ServerCounters before = counters_of(read_wire_fixture("vllm_metrics.prom"));
    const ServerCounters after = counters_of(vllm_before());
    const CounterDelta d = delta(before, after);
    QVERIFY(!d.prefix_cache_hits);
    QVERIFY(!d.prefix_cache_hit_rate);
    QVERIFY(!d.spec_acceptance_rate);
    QVERIFY(d.spec_accepted_per_position.empty());
    QVERIFY(d.ttft_s.empty());
    const auto& r = d.reset_counters;
    for (const char* name : {"prefix_cache_hits", "prefix_cache_queries", "spec_num_drafts",
                             "prompt_tokens", "spec_accepted_per_position", "ttft_seconds"}) {
      QVERIFY2(std::find(r.begin(), r.end(), name) != r.end(), name);
    }
    QCOMPARE(*d.generation_tokens, 0.0);  // unchanged counters still difference fine
  }
  void llamacppDeltaHasRateButNoLength() {
    std::string before_text = read_wire_fixture("llamacpp_metrics.prom");
    replace(before_text, "num_draft_tokens_total 200", "num_draft_tokens_total 100");
    replace(before_text, "num_accepted_tokens_total 120", "num_accepted_tokens_total 50");
    const CounterDelta d =
        delta(counters_of(before_text), counters_of(read_wire_fixture("llamacpp_metrics.prom")));
    QCOMPARE(*d.spec_acceptance_rate, 0.7);  // 70 / 100
    QVERIFY(!d.spec_acceptance_length);      // llama.cpp exposes no draft count
  }
  void histogramQuantileLikePrometheus() {
    const ServerCounters c = counters_of(read_wire_fixture("vllm_metrics.prom"));
    // 140 TTFTs: rank 70 falls in (0.02, 0.04] holding 13..97: 0.02 + 0.02 * 57 / 84.
    QVERIFY(counters_near(*histogram_quantile(c.ttft_s, 0.5), 0.02 + 0.02 * 57.0 / 84.0));
    // rank 138.6 falls in (0.08, 0.1] holding 138..140: 0.08 + 0.02 * 0.6 / 2.
    QVERIFY(counters_near(*histogram_quantile(c.ttft_s, 0.99), 0.086));
    QVERIFY(counters_near(*histogram_mean(c.ttft_s), 5.43 / 140));
    // ITL: 137450 observations, rank 0.9 * 137450 = 123705 lies past 0.025 (118400): +Inf
    // bucket, so the highest finite bound.
    QCOMPARE(*histogram_quantile(c.itl_s, 0.9), 0.025);
    QVERIFY(!histogram_quantile(PromHistogram{}, 0.5));
    QVERIFY(!histogram_quantile(c.ttft_s, 1.5));
  }
  void sglangDeltaKeepsSampledGauges() {
    const ServerCounters c = counters_of(read_wire_fixture("sglang_metrics.prom"));
    const CounterDelta d = delta(c, c);
    QCOMPARE(*d.prefix_cache_hit_rate_gauge, 0.4375);
    QCOMPARE(*d.spec_accept_length_gauge, 3.12);
    QVERIFY(!d.prefix_cache_hit_rate);
    QCOMPARE(*d.prompt_tokens, 0.0);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ServerCountersTest)
#include "metrics_server_counters_test.moc"
