// SseFramer and NdjsonFramer against the WHATWG SSE rules, every line ending, read boundaries
// anywhere (including between CR and LF and inside UTF-8 characters) and the size limit.
#include <QtTest>

#include <string>
#include <vector>
#include "test_main.h"

#include "core/net/ndjson_framer.h"
#include "core/net/sse_framer.h"

using lb::net::NdjsonFramer;
using lb::net::SseEvent;
using lb::net::SseFramer;

namespace {

struct Seen {
  std::string type, data, id;
  bool legacy_error = false;
  bool operator==(const Seen&) const = default;
};

// Frames `bytes` cut at every position in `cuts`, then finishes.
std::vector<Seen> frame(const std::string& bytes, const std::vector<size_t>& cuts = {},
                        size_t limit = 1 << 20, bool* ok = nullptr) {
  std::vector<Seen> seen;
  SseFramer framer(limit, [&](const SseEvent& e) {
    seen.push_back({std::string(e.type), std::string(e.data), std::string(e.id), e.legacy_error});
  });
  size_t pos = 0;
  bool fed = true;
  for (size_t cut : cuts) {
    fed = framer.feed(std::string_view(bytes).substr(pos, cut - pos)) && fed;
    pos = cut;
  }
  fed = framer.feed(std::string_view(bytes).substr(pos)) && fed;
  framer.finish();
  if (ok) *ok = fed;
  return seen;
}

}  // namespace

class TestSseFramer : public QObject {
  Q_OBJECT
 private slots:
  void lineEndings() {
    const std::vector<Seen> want = {{"", "a", ""}, {"", "b", ""}};
    QVERIFY(frame("data: a\n\ndata: b\n\n") == want);
    QVERIFY(frame("data: a\r\n\r\ndata: b\r\n\r\n") == want);
    QVERIFY(frame("data: a\r\rdata: b\r\r") == want);
    QVERIFY(frame("data: a\r\n\ndata: b\n\r\n") == want);
  }

  void byteOrderMarkSplitAcrossReads() {
    // Found by fuzz/fuzz_sse_framer: a BOM cut by the first reads was kept as data, so the first
    // field name became "\xEF\xBB\xBFid" and the line was dropped.
    const std::string bytes = "\xEF\xBB\xBFid: 7\ndata: a\n\n";
    const std::vector<Seen> want = {{"", "a", "7"}};
    QVERIFY(frame(bytes) == want);
    QVERIFY((frame(bytes, {1}) == want));
    QVERIFY((frame(bytes, {1, 2}) == want));
    QVERIFY((frame(bytes, {2, 3}) == want));
    // A partial BOM followed by something else is data, as before (an unknown field here).
    QVERIFY((frame("\xEF\xBBid: 7\ndata: a\n\n", {1}) == std::vector<Seen>{{"", "a", ""}}));
  }

  void crAtReadBoundaryIsOneLineEnding() {
    // "data: a\r" | "\n\r" | "\n" : the LF after a CR that ended a read is the same line ending,
    // so exactly one event follows, not an extra blank-line dispatch.
    const std::string bytes = "data: a\r\n\r\ndata: b\r\n\r\n";
    for (size_t cut = 0; cut <= bytes.size(); ++cut) {
      QVERIFY2((frame(bytes, {cut}) == std::vector<Seen>{{"", "a", ""}, {"", "b", ""}}),
               qPrintable(QString("cut at %1").arg(cut)));
    }
    // CR-only stream split right after each CR.
    QVERIFY((frame("data: x\r\rdata: y\r\r", {8, 9, 17}) ==
             std::vector<Seen>{{"", "x", ""}, {"", "y", ""}}));
  }

