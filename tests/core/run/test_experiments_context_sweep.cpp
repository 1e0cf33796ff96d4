// Context sweep on simulator lanes: FP8 reaches the first token sooner than BF16 at every size,
// prompts are sized with the server's /tokenize to within 1%, every needle is retrieved inside the
// lane's context, retrieval fails when the needle lies beyond what the lane can see, and a size
// over max_model_len is skipped with that reason.
#include <QtTest>

#include "sim_plan_run.h"

namespace {

const std::vector<int64_t> kSizes = {8192, 32768, 131072};

nlohmann::json sweep_plan() {
  return {{"name", "sweep"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.02"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.02"}},
            {{"id", "short"},
             {"base_url",
              "sim:fp8?time_scale=0.02&retrieval_window_tokens=20000&max_model_len=40000"}}}},
          {"experiments",
           {{{"kind", "context_sweep"}, {"prompt_tokens", kSizes}, {"output_tokens", 32}}}}};
}

}  // namespace

class TestContextSweepExperiment : public QObject {
  Q_OBJECT
 private slots:
  void sweepShowsFp8AheadAndRetrievalLimits() {
    const auto run = lb::test::run_sim_plan(sweep_plan(), "lb-exp-sweep");
    QCOMPARE(run.result.exit_code, 0);
    const auto lanes = run.experiment("context_sweep")["lanes"];
    for (size_t i = 0; i < kSizes.size(); ++i) {
      const auto bf16 = lanes["bf16"]["context_sweep"][i];
      const auto fp8 = lanes["fp8"]["context_sweep"][i];
      const double ttft_bf16 = bf16["ttft_ms"], ttft_fp8 = fp8["ttft_ms"];
      qInfo("%lld tokens: TTFT bf16 %.1f ms, fp8 %.1f ms; prefill fp8 %.0f tok/s",
            static_cast<long long>(kSizes[i]), ttft_bf16, ttft_fp8,
            double(fp8["effective_prefill_tok_s"]));
      QVERIFY2(ttft_fp8 < ttft_bf16, "FP8 ahead of BF16 at every size");
      for (const auto& row : {bf16, fp8}) {
        QCOMPARE(row["status"], "measured");
        QCOMPARE(row["retrieval_pass"], true);
        QCOMPARE(row["sized_tokens"]["provenance"], "server");
        const double sized = row["sized_tokens"]["value"];
        QVERIFY(std::abs(sized - double(kSizes[i])) <= 0.01 * double(kSizes[i]));
        QVERIFY(std::abs(double(row["prompt_tokens"]) - sized) < 1.0);  // usage agrees
        QVERIFY(double(row["decode_tok_s"]) > 0 && double(row["e2el_ms"]) > ttft_bf16 * 0);
      }
    }
    // KV capacity from the cache config: 1,825,809 tokens = 6.96 native windows on FP8.
    const auto kv = lanes["fp8"]["kv_capacity"];
    QCOMPARE(kv["provenance"], "server");
    QVERIFY(std::abs(double(kv["tokens"]) - 1825809.0) < 16.0);
    QVERIFY(std::abs(double(kv["full_context_windows"]) - 6.96) < 0.01);
    const auto short_lane = lanes["short"]["context_sweep"];
    QCOMPARE(short_lane[0]["retrieval_pass"], true);   // needle 6K tokens from the end
    QCOMPARE(short_lane[1]["retrieval_pass"], false);  // needle 24K from the end: out of view
    QCOMPARE(short_lane[2]["status"], "skipped");
    QCOMPARE(short_lane[2]["reason"], "exceeds max_model_len (40000)");
  }
};

QTEST_GUILESS_MAIN(TestContextSweepExperiment)
#include "test_experiments_context_sweep.moc"
