// requests.jsonl lines read with the on-demand parser: every field the charts use, values of the
// wrong type read as absent (booleans excepted), every cut of a line rejected, and the block
// reader keeping file order, line numbers and long lines across blocks and threads.
#include <sys/stat.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/report/request_line.h"
#include "core/report/request_lines_reader.h"
#include "test_main.h"

using lb::report::parse_request_line;
using lb::report::RequestPoint;
using nlohmann::json;

namespace {

json full_line(int64_t index) {
  return {{"lane", "fp8"},
          {"experiment", "throughput"},
          {"phase", "c16"},
          {"index", index},
          {"warmup", false},
          {"ok", true},
          {"ttft_ms", 261.795134},
          {"e2el_ms", 2135.05},
          {"tpot_ms", 29.73},
          {"decode_tok_s", 33.63},
          {"output_tokens", 3},
          {"prompt_tokens", 1024},
          {"output_tokens_provenance", "server"},
          {"prompt_tokens_provenance", "estimated"},
          {"error", nullptr},
          {"t_sched_ns", 1000000000000 + index},
          {"t_sent_ns", 1000000103059 + index},
          {"event_offsets_ns", {261795134, 292031398.5, 321231329}},
          {"event_tokens", {1, 2, 1}},
          {"model", "Qwen/Qwen3-8B"},
          {"spec_decode", {{"accepted", {1, 2}}, {"note", "skipped unread"}}}};
}

std::optional<RequestPoint> parse(const json& line, std::string* problem = nullptr) {
  return parse_request_line(line.dump(), problem);
}

std::filesystem::path write_lines(const QTemporaryDir& dir, const std::vector<std::string>& lines,
                                  bool final_newline = true) {
  const std::filesystem::path path = dir.filePath("requests.jsonl").toStdString();
  std::ofstream out(path, std::ios::binary);
  for (size_t i = 0; i < lines.size(); ++i)
    out << lines[i] << (i + 1 < lines.size() || final_newline ? "\n" : "");
  return path;
}

}  // namespace

class ReportRequestLinesTest : public QObject {
  Q_OBJECT

 private slots:
  void readsEveryFieldTheChartsUse() {
    const auto p = parse(full_line(7));
    QVERIFY(p);
    QCOMPARE(p->lane, std::string("fp8"));
    QCOMPARE(p->experiment, std::string("throughput"));
    QCOMPARE(p->phase, std::string("c16"));
    QCOMPARE(p->index, int64_t(7));
    QVERIFY(!p->warmup);
    QVERIFY(p->ok);
    QCOMPARE(p->ttft_ms, 261.795134);
    QCOMPARE(p->e2el_ms, 2135.05);
    QCOMPARE(p->tpot_ms, 29.73);
    QCOMPARE(p->decode_tok_s, 33.63);
    QCOMPARE(p->output_tokens, int64_t(3));
    QCOMPARE(p->prompt_tokens, int64_t(1024));
    QCOMPARE(p->output_tokens_provenance, std::string("server"));
    QCOMPARE(p->prompt_tokens_provenance, std::string("estimated"));
    QVERIFY(p->error_kind.empty());
    QCOMPARE(p->t_sched_ns, int64_t(1000000000007));
    QCOMPARE(p->t_sent_ns, int64_t(1000000103066));
    QCOMPARE(p->event_offsets_ns, (std::vector<double>{261795134, 292031398.5, 321231329}));
    QCOMPARE(p->event_tokens, (std::vector<float>{1, 2, 1}));
    QVERIFY(p->tokens_per_event_known());
    QCOMPARE(p->itl_ms().size(), size_t(2));
  }

  void valuesOfOtherTypesReadAsAbsent() {
    json line = full_line(1);
    line["ttft_ms"] = "fast";
    line["lane"] = 5;
    line["index"] = nullptr;
    line["t_sent_ns"] = json::array();
    line["event_offsets_ns"] = json::array({1, "a", nullptr, {{"x", 1}}, {2, 3}, 4});
    line["event_tokens"] = "many";
    line["error"] = {{"kind", "timeout"}, {"message", "no answer"}};
    const auto p = parse(line);
    QVERIFY(p);
    QCOMPARE(p->ttft_ms, -1.0);
    QVERIFY(p->lane.empty());
    QCOMPARE(p->index, int64_t(0));
    QCOMPARE(p->t_sent_ns, int64_t(-1));
    QCOMPARE(p->event_offsets_ns.size(), size_t(6));
    QCOMPARE(p->event_offsets_ns.front(), 1.0);
    QCOMPARE(p->event_offsets_ns.back(), 4.0);
    for (size_t i = 1; i < 5; ++i) QVERIFY(std::isnan(p->event_offsets_ns[i]));
    QVERIFY(p->event_tokens.empty());
    QCOMPARE(p->error_kind, std::string("timeout"));
  }

