// A phase folded into a spool on disk summarises exactly as the same records held in memory:
// percentiles from spooled values equal the sorted values' (also where the values crowd one
// histogram bin, or are all equal), the spool keeps its records in order across its blocks and
// in memory where it cannot write, and RecordSpool's summary and steady state equal summarize()
// and steady_state() field for field.
#include <QtTest>

#include "test_main.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/metrics/order_statistics.h"
#include "core/metrics/record_spool.h"
#include "core/metrics/spooled_statistics.h"
#include "core/metrics/steady_state.h"
#include "core/metrics/summary.h"
#include "core/metrics/value_spool.h"
#include "summary_checks.h"

using namespace lb::metrics;
using namespace lb::metrics::test;

namespace {

// Every field bit for bit: the spooled figures use the same running sums as OrderStatistics.
bool identical(const Distribution& a, const Distribution& b) {
  const auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
  return a.count == b.count && same(a.mean, b.mean) && same(a.std, b.std) &&
         same(a.median, b.median) && same(a.p50, b.p50) && same(a.p90, b.p90) &&
         same(a.p95, b.p95) && same(a.p99, b.p99) && same(a.min, b.min) && same(a.max, b.max);
}

void check_against_memory(const std::vector<double>& values, size_t collect_cap) {
  SpooledStatistics spooled(collect_cap);
  OrderStatistics exact;
  for (double v : values) {
    spooled.insert(v);
    exact.insert(v);
  }
  QVERIFY2(identical(spooled.describe(), exact.describe()),
           qPrintable(
               QString("p99 %1 against %2").arg(spooled.describe().p99).arg(exact.describe().p99)));
}

std::vector<RequestRecord> random_phase(uint64_t seed, int64_t n) {
  std::mt19937_64 rng(seed);
  std::vector<RequestRecord> records;
  for (int64_t i = 0; i < n; ++i) records.push_back(random_request(rng, i));
  return records;
}

}  // namespace

