// Trace files: each format read from the project's own fixtures, detected from content or given,
// and every bad-input rule: malformed rows name their file and line (or are skipped and counted),
// timestamps that go backwards and long gaps are reported and never reordered, and an empty trace
// is an error.
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include "core/plan/trace_file.h"
#include "core/plan/trace_rows.h"
#include "test_paths.h"

using namespace lb::plan;

namespace {

std::string trace_path(const std::string& name) { return lb::test::fixture_path("traces/" + name); }

TraceReadResult read(const std::string& name, TraceReadOptions options = {}) {
  return read_trace_file(trace_path(name), options);
}

// The errors with the fixture folder cut off, one per line.
std::string errors_of(const TraceReadResult& r) {
  std::string out;
  const std::string dir = lb::test::fixture_path("traces/");
  for (std::string e : r.errors) {
    if (e.rfind(dir, 0) == 0) e = e.substr(dir.size());
    out += e + "\n";
  }
  return out;
}

}  // namespace

class PlanTraceFileTest : public QObject {
  Q_OBJECT
 private slots:
  void mooncakeIsDetectedAndRead() {
    const TraceReadResult r = read("mooncake.jsonl");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const Trace& t = *r.trace;
    QCOMPARE(t.format, TraceFormat::Mooncake);
    QCOMPARE(t.requests.size(), size_t(30));
    QCOMPARE(t.requests[0].offset_ns, int64_t(0));
    QCOMPARE(t.requests[0].input_tokens, int64_t(792));
    QCOMPARE(t.requests[0].output_tokens, int64_t(11));
    QCOMPARE(t.requests[0].hash_ids, (std::vector<int64_t>{0, 4}));
    QCOMPARE(t.requests[1].offset_ns, int64_t(40'000'000));  // 40 ms
    QCOMPARE(t.requests[1].line, int64_t(2));
    QCOMPARE(t.requests.back().offset_ns, int64_t(840'000'000));
    QCOMPARE(t.skipped_rows, int64_t(0));
    QVERIFY(!t.truncated);
    // Requests of one conversation share their leading blocks.
    QCOMPARE(t.requests[1].hash_ids, (std::vector<int64_t>{1, 2, 5}));
    QCOMPARE(t.requests[28].hash_ids, (std::vector<int64_t>{1, 2}));
  }

