// The highlight model: word diff refined to characters, short equal runs folded, and ranges that
// QString (UTF-16) and HTML (UTF-8 bytes) agree with.
#include <QElapsedTimer>
#include <QString>
#include <QtTest>

#include "test_main.h"

#include "core/compare/diff_highlight.h"
#include "generated_text.h"

using namespace lb::compare;

namespace {
std::string slice(std::string_view text, const TextRange& bytes) {
  return std::string(text.substr(bytes.begin, bytes.size()));
}

// Runs must tile both texts, and equal runs must hold equal text.
bool runs_are_consistent(const DiffHighlight& h, std::string_view a, std::string_view b) {
  std::size_t ea = 0;
  std::size_t eb = 0;
  for (const auto& run : h.runs()) {
    if (run.a.utf8.begin != ea || run.b.utf8.begin != eb) return false;
    if (run.tag == OpTag::Equal && slice(a, run.a.utf8) != slice(b, run.b.utf8)) return false;
    ea = run.a.utf8.end;
    eb = run.b.utf8.end;
  }
  return ea == a.size() && eb == b.size();
}
}  // namespace

class DiffHighlightTest : public QObject {
  Q_OBJECT

 private slots:
  void identicalTextsHaveNoHighlight() {
    const auto h = DiffHighlight::compute("same text", "same text");
    QVERIFY(h.identical());
    QVERIFY(h.changed_ranges(Side::A, Unit::Utf16).empty());
  }

  void shortEqualRunBetweenChangesIsFolded() {
    // "the cat" -> "a dog": the single space between the changed words is folded in.
    const std::string a = "the cat sat down";
    const std::string b = "a dog sat down";
    const auto h = DiffHighlight::compute(a, b);
    const auto ra = h.changed_ranges(Side::A, Unit::Utf8);
    const auto rb = h.changed_ranges(Side::B, Unit::Utf8);
    QCOMPARE(ra.size(), std::size_t(1));
    QCOMPARE(slice(a, ra[0]), std::string("the cat"));
    QCOMPARE(slice(b, rb[0]), std::string("a dog"));
    QVERIFY(runs_are_consistent(h, a, b));
  }

  void replacedWordIsRefinedToCharacters() {
    const std::string a = "results are running fast";
    const std::string b = "results are runner fast";
    const auto h = DiffHighlight::compute(a, b);
    const auto ra = h.changed_ranges(Side::A, Unit::Utf8);
    const auto rb = h.changed_ranges(Side::B, Unit::Utf8);
    QCOMPARE(ra.size(), std::size_t(1));
    QCOMPARE(slice(a, ra[0]), std::string("ing"));
    QCOMPARE(slice(b, rb[0]), std::string("er"));
  }

  void loneMatchingLettersDoNotScatter() {
    const std::string a = "I like cats.";
    const std::string b = "I like dogs.";
    const auto h = DiffHighlight::compute(a, b);
    const auto ra = h.changed_ranges(Side::A, Unit::Utf8);
    QCOMPARE(ra.size(), std::size_t(1));
    QCOMPARE(slice(a, ra[0]), std::string("cats"));
    const auto numbers = DiffHighlight::compute("answer 42", "answer 24");
    QCOMPARE(slice("answer 24", numbers.changed_ranges(Side::B, Unit::Utf8).at(0)),
             std::string("24"));
  }

  void utf16RangesMatchQString() {
    const std::string a = "Émoji \U0001F600 then the total is 165 minutes \u4e2d\u6587";
    const std::string b = "Émoji \U0001F600 then the total is 175 minutes \u4e2d\u6587!";
    const auto h = DiffHighlight::compute(a, b);
    const QString qa = QString::fromUtf8(a.data(), static_cast<qsizetype>(a.size()));
    const QString qb = QString::fromUtf8(b.data(), static_cast<qsizetype>(b.size()));
    const auto ua = h.changed_ranges(Side::A, Unit::Utf16);
    const auto ub = h.changed_ranges(Side::B, Unit::Utf16);
    QCOMPARE(ua.size(), std::size_t(1));
    QCOMPARE(qa.mid(static_cast<qsizetype>(ua[0].begin), static_cast<qsizetype>(ua[0].size())),
             QString("165"));
    QCOMPARE(ub.size(), std::size_t(2));
    QCOMPARE(qb.mid(static_cast<qsizetype>(ub[0].begin), static_cast<qsizetype>(ub[0].size())),
             QString("175"));
    QCOMPARE(qb.mid(static_cast<qsizetype>(ub[1].begin)), QString("!"));
    const auto bytes = h.changed_ranges(Side::A, Unit::Utf8);
    QCOMPARE(slice(a, bytes[0]), std::string("165"));
    QCOMPARE(bytes[0].begin, a.find("165"));
  }

  void insertAndDeleteRunsAreEmptyOnOneSide() {
    const std::string a = "keep this sentence.";
    const std::string b = "keep this whole sentence.";
    const auto h = DiffHighlight::compute(a, b);
    QVERIFY(h.changed_ranges(Side::A, Unit::CodePoints).empty());
    QCOMPARE(slice(b, h.changed_ranges(Side::B, Unit::Utf8).at(0)), std::string("whole "));
    QVERIFY(runs_are_consistent(h, a, b));
  }

  void longTextsAreHighlightedQuicklyAndConsistently() {
    const auto [a, b] = testing::generated_pair(11, 30000, 5);
    QElapsedTimer timer;
    timer.start();
    const auto h = DiffHighlight::compute(a, b);
    const qint64 elapsed_ms = timer.elapsed();
    QVERIFY(a.size() >= 150 * 1024);
    QVERIFY(runs_are_consistent(h, a, b));
    QVERIFY(!h.changed_ranges(Side::B, Unit::Utf16).empty());
    // The benchmark holds the real bar (< 100 ms on a release build); this catches a blow-up.
    QVERIFY2(elapsed_ms < 2000, std::to_string(elapsed_ms).c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(DiffHighlightTest)
#include "compare_diff_highlight_test.moc"
