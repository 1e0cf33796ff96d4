// vLLM's flags on the simulator (sim/vllm_flags.h): each changes the engine model the way the
// field reports describe, measured on the engine in virtual time, and the program accepts them
// (and warns about the vLLM arguments it does not model).
#include <QProcess>
#include <QtTest>

#include "test_main.h"

#include "sim/profile.h"
#include "sim/vllm_flags.h"
#include "sim_engine_runs.h"
#include "test_paths.h"

using namespace lb::sim;
using namespace lb::sim::test;

namespace vllm_flags_test {

Profile mtp3() { return *builtin_profile("fp8-mtp3"); }

Profile with(VllmFlags flags, Profile p = mtp3()) {
  const std::string err = apply_vllm_flags(p, flags);
  if (!err.empty()) qFatal("%s", err.c_str());
  return p;
}

struct LoadFigures {
  double median_ttft_s = 0;
  double median_decode_tok_s = 0;
};

// Four clients, 8K-token prompts, 128 output tokens: prefill and decode share the engine.
LoadFigures under_load(const Profile& p) {
  ClosedLoop loop(p, 8192, 128, 32);
  loop.run(4);
  std::vector<double> ttft, decode;
  for (const auto& r : loop.done()) ttft.push_back(r.ttft_s()), decode.push_back(r.decode_tok_s());
  return {median_of(ttft), median_of(decode)};
}

// One client, short prompt: the single-stream decode rate.
double single_stream_tok_s(const Profile& p) {
  ClosedLoop loop(p, 256, 512, 4);
  loop.run(1);
  std::vector<double> decode;
  for (const auto& r : loop.done()) decode.push_back(r.decode_tok_s());
  return median_of(decode);
}

}  // namespace vllm_flags_test

using namespace vllm_flags_test;

