// A run killed at any moment must keep every request its observer was told had finished: the
// sink hears of a request (on_request_done) and of a done count (on_progress) only after the
// request's line is in requests.jsonl. The writer is kept busy with a large file first, so an
// observer told before the write would see the line missing.
#include <QtTest>

#include <mutex>
#include "test_main.h"

#include "core/plan/plan.h"
#include "core/record/run_folder_writer.h"
#include "core/run/drive/chat_request_body.h"
#include "core/run/experiments/experiment.h"
#include "fake_vllm.h"
#include "run_folder_reader.h"

using namespace lb::run;
using lb::test::FakeVllm;
using lb::test::FakeVllmOptions;
namespace fs = std::filesystem;

namespace {

// Counts the lines of requests.jsonl each time it is told something and remembers every time
// it was told of more than the file holds.
class FileCheckingSink : public RunSink {
 public:
  explicit FileCheckingSink(fs::path jsonl) : jsonl_(std::move(jsonl)) {}

  void on_request_done(const lb::metrics::RequestRecord& record) override {
    std::lock_guard lock(mutex_);
    ++told_;
    const auto lines = lines_where([&](const nlohmann::json& l) {
      return l["index"].get<int64_t>() == record.index && l["warmup"].get<bool>() == record.warmup;
    });
    if (lines == 0) ++missing_records;
  }
  void on_progress(const RunProgress& p) override {
    std::lock_guard lock(mutex_);
    ++progress_calls;
    const bool warmup = p.phase.find("warm-up") != std::string::npos;
    const auto lines =
        lines_where([&](const nlohmann::json& l) { return l["warmup"].get<bool>() == warmup; });
    if (lines < p.done) ++progress_ahead_of_file;
  }
  void on_message(MessageLevel, const std::string&) override {}

  int64_t told() {
    std::lock_guard lock(mutex_);
    return told_;
  }

  int64_t missing_records = 0;
  int64_t progress_ahead_of_file = 0;
  int64_t progress_calls = 0;

 private:
  template <typename Pred>
  int64_t lines_where(Pred pred) const {
    int64_t n = 0;
    for (const auto& l : lb::test::read_jsonl(jsonl_)) n += pred(l) ? 1 : 0;
    return n;
  }

  fs::path jsonl_;
  std::mutex mutex_;
  int64_t told_ = 0;
};

LoadPhase chat_phase(const LaneEndpoint& lane, int64_t count) {
  LoadPhase phase;
  phase.experiment = "throughput";
  phase.phase = "c4";
  phase.lane = &lane;
  phase.url = lane.api_url("/chat/completions");
  phase.count = count;
  phase.warmups = 2;
  phase.concurrency = 4;
  phase.timeouts.first_byte_ms = 10'000;
  phase.request_at = [model = lane.model](int64_t n, bool warmup) {
    ChatRequestOptions o;
    o.model = model;
    o.max_tokens = 2;
    o.server = ServerKind::Vllm;
    PlannedRequest r;
    r.index = n;
    r.body = chat_request_body((warmup ? "warm-up " : "prompt ") + std::to_string(n), o);
    return r;
  };
  return phase;
}

}  // namespace

class TestWrittenFirst : public QObject {
  Q_OBJECT
 private slots:
  void observerHearsOnlyOfWrittenRequests() {
    FakeVllm server(FakeVllmOptions{.ttft_us = 1'000, .itl_us = 500, .tokens = 2});
    const auto dir = lb::test::fresh_dir("lb-written-first");
    auto lane = endpoint_from_base_url("lane-a", server.base_url());
    lane.model = "test-org/test-model-8b";
    lb::net::StreamClient client;
    FileCheckingSink sink(dir / "requests.jsonl");
    std::atomic<bool> stop{false};
    lb::plan::Experiment spec;
    spec.kind = "throughput";
    nlohmann::json section;
    {
      lb::record::RunFolderWriter writer(dir.string());
      QVERIFY(writer.ok());
      // Keeps the writer thread busy (write + fsync) while the first requests finish.
      writer.write_file("ballast.bin", std::string(48u << 20, 'x'));
      ExperimentContext ctx(client, sink, writer, stop, spec, {}, section);
      const PhaseOutcome out = ctx.run_phase(chat_phase(lane, 24));
      QCOMPARE(out.records.size(), size_t(24));
      // Everything is delivered by the time the phase returns.
      QCOMPARE(sink.told(), int64_t(26));
      QVERIFY(sink.progress_calls > 0);
    }
    QCOMPARE(sink.missing_records, int64_t(0));
    QCOMPARE(sink.progress_ahead_of_file, int64_t(0));
    QCOMPARE(lb::test::read_jsonl(dir / "requests.jsonl").size(), size_t(26));
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestWrittenFirst)
#include "run_written_first_test.moc"