  void fieldsCommentsAndSpaces() {
    const std::string bytes =
        ": comment\n:\n\n"       // comments only: no event
        "data:nospace\n\n"       // no space after the colon
        "data:  two spaces\n\n"  // only one space is stripped
        "event: error\ndata: {}\nid: 7\n\n"
        "data: line1\ndata: line2\n\n"
        "data\n\n"                   // field without colon = empty value
        "retry: 100\nfoo: bar\n\n";  // no data: no event
    const std::vector<Seen> want = {{"", "nospace", ""},
                                    {"", " two spaces", ""},
                                    {"error", "{}", "7"},
                                    {"", "line1\nline2", "7"},
                                    {"", "", "7"}};
    QVERIFY(frame(bytes) == want);
  }

  void legacyErrorFieldIsSurfaced() {
    const auto seen = frame("error: {\"message\":\"boom\"}\n\ndata: [DONE]\n\n");
    QCOMPARE(seen.size(), size_t(2));
    QVERIFY(seen[0].legacy_error);
    QCOMPARE(seen[0].data, std::string("{\"message\":\"boom\"}"));
    QVERIFY(!seen[1].legacy_error);
  }

  void utf8SplitInsideCharacter() {
    const std::string bytes = "data: Caf\xC3\xA9 \xF0\x9F\x98\x80\n\n";
    for (size_t cut = 0; cut <= bytes.size(); ++cut) {
      const auto seen = frame(bytes, {cut});
      QCOMPARE(seen.size(), size_t(1));
      QCOMPARE(seen[0].data, std::string("Caf\xC3\xA9 \xF0\x9F\x98\x80"));
    }
  }

  void everyTwoWaySplitOfAMixedStream() {
    const std::string bytes =
        "\xEF\xBB\xBF: hi\r\n\r\nevent: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata:3\n\n"
        "data: 4\r\r: ping\r\rdata: 5\n\n";
    const auto whole = frame(bytes);
    QCOMPARE(whole.size(), size_t(4));
    for (size_t a = 0; a <= bytes.size(); ++a) {
      for (size_t b = a; b <= bytes.size(); b += 7) {
        QVERIFY2(frame(bytes, {a, b}) == whole, qPrintable(QString("cuts %1 %2").arg(a).arg(b)));
      }
    }
  }

  void finalEventWithoutBlankLineIsKept() {
    QVERIFY((frame("data: a\n\ndata: b") == std::vector<Seen>{{"", "a", ""}, {"", "b", ""}}));
    QVERIFY((frame("data: a\n\ndata: b\n") == std::vector<Seen>{{"", "a", ""}, {"", "b", ""}}));
  }

  void sizeLimit() {
    bool ok = true;
    const std::string big = "data: " + std::string(5000, 'x') + "\n\n";
    QVERIFY(frame(big, {}, 4096, &ok).empty());
    QVERIFY(!ok);
    // Many small data lines add up to one big event: still caught.
    std::string lines;
    for (int i = 0; i < 100; ++i) lines += "data: " + std::string(100, 'y') + "\n";
    QVERIFY(frame(lines + "\n", {}, 4096, &ok).empty());
    QVERIFY(!ok);
    SseFramer framer(4096, [](const SseEvent&) {});
    QVERIFY(!framer.feed(big));
    QVERIFY(framer.error().find("4096") != std::string::npos);
    // Under the limit passes.
    QCOMPARE(frame(big, {}, 8192, &ok).size(), size_t(1));
    QVERIFY(ok);
  }

  void ndjsonLines() {
    const std::string bytes = "{\"a\":1}\r\n\n{\"b\":2}\n{\"c\":3}";
    for (size_t cut = 0; cut <= bytes.size(); ++cut) {
      std::vector<std::string> lines;
      NdjsonFramer framer(1024, [&](std::string_view l) { lines.emplace_back(l); });
      QVERIFY(framer.feed(std::string_view(bytes).substr(0, cut)));
      QVERIFY(framer.feed(std::string_view(bytes).substr(cut)));
      framer.finish();
      QCOMPARE(lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
    }
    NdjsonFramer small(8, [](std::string_view) {});
    QVERIFY(!small.feed("{\"long\": 123456}\n"));
    QVERIFY(small.failed());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestSseFramer)
#include "net_sse_framer_test.moc"