class SimVllmFlagsTest : public QObject {
  Q_OBJECT
 private slots:
  void batchTokenCeilingTradesTtftAgainstDecode() {
    std::vector<LoadFigures> figures;
    // Up to the prompt size; beyond it several prompts share a step and wait for each other.
    for (int64_t budget : {1024, 2048, 4096, 8192}) {
      VllmFlags f;
      f.max_num_batched_tokens = budget;
      figures.push_back(under_load(with(f)));
      qInfo("budget %lld: median TTFT %.3f s, median decode %.1f tok/s", (long long)budget,
            figures.back().median_ttft_s, figures.back().median_decode_tok_s);
    }
    for (size_t i = 1; i < figures.size(); ++i) {
      QVERIFY2(figures[i].median_ttft_s < figures[i - 1].median_ttft_s,
               qPrintable(QString("TTFT %1 s then %2 s")
                              .arg(figures[i - 1].median_ttft_s)
                              .arg(figures[i].median_ttft_s)));
      QVERIFY2(figures[i].median_decode_tok_s < figures[i - 1].median_decode_tok_s,
               qPrintable(QString("decode %1 then %2 tok/s")
                              .arg(figures[i - 1].median_decode_tok_s)
                              .arg(figures[i].median_decode_tok_s)));
    }
    // The fitted budget reproduces the profile exactly.
    VllmFlags same;
    same.max_num_batched_tokens = mtp3().max_num_batched_tokens;
    QCOMPARE(with(same).prefill_tok_s, mtp3().prefill_tok_s);
  }
  void speculativeDepthTradesAcceptanceAgainstCost() {
    std::vector<double> rate;
    for (int depth = 0; depth <= 5; ++depth) {
      VllmFlags f;
      f.num_speculative_tokens = depth;
      const Profile p = with(f);
      QCOMPARE(p.num_speculative_tokens, depth);
      QCOMPARE(p.acceptance.size(), size_t(depth));
      rate.push_back(single_stream_tok_s(p));
    }
    // Depth 3 (the fitted MTP) is the best; each step away from it costs more than it gains.
    for (int depth : {0, 1, 2, 4, 5})
      QVERIFY2(rate[3] > rate[depth], qPrintable(QString::number(depth)));
    QVERIFY(rate[1] > rate[0]);
    QVERIFY(rate[4] > rate[5]);
    QVERIFY(std::abs(rate[3] - mtp3().decode_tok_s) / mtp3().decode_tok_s < 0.05);
    // From plain fp8, depth 3 lands near the measured MTP profile.
    VllmFlags f;
    f.num_speculative_tokens = 3;
    const Profile from_fp8 = with(f, *builtin_profile("fp8"));
    QVERIFY(std::abs(from_fp8.decode_tok_s - mtp3().decode_tok_s) / mtp3().decode_tok_s < 0.02);
  }
  void cacheFlagsChangeCapacityAndCaching() {
    VllmFlags f;
    f.kv_cache_dtype = "bfloat16";
    f.enable_prefix_caching = false;
    f.max_num_seqs = 7;
    const Profile p = with(f);
    QCOMPARE(p.kv_tokens, mtp3().kv_tokens / 2);
    QCOMPARE(p.cache_dtype, std::string("bfloat16"));
    QVERIFY(!p.prefix_caching);
    QCOMPARE(p.max_num_seqs, 7);
    VllmFlags more;
    more.gpu_memory_utilization = 0.95;
    QVERIFY(with(more).kv_tokens > mtp3().kv_tokens);
    VllmFlags less;
    less.gpu_memory_utilization = 0.7;
    QVERIFY(std::abs(with(less).kv_tokens - mtp3().kv_tokens / 2) <= 1);
  }
  void badValuesAreRefused() {
    Profile p = mtp3();
    VllmFlags f;
    f.gpu_memory_utilization = 0.4;
    QVERIFY(apply_vllm_flags(p, f).find("leaves no memory for the KV cache") != std::string::npos);
    VllmFlags d;
    d.kv_cache_dtype = "int3";
    QVERIFY(apply_vllm_flags(p, d).find("--kv-cache-dtype") != std::string::npos);
  }
  void mediaLimitsFollowLimitMmPerPrompt() {
    Profile fp8 = *builtin_profile("fp8");
    QCOMPARE(fp8.image_limit, 0);  // the FP8 lane is text-only
    QCOMPARE(fp8.video_limit, 0);
    VllmFlags json_form;
    json_form.limit_mm_per_prompt = "{\"image\": 2, \"video\": 0}";
    QCOMPARE(apply_vllm_flags(fp8, json_form), std::string());
    QCOMPARE(fp8.image_limit, 2);
    QCOMPARE(fp8.video_limit, 0);
    Profile bf16 = *builtin_profile("bf16");
    QCOMPARE(bf16.image_limit, -1);
    VllmFlags old_form;
    old_form.limit_mm_per_prompt = "video=3";
    QCOMPARE(apply_vllm_flags(bf16, old_form), std::string());
    QCOMPARE(bf16.image_limit, -1);  // left out: no limit
    QCOMPARE(bf16.video_limit, 3);
    VllmFlags none;
    none.language_model_only = true;
    QCOMPARE(apply_vllm_flags(bf16, none), std::string());
    QCOMPARE(bf16.image_limit, 0);
    QCOMPARE(bf16.video_limit, 0);
    for (const char* bad : {"{\"image\": -1}", "[1]", "image=two", "image", "{\"video\": 1.5}"}) {
      VllmFlags f;
      f.limit_mm_per_prompt = bad;
      QVERIFY2(apply_vllm_flags(bf16, f).find("--limit-mm-per-prompt") != std::string::npos, bad);
    }
  }
  void programTakesVllmFlags() {
    QProcess sim;
    sim.start(lb::test::sim_path(), {"serve", "Qwen/Qwen3.8-27B-FP8", "--profile", "fp8-mtp3",
                                     "--port", "0", "--max-num-batched-tokens", "8192",
                                     "--no-enable-prefix-caching", "--tensor-parallel-size", "2"});
    QVERIFY(sim.waitForReadyRead(10'000));
    QVERIFY(sim.readAllStandardOutput().startsWith("fp8-mtp3 http://127.0.0.1:"));
    sim.terminate();
    QVERIFY(sim.waitForFinished(10'000));
    QCOMPARE(sim.exitCode(), 0);
    const QString err = sim.readAllStandardError();
    QVERIFY2(err.contains("ignoring arguments it does not model: serve Qwen/Qwen3.8-27B-FP8 "
                          "--tensor-parallel-size 2"),
             qPrintable(err));
    QProcess bad;
    bad.start(lb::test::sim_path(), {"--profile", "fp8", "--gpu-memory-utilization", "0.4"});
    QVERIFY(bad.waitForFinished(10'000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("leaves no memory for the KV cache"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimVllmFlagsTest)
#include "sim_vllm_flags_test.moc"