  // Whole numbers too large for int64 (a damaged file's 5.9e27, found by the run-folder fuzz
  // target) read as absent, not as whatever the conversion makes of them.
  void wholeNumbersOutOfRangeReadAsAbsent() {
    json line = full_line(1);
    line["t_sent_ns"] = 5.90375e27;
    line["t_sched_ns"] = -1e300;
    line["output_tokens"] = 1e19;
    line["index"] = 9.3e18;
    const auto p = parse(line);
    QVERIFY(p);
    QCOMPARE(p->t_sent_ns, int64_t(-1));
    QCOMPARE(p->t_sched_ns, int64_t(-1));
    QCOMPARE(p->output_tokens, int64_t(-1));
    QCOMPARE(p->index, int64_t(0));
    line["t_sent_ns"] = 1234567890123.0;  // in range: read as it is
    QCOMPARE(parse(line)->t_sent_ns, int64_t(1234567890123));
  }

  void escapedKeysAndStringsAreDecoded() {
    const auto p = parse_request_line(
        "{\"la\\u006ee\": \"a\\\"b\\u00e9\", \"ok\": true, \"warmup\": false, \"ttft_ms\": 1e3}",
        nullptr);
    QVERIFY(p);
    QCOMPARE(p->lane, std::string("a\"b\xc3\xa9"));
    QCOMPARE(p->ttft_ms, 1000.0);
  }

  void booleansMustBeBooleans() {
    json line = full_line(1);
    line["ok"] = "yes";
    std::string problem;
    QVERIFY(!parse(line, &problem));
    QCOMPARE(problem, std::string("has fields of the wrong type"));
    line["ok"] = true;
    line["warmup"] = nullptr;
    QVERIFY(!parse(line, &problem));
    QCOMPARE(problem, std::string("has fields of the wrong type"));
  }

  void everyCutOfALineIsRejected() {
    const std::string whole = full_line(3).dump();
    QVERIFY(parse_request_line(whole, nullptr));
    for (size_t n = 1; n < whole.size(); ++n) {
      std::string problem;
      const auto p = parse_request_line(std::string_view(whole).substr(0, n), &problem);
      QVERIFY2(!p, ("accepted a line cut at byte " + std::to_string(n)).c_str());
      QCOMPARE(problem, std::string("is incomplete or not JSON"));
    }
  }

  void whatIsNotOneObjectIsRejected() {
    const std::string one = full_line(1).dump();
    for (const std::string& text :
         {one + " x", one + one, std::string("[1, 2]"), std::string("\"text\""), std::string("\r"),
          std::string("{\"ok\": tru}"), std::string("{,}")}) {
      std::string problem;
      QVERIFY2(!parse_request_line(text, &problem), text.c_str());
      QVERIFY2(problem == "is incomplete or not JSON", (text + ": " + problem).c_str());
    }
    QVERIFY(parse_request_line(one + " \r", nullptr));  // trailing white space is fine
    QVERIFY(parse_request_line("{}", nullptr));         // nothing known, nothing wrong
  }

