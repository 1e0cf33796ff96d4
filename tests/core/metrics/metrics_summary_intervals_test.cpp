// The summary's intervals and lane comparisons from per-request samples drawn with fixed seeds:
// keys as the summary names its figures, method and resamples recorded, the first lane as the
// baseline, and verdict sentences that say the ratio, its interval and the confidence level.
#include <QtTest>

#include "test_main.h"

#include <random>

#include "core/metrics/percentile.h"
#include "core/metrics/summary_intervals.h"

using namespace lb::metrics;
using nlohmann::json;

namespace {

std::vector<double> lognormal_sample(uint64_t seed, size_t n, double median, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(median), 0.2);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng) * scale;
  return v;
}

RequestSamples lane_samples(uint64_t seed, size_t n, double decode_scale) {
  RequestSamples s;
  s.ttft_ms = lognormal_sample(seed, n, 120.0);
  s.tpot_ms = lognormal_sample(seed + 1, n, 20.0, 1 / decode_scale);
  s.e2el_ms = lognormal_sample(seed + 2, n, 1000.0);
  for (double tpot : s.tpot_ms) s.decode_tok_s.push_back(1000.0 / tpot);
  return s;
}

const FigureComparison* find(const std::vector<FigureComparison>& comparisons,
                             const std::string& candidate, const std::string& phase,
                             const std::string& figure) {
  for (const auto& c : comparisons)
    if (c.candidate == candidate && c.phase == phase && c.figure == figure) return &c;
  return nullptr;
}

}  // namespace

class SummaryIntervalsTest : public QObject {
  Q_OBJECT
 private slots:
  void everyHeadlineFigureGetsItsInterval() {
    RequestSamples s = lane_samples(1, 200, 1.0);
    s.tpot_ms.clear();  // no TPOT (one-token answers): no interval for it
    const auto intervals = headline_intervals(s);
    const auto find_interval = [&](const std::string& key) -> const BootstrapInterval* {
      for (const auto& [k, i] : intervals)
        if (k == key) return &i;
      return nullptr;
    };
    QVERIFY(!find_interval("median_tpot_ms"));
    for (const char* key : {"median_ttft_ms", "p99_ttft_ms", "median_e2el_ms", "p99_e2el_ms",
                            "median_decode_tok_s"}) {
      const BootstrapInterval* i = find_interval(key);
      QVERIFY2(i, key);
      QCOMPARE(std::string(to_string(i->method)), std::string("bca"));
      QCOMPARE(i->resamples, kDefaultBootstrapResamples);
      QCOMPARE(i->level, 0.95);
      QCOMPARE(i->n, size_t(200));
    }
    const double median_ttft = median(s.ttft_ms);
    QVERIFY(find_interval("median_ttft_ms")->lo < median_ttft);
    QVERIFY(find_interval("median_ttft_ms")->hi > median_ttft);
    const double p99 = percentile(s.ttft_ms, 99);
    QVERIFY(find_interval("p99_ttft_ms")->lo <= p99 && p99 <= find_interval("p99_ttft_ms")->hi);
    const auto again = headline_intervals(s);  // reproducible
    QCOMPARE(again.size(), intervals.size());
    for (size_t k = 0; k < again.size(); ++k) {
      QCOMPARE(again[k].first, intervals[k].first);
      QCOMPARE(again[k].second.lo, intervals[k].second.lo);
      QCOMPARE(again[k].second.hi, intervals[k].second.hi);
    }

    RequestSamples one;
    one.ttft_ms = {100};
    QVERIFY(headline_intervals(one).empty());  // one request: no interval
  }

  void lanesAreComparedWithTheFirst() {
    std::vector<PhaseSamples> phases = {
        {"bf16", "c1", lane_samples(10, 300, 1.0)},
        {"fp8", "c1", lane_samples(20, 300, 1.3)},  // decodes 30 % faster
        {"fp8", "c5", lane_samples(30, 300, 1.0)},  // no baseline phase c5: not compared
    };
    // TTFT 1 % slower: far inside the noise of 300 requests, which resample independently.
    phases[1].samples.ttft_ms = phases[0].samples.ttft_ms;
    for (double& t : phases[1].samples.ttft_ms) t *= 1.01;
    const std::vector<FigureComparison> c = lane_comparisons({"bf16", "fp8", "mtp"}, phases);
    QCOMPARE(c.size(), headline_figures().size());  // fp8 c1 only; mtp ran nothing
    const FigureComparison* decode = find(c, "fp8", "c1", "median_decode_tok_s");
    QVERIFY(decode);
    QCOMPARE(decode->baseline, std::string("bf16"));
    QCOMPARE(decode->verdict, Verdict::Faster);
    QCOMPARE(decode->better, Better::Higher);
    QCOMPARE(std::string(decode->basis()), std::string("requests"));
    QVERIFY(std::abs(decode->ratio.ratio - 1.3) < 0.06);
    QVERIFY(decode->ratio.lo > 1.0);
    QCOMPARE(decode->needed, int64_t(-1));
    const std::string said = decode->statement;
    qInfo("%s", said.c_str());
    QVERIFY2(said.rfind("fp8/bf16 c1 decode p50 1.", 0) == 0, said.c_str());
    QVERIFY2(
        said.find(" [") != std::string::npos && said.find("]: faster (95 %)") != std::string::npos,
        said.c_str());

    const FigureComparison* tpot = find(c, "fp8", "c1", "median_tpot_ms");
    QVERIFY(tpot);
    QCOMPARE(tpot->verdict, Verdict::Faster);  // lower TPOT is faster
    QVERIFY(tpot->ratio.hi < 1.0);

    const FigureComparison* ttft = find(c, "fp8", "c1", "median_ttft_ms");
    QVERIFY(ttft);
    const std::string ttft_said = ttft->statement;
    qInfo("%s", ttft_said.c_str());
    QCOMPARE(ttft->verdict, Verdict::WithinNoise);
    QVERIFY(ttft->ratio.lo < 1.0 && ttft->ratio.hi > 1.0);
    QVERIFY(ttft_said.find("within noise (95 %)") != std::string::npos);
    QVERIFY(std::abs(ttft->ratio.ratio - 1.01) < 1e-9);
    QVERIFY(ttft->needed > 300);
    QVERIFY(ttft_said.find("requests per lane would resolve it") != std::string::npos);
  }

  void oneLaneHasNothingToCompare() {
    QVERIFY(lane_comparisons({"bf16"}, {{"bf16", "c1", lane_samples(1, 50, 1.0)}}).empty());
  }

  void statementWithoutAnInterval() {
    RatioInterval r;
    r.ratio = 1.25;
    const std::string s = verdict_statement("a", "b", "c1", "TTFT p50", r, Verdict::Unknown);
    QCOMPARE(s, std::string("b/a c1 TTFT p50 1.250: n/a (too few requests for an interval)"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SummaryIntervalsTest)
#include "metrics_summary_intervals_test.moc"