class RecordSpoolTest : public QObject {
  Q_OBJECT
 private slots:
  void spooledPercentilesEqualTheSortedValues() {
    std::mt19937_64 rng(17);
    std::lognormal_distribution<double> gap(2.5, 0.8);
    std::vector<double> values;
    for (int i = 0; i < 60'000; ++i) values.push_back(gap(rng));
    check_against_memory(values, SpooledStatistics::kCollectCap);
    // A cap far below a bin's values: the bins holding the ranks are split, read by read.
    check_against_memory(values, 64);
  }

  void crowdedAndEqualValuesStillGiveExactRanks() {
    std::mt19937_64 rng(19);
    std::uniform_int_distribution<int> pick(0, 3);
    std::vector<double> ties;  // a few values, each thousands of times (0 ms gaps among them)
    for (int i = 0; i < 20'000; ++i)
      ties.push_back(std::vector<double>{0, 1.5, 1.5000001, 20}[pick(rng)]);
    check_against_memory(ties, 16);
    check_against_memory(std::vector<double>(5'000, 7.25), 16);  // one key: split to the end
    std::vector<double> signs;
    for (int i = 0; i < 3'000; ++i) signs.push_back((i % 2 == 0 ? -1 : 1) * (i % 97) * 0.5);
    check_against_memory(signs, 32);
    check_against_memory({}, 16);
    check_against_memory({3.0}, 16);
  }

  void everyRankOfASmallSet() {
    std::mt19937_64 rng(23);
    std::uniform_real_distribution<double> value(-5, 5);
    SpooledStatistics spooled(8);
    std::vector<double> sorted;
    for (int i = 0; i < 500; ++i) {
      sorted.push_back(value(rng));
      spooled.insert(sorted.back());
    }
    std::sort(sorted.begin(), sorted.end());
    std::vector<size_t> ranks;
    for (size_t k = 0; k < sorted.size(); ++k) ranks.push_back(sorted.size() - 1 - k);
    const std::vector<double> got = spooled.at_ranks(ranks);
    for (size_t k = 0; k < ranks.size(); ++k) QCOMPARE(got[k], sorted[ranks[k]]);
  }

  void theSpoolKeepsOrderAcrossItsBlocks() {
    ValueSpool<int64_t> spool;
    for (int64_t i = 0; i < 100'000; ++i) spool.append(i * 3);  // 800 KB: many 64 KB blocks
    QVERIFY2(!spool.memory_fallback(), qPrintable(QString::fromStdString(spool.fallback_reason())));
    int64_t expect = 0;
    bool in_order = true;
    spool.for_each([&](int64_t v) {
      in_order = in_order && v == expect * 3;
      ++expect;
    });
    QVERIFY(in_order);
    QCOMPARE(expect, int64_t(100'000));
  }

  void aSpoolThatCannotWriteKeepsItsValuesInMemory() {
    rlimit saved{};
    QCOMPARE(getrlimit(RLIMIT_NOFILE, &saved), 0);
    const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);  // the lowest free descriptor
    QVERIFY(probe >= 0);
    ::close(probe);
    rlimit none = saved;
    none.rlim_cur = static_cast<rlim_t>(probe);  // no descriptor left for the spool's file
    QCOMPARE(setrlimit(RLIMIT_NOFILE, &none), 0);
    SpooledStatistics spooled;
    OrderStatistics exact;
    for (int i = 0; i < 20'000; ++i) {  // 160 KB: more than a block, so a file is tried
      spooled.insert(i % 1000);
      exact.insert(i % 1000);
    }
    setrlimit(RLIMIT_NOFILE, &saved);
    QVERIFY(spooled.spool().memory_fallback());
    const std::string why = spooled.spool().fallback_reason();
    QVERIFY2(why.find("cannot create a spool file") != std::string::npos, why.c_str());
    QVERIFY2(why.find(std::strerror(EMFILE)) != std::string::npos, why.c_str());
    QVERIFY(identical(spooled.describe(), exact.describe()));
  }

  void aSpoolWhoseWriteFailsKeepsWhatItWroteAndTheRestInMemory() {
    rlimit saved{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 100 * 1024;  // the second 64 KB block cannot be written whole
    auto* const old_handler = std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    ValueSpool<int64_t> spool;
    for (int64_t i = 0; i < 50'000; ++i) spool.append(i);  // 400 KB
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
    QVERIFY(spool.memory_fallback());
    QVERIFY2(spool.fallback_reason().find(std::strerror(EFBIG)) != std::string::npos,
             spool.fallback_reason().c_str());
    int64_t expect = 0;
    bool in_order = true;
    spool.for_each([&](int64_t v) { in_order = in_order && v == expect++; });
    QVERIFY(in_order);
    QCOMPARE(expect, int64_t(50'000));
  }

  void aSpooledPhaseSummarisesAsItsRecordsInMemory() {
    SloSpec slo;
    slo.ttft_ms = 150;
    slo.e2el_ms = 900;
    for (const uint64_t seed : {29u, 31u}) {
      const std::vector<RequestRecord> records = random_phase(seed, 3'000);
      RecordSpool spool(slo);
      for (const RequestRecord& r : records) spool.add(r);
      QCOMPARE(spool.size(), int64_t(records.size()));
      RequestSamples from_memory, from_spool;
      const LaneSummary want = summarize(records, slo, &from_memory);
      const LaneSummary got = spool.summarize(&from_spool);
      compare_summaries(got, want);
      QVERIFY(identical(got.itl_ms, want.itl_ms));
      QVERIFY(identical(got.tokens_per_event, want.tokens_per_event));
      QVERIFY(identical(got.ttft_sched_ms, want.ttft_sched_ms));
      QVERIFY(identical(got.e2el_sched_ms, want.e2el_sched_ms));
      QCOMPARE(got.max_concurrent_requests, want.max_concurrent_requests);
      QVERIFY(want.max_concurrent_requests > 1);
      QCOMPARE(got.max_output_tokens_per_s, want.max_output_tokens_per_s);
      QVERIFY(want.max_output_tokens_per_s > 0);
      QCOMPARE(got.request_goodput, want.request_goodput);
      QCOMPARE(got.provenance, want.provenance);
      QCOMPARE(from_spool.ttft_ms, from_memory.ttft_ms);
      QCOMPARE(from_spool.tpot_ms, from_memory.tpot_ms);
      QCOMPARE(from_spool.e2el_ms, from_memory.e2el_ms);
      QCOMPARE(from_spool.decode_tok_s, from_memory.decode_tok_s);
      QCOMPARE(spool.memory_fallback_reason(), std::string());
    }
  }

  void aSpooledPhaseHasTheSameSteadyState() {
    const std::vector<RequestRecord> records = random_phase(37, 2'000);
    RecordSpool spool;
    for (const RequestRecord& r : records) spool.add(r);
    const std::vector<RequestRow> rows = spool.rows();
    QCOMPARE(to_json(steady_state_of(rows, 40)).dump(), to_json(steady_state(records, 40)).dump());
    const OpenLoopTrim trim{0.5, 0.5, 10, 10};
    QCOMPARE(to_json(trimmed_state_of(rows, trim)).dump(),
             to_json(trimmed_state(records, trim)).dump());
    QVERIFY(steady_state(records, 40).found || trimmed_state(records, trim).found);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RecordSpoolTest)
#include "metrics_record_spool_test.moc"
