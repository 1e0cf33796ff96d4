// SequenceMatcher on the examples of CPython's difflib documentation and on the autojunk rule,
// with values printed by CPython 3.11.
#include <QtTest>

#include "test_main.h"

#include <string>

#include "core/compare/code_point_text.h"
#include "core/compare/sequence_matcher.h"
#include "core/compare/similarity.h"

using namespace lb::compare;

namespace {
std::vector<char32_t> cps(std::string_view utf8) {
  const std::u32string s = decode_utf8(utf8);
  return {s.begin(), s.end()};
}
CharMatcher matcher(std::string_view a, std::string_view b,
                    CharMatcher::JunkPredicate junk = nullptr) {
  return CharMatcher(cps(a), cps(b), std::move(junk));
}
const auto kSpaceIsJunk = [](const char32_t& c) { return c == U' '; };
}  // namespace

class SequenceMatcherTest : public QObject {
  Q_OBJECT

 private slots:
  void junkPredicateExampleFromDocs() {
    const auto m = matcher("private Thread currentThread;",
                           "private volatile Thread currentThread;", kSpaceIsJunk);
    QCOMPARE(m.ratio(), 0.8656716417910447);
    const std::vector<Match> expected{{0, 0, 8}, {8, 17, 21}, {29, 38, 0}};
    QVERIFY(m.matching_blocks() == expected);
  }

  void findLongestMatchJunkExtension() {
    QVERIFY((matcher(" abcd", "abcd abcd").find_longest_match(0, 5, 0, 9) == Match{0, 4, 5}));
    QVERIFY((matcher(" abcd", "abcd abcd", kSpaceIsJunk).find_longest_match(0, 5, 0, 9) ==
             Match{1, 0, 4}));
  }

  void opcodesExampleFromDocs() {
    const std::vector<Opcode> expected{{OpTag::Delete, 0, 1, 0, 0},
                                       {OpTag::Equal, 1, 3, 0, 2},
                                       {OpTag::Replace, 3, 4, 2, 3},
                                       {OpTag::Equal, 4, 6, 3, 5},
                                       {OpTag::Insert, 6, 6, 5, 6}};
    QVERIFY(matcher("qabxcd", "abycdf").opcodes() == expected);
  }

  void emptySequencesHaveRatioOne() {
    QCOMPARE(similarity_ratio("", ""), 1.0);
    QCOMPARE(similarity_ratio("", "abc"), 0.0);
    const auto m = matcher("", "");
    QCOMPARE(m.matching_blocks().size(), std::size_t(1));
    QVERIFY(m.opcodes().empty());
  }

  void astralCodePointIsOneElement() {
    // Python: SequenceMatcher(None, "a😀b", "a😀c").ratio() == 0.6666666666666666 (3 elements
    // each); counting UTF-16 units or bytes would give a different ratio.
    const auto m = matcher("a\U0001F600b", "a\U0001F600c");
    QCOMPARE(m.a().size(), std::size_t(3));
    QCOMPARE(m.ratio(), 0.6666666666666666);
  }

  void autojunkDropsPopularElementsFrom200On() {
    // Python: b = "a"*200 makes "a" popular, and nothing else can match: ratio 0.0.
    const auto popular =
        matcher(std::string(100, 'x') + std::string(200, 'a'), std::string(200, 'a'));
    QCOMPARE(popular.popular_count(), std::size_t(1));
    QCOMPARE(popular.ratio(), 0.0);
    QCOMPARE(matcher("b" + std::string(199, 'a'), std::string(199, 'a') + "b").ratio(), 0.005);
    const auto with_autojunk_off = CharMatcher(cps(std::string(100, 'x') + std::string(200, 'a')),
                                               cps(std::string(200, 'a')), nullptr, false);
    QCOMPARE(with_autojunk_off.popular_count(), std::size_t(0));
    QCOMPARE(with_autojunk_off.ratio(), 0.8);
    QCOMPARE(matcher(std::string(199, 'a'), std::string(199, 'a') + "b").ratio(),
             0.9974937343358395);
  }

  void worksOverAnyHashableElement() {
    using Lines = SequenceMatcher<std::string>;
    const Lines m({"one", "two", "three"}, {"one", "2", "three", "four"});
    QCOMPARE(m.ratio(), 2.0 * 2 / 7);
    QCOMPARE(m.opcodes().size(), std::size_t(4));
    QCOMPARE(m.quick_ratio(), 2.0 * 2 / 7);
    QCOMPARE(m.real_quick_ratio(), 2.0 * 3 / 7);
  }

  void invalidUtf8BytesStayDistinct() {
    const std::u32string s = decode_utf8(
        "a\xff\xfe"
        "b");
    QCOMPARE(s.size(), std::size_t(4));
    QCOMPARE(static_cast<uint32_t>(s[1]), 0xDCFFu);
    QCOMPARE(encode_utf8(s), std::string("a\xff\xfe"
                                         "b"));
  }

  void offsetsInBytesAndUtf16Units() {
    const CodePointText t("a\u00e9\u4e2d\U0001F600z");
    QCOMPARE(t.size(), std::size_t(5));
    QCOMPARE(t.utf8_offset(4), std::size_t(1 + 2 + 3 + 4));
    QCOMPARE(t.utf16_offset(4), std::size_t(1 + 1 + 1 + 2));
    QCOMPARE(t.utf16_size(), std::size_t(6));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SequenceMatcherTest)
#include "compare_sequence_matcher_test.moc"
