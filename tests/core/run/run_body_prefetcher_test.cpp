// BodyPrefetcher: requests come out in order, built on a thread of their own no further ahead
// than the limits in requests and bytes; a request that cannot be built is refused, not a crash;
// a prefetcher dropped mid-build stops at once; priming waits for the first bodies and not past
// a stop; started from a real-time thread, it builds at the normal policy.
#include <pthread.h>
#include <sched.h>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "test_main.h"

#include "core/run/drive/body_prefetcher.h"

using lb::run::BodyPrefetcher;
using lb::run::PlannedRequest;
using lb::run::PrefetchLimits;

namespace {

// Request n with a body of BYTES bytes, counting the calls.
auto sized_requests(size_t bytes, std::atomic<int64_t>& calls) {
  return [bytes, &calls](int64_t n, bool) {
    ++calls;
    PlannedRequest r;
    r.index = n;
    r.body = std::make_shared<const std::string>(bytes, 'x');
    return r;
  };
}

void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(100)); }

}  // namespace

class RunBodyPrefetcherTest : public QObject {
  Q_OBJECT
 private slots:
  void requestsComeInOrderNoFurtherAheadThanAllowed() {
    std::atomic<int64_t> calls{0};
    BodyPrefetcher prefetch(sized_requests(10, calls), false, 20, {1 << 20, 3});
    settle();
    QCOMPARE(prefetch.built(), int64_t(3));  // three ahead, then it waits
    for (int64_t n = 0; n < 20; ++n) {
      const PlannedRequest r = prefetch.take();
      QCOMPARE(r.index, n);
      QVERIFY(prefetch.built() <= n + 1 + 3);
    }
    QCOMPARE(calls.load(), int64_t(20));
    QVERIFY(!prefetch.take().body);  // past the end: nothing
  }

  void theBytesAheadAreBounded() {
    std::atomic<int64_t> calls{0};
    BodyPrefetcher prefetch(sized_requests(1 << 20, calls), false, 50, {(5 << 20) / 2, 1000});
    settle();
    QCOMPARE(prefetch.built(), int64_t(3));  // 3 MiB built reaches the 2.5 MiB bound
    prefetch.take();
    settle();
    QCOMPARE(prefetch.built(), int64_t(4));
    // One body larger than the whole bound is still built: the next send is never held back.
    std::atomic<int64_t> big_calls{0};
    BodyPrefetcher big(sized_requests(4 << 20, big_calls), false, 5, {1 << 20, 1000});
    QCOMPARE(big.take().body->size(), size_t(4 << 20));
    QCOMPARE(big.take().index, int64_t(1));
  }

  void aRequestThatCannotBeBuiltIsRefused() {
    BodyPrefetcher prefetch(
        [](int64_t n, bool) -> PlannedRequest {
          if (n == 1) throw std::out_of_range("row 1 is gone");
          PlannedRequest r;
          r.index = n;
          return r;
        },
        false, 3);
    QVERIFY(prefetch.take().refused.empty());
    const PlannedRequest bad = prefetch.take();
    QCOMPARE(bad.index, int64_t(1));
    QVERIFY2(bad.refused.find("row 1 is gone") != std::string::npos, bad.refused.c_str());
    QCOMPARE(prefetch.take().index, int64_t(2));
  }

  void primingWaitsForTheFirstBodiesButNotPastAStop() {
    std::atomic<int64_t> calls{0};
    auto slow = [&calls](int64_t n, bool) {
      ++calls;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      PlannedRequest r;
      r.index = n;
      return r;
    };
    std::atomic<bool> stop{false};
    {
      BodyPrefetcher prefetch(slow, false, 1000);
      prefetch.wait_primed(4, int64_t{1} << 30, 5'000'000'000, stop);
      QVERIFY(prefetch.built() >= 4);
    }  // dropped mid-build: joins after the body in hand
    stop = true;
    BodyPrefetcher stopped(slow, false, 1000);
    const auto t0 = std::chrono::steady_clock::now();
    stopped.wait_primed(500, int64_t{1} << 30, 5'000'000'000, stop);
    QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
  }

  // Under `chrt -f 50` every thread inherits real-time priority; the prefetcher must not keep it,
  // or building a 126K-token body holds a core the scheduler or the I/O thread is waiting for.
  void aRealTimeRunBuildsBodiesAtTheNormalPolicy() {
    std::atomic<int> policy_seen{-1};
    int start_error = 0;
    std::thread real_time([&] {
      sched_param param{};
      param.sched_priority = 1;
      start_error = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
      if (start_error != 0) return;
      BodyPrefetcher prefetch(
          [&](int64_t n, bool) {
            policy_seen = sched_getscheduler(0);
            PlannedRequest r;
            r.index = n;
            r.body = std::make_shared<const std::string>("{}");
            return r;
          },
          false, 1);
      prefetch.take();
    });
    real_time.join();
    // The test suite runs as root (CI does); without CAP_SYS_NICE this fails, saying why.
    QVERIFY2(start_error == 0, start_error == EPERM
                                   ? "setting SCHED_FIFO needs CAP_SYS_NICE: run the tests as root"
                                   : std::strerror(start_error));
    QCOMPARE(policy_seen.load(), SCHED_OTHER);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RunBodyPrefetcherTest)
#include "run_body_prefetcher_test.moc"