  // Enough lines for several 8 MB blocks, each split between threads; damaged lines at known
  // numbers, an empty line, and a last line cut short with no newline.
  void blocksKeepFileOrderAndLineNumbers() {
    QTemporaryDir dir;
    std::vector<std::string> lines;
    json line = full_line(0);
    line["event_offsets_ns"] = std::vector<int64_t>(200, 123456789);
    const std::set<size_t> bad = {0, 7776, 15000, 39998};  // 0-based
    for (size_t i = 0; i < 40000; ++i) {
      line["index"] = i;
      if (i == 20000)
        lines.emplace_back();
      else if (bad.count(i))
        lines.push_back("{\"index\": " + std::to_string(i) + ", oops");
      else
        lines.push_back(line.dump());
    }
    lines.push_back(line.dump().substr(0, 100));
    const auto path = write_lines(dir, lines, false);
    QVERIFY(std::filesystem::file_size(path) > 3 * (size_t{8} << 20));

    lb::report::RequestLines kept;
    QVERIFY(lb::report::read_request_lines(path, kept));
    // 40,001 lines: one empty, four damaged, the last cut short.
    QCOMPARE(kept.counts.records, int64_t(40000 - 1 - 4));
    QCOMPARE(kept.points.size(), size_t(40000 - 1 - 4));
    QCOMPARE(kept.counts.torn_lines, int64_t(5));
    for (size_t i = 1; i < kept.points.size(); ++i)
      QVERIFY(kept.points[i].index > kept.points[i - 1].index);
    QCOMPARE(
        kept.counts.warnings,
        (std::vector<std::string>{"requests.jsonl line 1 is incomplete or not JSON; skipped",
                                  "requests.jsonl line 7777 is incomplete or not JSON; skipped",
                                  "requests.jsonl line 15001 is incomplete or not JSON; skipped",
                                  "requests.jsonl line 39999 is incomplete or not JSON; skipped",
                                  "requests.jsonl line 40001 is incomplete or not JSON; skipped"}));

    // Folded as they come: the same points in the same order, the share read rising to 1.
    lb::report::RequestLineCounts counts;
    int64_t next_index = -1, folded = 0;
    double share = 0;
    bool ordered = true, rising = true;
    const lb::report::RequestBlockSink sink = [&](std::vector<RequestPoint>& points, double s) {
      rising = rising && s >= share;
      share = s;
      for (const RequestPoint& p : points) {
        ordered = ordered && p.index > next_index;
        next_index = p.index;
        ++folded;
      }
    };
    QVERIFY(lb::report::read_request_lines(path, sink, counts));
    QVERIFY(ordered);
    QVERIFY(rising);
    QCOMPARE(share, 1.0);
    QCOMPARE(folded, kept.counts.records);
    QCOMPARE(counts.warnings, kept.counts.warnings);
  }

  void aLineLongerThanABlockIsRead() {
    QTemporaryDir dir;
    json big = full_line(1);
    big["event_offsets_ns"] = std::vector<int64_t>(1'200'000, 1234567890);  // ~13 MB
    big["event_tokens"] = nullptr;
    const auto path = write_lines(dir, {full_line(0).dump(), big.dump(), full_line(2).dump()});
    lb::report::RequestLines kept;
    QVERIFY(lb::report::read_request_lines(path, kept));
    QCOMPARE(kept.points.size(), size_t(3));
    QCOMPARE(kept.points[1].event_offsets_ns.size(), size_t(1'200'000));
    QCOMPARE(kept.points[2].index, int64_t(2));
    QCOMPARE(kept.counts.torn_lines, int64_t(0));
  }

  // Issue 36, case 11: requests.jsonl linked to /dev/zero grew until bad_alloc; a FIFO blocked
  // `report` forever. Both are refused at once, saying why.
  void requestsLinkedToADeviceOrAFifoAreRefusedWithoutBlocking() {
    QTemporaryDir dir;
    const std::filesystem::path fifo = dir.filePath("fifo.jsonl").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const std::filesystem::path zero = dir.filePath("requests.jsonl").toStdString();
    std::filesystem::create_symlink("/dev/zero", zero);
    for (const auto& path : {fifo, zero}) {
      lb::report::RequestLines kept;
      QVERIFY(!lb::report::read_request_lines(path, kept));
      QVERIFY(!kept.counts.warnings.empty());
      QVERIFY2(kept.counts.warnings.back().find("not a regular file") != std::string::npos,
               kept.counts.warnings.back().c_str());
    }
  }

  // Issue 36, case 11: a million junk lines kept a million warning strings.
  void junkLinesAreCountedAndOnlyTheFirstTenDescribed() {
    QTemporaryDir dir;
    const std::vector<std::string> lines(100'000, "junk");
    const auto path = write_lines(dir, lines);
    lb::report::RequestLines kept;
    QVERIFY(lb::report::read_request_lines(path, kept));
    QCOMPARE(kept.counts.torn_lines, int64_t(100'000));
    QCOMPARE(kept.counts.warnings.size(), size_t(11));
    QVERIFY2(kept.counts.warnings.back().find("100000 lines") != std::string::npos,
             kept.counts.warnings.back().c_str());
  }

  void missingFileIsReported() {
    QTemporaryDir dir;
    lb::report::RequestLines kept;
    QVERIFY(!lb::report::read_request_lines(dir.filePath("nothing.jsonl").toStdString(), kept));
  }
};

LANEBENCH_TEST_MAIN(ReportRequestLinesTest)
#include "report_request_lines_test.moc"