  void azureIsDetectedAndRead() {
    const TraceReadResult r = read("azure.csv");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const Trace& t = *r.trace;
    QCOMPARE(t.format, TraceFormat::Azure);
    QCOMPARE(t.requests.size(), size_t(30));
    QCOMPARE(t.requests[0].input_tokens, int64_t(3755));
    QCOMPARE(t.requests[0].output_tokens, int64_t(47));
    QCOMPARE(t.requests[0].line, int64_t(2));
    // 18:15:46.6805904 to 18:15:46.7522149, to the 100 ns the trace writes.
    QCOMPARE(t.requests[1].offset_ns, int64_t(71'624'500));
    // 18:16:31.3629440 - 18:15:46.6805904
    QCOMPARE(t.requests.back().offset_ns, int64_t(44'682'353'600));
  }

  void burstGptIsDetectedAndRead() {
    const TraceReadResult r = read("burstgpt.csv");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const Trace& t = *r.trace;
    QCOMPARE(t.format, TraceFormat::BurstGpt);
    QCOMPARE(t.requests.size(), size_t(30));
    QCOMPARE(t.requests[0].input_tokens, int64_t(811));
    QCOMPARE(t.requests[0].output_tokens, int64_t(76));
    QCOMPARE(t.requests[1].offset_ns, int64_t(29'000'000'000));  // 34 s - 5 s
    QCOMPARE(t.requests.back().offset_ns, int64_t(620'000'000'000));
    QVERIFY(t.requests[0].hash_ids.empty());
  }

  void dateTimes() {
    QCOMPARE(detail::parse_trace_datetime_ns("1970-01-01 00:00:01").value_or(-1),
             int64_t(1'000'000'000));
    QCOMPARE(detail::parse_trace_datetime_ns("2023-11-16 18:15:46.6805900").value_or(-1),
             int64_t(1'700'158'546'680'590'000));
    QCOMPARE(detail::parse_trace_datetime_ns("2024-02-29T00:00:00.5").value_or(-1),
             int64_t(1'709'164'800'500'000'000));
    for (const char* bad : {"2023-13-01 00:00:00", "2023-11-16", "2023-11-16 18:15:46.", "x",
                            "2023-11-16 18:15:46.1234567890"})
      QVERIFY2(!detail::parse_trace_datetime_ns(bad), bad);
  }

  // Issue 36, case 13: a trace path to a FIFO hung plan loading, one to /dev/zero read until
  // allocation failed and then said "the trace is empty".
  void aTraceThatIsAFifoOrADeviceIsRefusedAtOnce() {
    QTemporaryDir dir;
    const std::string fifo = dir.filePath("trace.jsonl").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& path : {fifo, std::string("/dev/zero")}) {
      const TraceReadResult r = read_trace_file(path, {});
      QVERIFY(!r.ok());
      QVERIFY2(errors_of(r).find("not a regular file") != std::string::npos, errors_of(r).c_str());
    }
  }

  void formatGivenMustMatchTheFile() {
    TraceReadOptions o;
    o.format = TraceFormat::Azure;
    QCOMPARE(errors_of(read("burstgpt.csv", o)),
             std::string("burstgpt.csv:1: the header has no column 'TIMESTAMP' (format azure)\n"));
    o.format = TraceFormat::BurstGpt;
    const TraceReadResult r = read("burstgpt.csv", o);
    QVERIFY(r.ok());
    QCOMPARE(r.trace->requests.size(), size_t(30));
  }

  void unknownFormatIsAnError() {
    QCOMPARE(errors_of(read("unknown_format.csv")),
             std::string("unknown_format.csv:1: cannot tell the trace format from this line; "
                         "expected a Mooncake JSON object or an Azure or BurstGPT CSV header (or "
                         "give 'format')\n"));
  }

  void malformedRowsNameFileAndLine() {
    QCOMPARE(errors_of(read("mooncake_bad_rows.jsonl")),
             std::string("mooncake_bad_rows.jsonl:3: missing 'output_length'\n"
                         "mooncake_bad_rows.jsonl:5: not a JSON object\n"));
    QCOMPARE(errors_of(read("azure_bad_rows.csv")),
             std::string("azure_bad_rows.csv:4: 'TIMESTAMP' is not a date-time like 2023-11-16 "
                         "18:15:46.6805900: 'yesterday'\n"
                         "azure_bad_rows.csv:5: 'GeneratedTokens' is not an integer: 'ten'\n"));
    QCOMPARE(errors_of(read("burstgpt_bad_rows.csv")),
             std::string("burstgpt_bad_rows.csv:3: expected 6 fields, got 5\n"
                         "burstgpt_bad_rows.csv:4: 'Response tokens' must be >= 1 (got 0; a "
                         "failed request in the trace)\n"));
  }

  void skipBadRowsSkipsAndCounts() {
    TraceReadOptions o;
    o.skip_bad_rows = true;
    const TraceReadResult r = read("mooncake_bad_rows.jsonl", o);
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.trace->requests.size(), size_t(4));
    QCOMPARE(r.trace->skipped_rows, int64_t(2));
    QCOMPARE(r.trace->skipped.size(), size_t(2));
    QVERIFY(r.trace->skipped[0].find("mooncake_bad_rows.jsonl:3: ") != std::string::npos);
    std::vector<int64_t> lines;
    for (const auto& q : r.trace->requests) lines.push_back(q.line);
    QCOMPARE(lines, (std::vector<int64_t>{1, 2, 4, 6}));
    const TraceReadResult b = read("burstgpt_bad_rows.csv", o);
    QVERIFY(b.ok());
    QCOMPARE(b.trace->requests.size(), size_t(2));
    QCOMPARE(b.trace->skipped_rows, int64_t(2));
    QCOMPARE(b.trace->requests[1].offset_ns, int64_t(180'000'000'000));
  }

  void backwardsTimestampsAreReportedNeverReordered() {
    QCOMPARE(errors_of(read("mooncake_backwards.jsonl")),
             std::string("mooncake_backwards.jsonl:4: timestamp goes backwards by 0.05 s from "
                         "line 3; rows are replayed in file order and never reordered\n"));
    TraceReadOptions o;
    o.skip_bad_rows = true;
    const TraceReadResult r = read("mooncake_backwards.jsonl", o);
    QVERIFY(r.ok());
    QCOMPARE(r.trace->skipped_rows, int64_t(1));
    std::vector<int64_t> offsets_ms;
    for (const auto& q : r.trace->requests) offsets_ms.push_back(q.offset_ns / 1'000'000);
    QCOMPARE(offsets_ms, (std::vector<int64_t>{0, 100, 200, 300}));
  }

  void gapsLongerThanMaxGapAreErrors() {
    const TraceReadResult whole = read("azure_gap.csv");
    QVERIFY(whole.ok());
    QCOMPARE(whole.trace->requests.size(), size_t(4));
    TraceReadOptions o;
    o.max_gap_s = 60;
    QCOMPARE(errors_of(read("azure_gap.csv", o)),
             std::string("azure_gap.csv:4: gap of 7200 s after line 3 is longer than max_gap_s "
                         "(60 s)\n"));
    o.skip_bad_rows = true;  // a gap is not a bad row: still reported
    QVERIFY(!read("azure_gap.csv", o).ok());
  }

  void emptyTracesAreErrors() {
    QCOMPARE(errors_of(read("empty.jsonl")), std::string("empty.jsonl: the trace is empty\n"));
    QCOMPARE(errors_of(read("burstgpt_header_only.csv")),
             std::string("burstgpt_header_only.csv: the trace holds no requests\n"));
    TraceReadOptions o;
    o.skip_bad_rows = true;
    const auto r =
        read_trace_text("{\"timestamp\": 0}\n\n{}\n", "all_bad.jsonl", o);  // every row bad
    QCOMPARE(r.error_text(),
             std::string("all_bad.jsonl: the trace holds no requests (2 bad rows skipped)\n"));
    QVERIFY(!read("no_such_trace.jsonl").ok());
  }

  void maxRequestsAndMaxOffsetCut() {
    TraceReadOptions o;
    o.max_requests = 5;
    const TraceReadResult r = read("mooncake.jsonl", o);
    QVERIFY(r.ok());
    QCOMPARE(r.trace->requests.size(), size_t(5));
    QVERIFY(r.trace->truncated);
    o = {};
    o.max_offset_ns = 400'000'000;  // 400 ms
    const TraceReadResult d = read("mooncake.jsonl", o);
    QVERIFY(d.ok());
    QVERIFY(d.trace->truncated);
    QVERIFY(d.trace->requests.back().offset_ns < 400'000'000);
    QVERIFY(d.trace->requests.size() < size_t(30));
    o = {};
    o.max_requests = 30;  // exactly the trace: nothing was cut
    QVERIFY(!read("mooncake.jsonl", o).trace->truncated);
  }

  void hugeNumbersAreBadRowsNotAllocations() {
    const std::string header = "Timestamp,Model,Request tokens,Response tokens,Total tokens,x\n";
    const auto r = read_trace_text(header + "1,m,20000000,5,0,x\n2,m,5,5,10,x\n1e300,m,5,5,10,x\n",
                                   "huge.csv", {});
    QCOMPARE(r.error_text(),
             std::string("huge.csv:2: 'Request tokens' must be <= 10000000 (got 20000000)\n"
                         "huge.csv:4: 'Timestamp' must be a number of seconds from 0 to 1e9: "
                         "'1e300'\n"));
    const auto m = read_trace_text(
        "{\"timestamp\": 1e300, \"input_length\": 5, \"output_length\": 5}\n", "huge.jsonl", {});
    QCOMPARE(m.error_text(),
             std::string("huge.jsonl:1: 'timestamp' must be a number of ms from 0 to 1e12\n"));
    QVERIFY(!detail::parse_trace_datetime_ns("9999-12-31 23:59:59"));
  }

  void byteOrderMarkAndCrLfAreRead() {
    const auto r = read_trace_text(
        "\xEF\xBB\xBFTIMESTAMP,ContextTokens,GeneratedTokens\r\n"
        "2023-11-16 18:15:46.6805900,100,10\r\n2023-11-16 18:15:47.6805900,200,20\r\n",
        "bom.csv", {});
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.trace->format, TraceFormat::Azure);
    QCOMPARE(r.trace->requests.back().offset_ns, int64_t(1'000'000'000));
    QCOMPARE(r.trace->requests.back().output_tokens, int64_t(20));
  }

  void formatNames() {
    for (const auto& name : trace_format_names())
      QCOMPARE(std::string(to_string(*trace_format_from_string(name))), name);
    QVERIFY(!trace_format_from_string("sharegpt"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PlanTraceFileTest)
#include "plan_trace_file_test.moc"
