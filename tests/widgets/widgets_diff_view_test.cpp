// DiffView: highlight ranges land on the right characters (across line breaks and surrogate
// pairs), refined ranges are darker, an empty answer says so, and the panes scroll together.
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTest>

#include "test_main.h"
#include "widgets/diff/diff_view.h"

using namespace lb::widgets;

class DiffViewTest : public QObject {
  Q_OBJECT
 private slots:
  void ranges_are_applied_per_block() {
    DiffView view;
    DiffSide left{"bf16", "The answer is 42.\nDone.", {{14, 2, DiffKind::Replace, false}}};
    // "😀" is two UTF-16 units: offsets are code units, as the comparer gives them.
    DiffSide right{"fp8",
                   "The answer is 😀 43.\nAll done.",
                   {{14, 3, DiffKind::Insert, false},
                    {17, 2, DiffKind::Replace, false},
                    {18, 1, DiffKind::Replace, true},
                    {21, 3, DiffKind::Insert, false}}};
    view.set_diff(left, right);
    const auto l = view.applied_ranges(DiffView::Side::Left);
    QCOMPARE(l.size(), 1);
    QCOMPARE(l[0].start, 14);
    QCOMPARE(l[0].length, 2);
    QCOMPARE(view.pane(DiffView::Side::Left)->toPlainText().mid(l[0].start, l[0].length),
             QString("42"));
    const auto r = view.applied_ranges(DiffView::Side::Right);
    QCOMPARE(r.size(), 4);
    QCOMPARE(r[3].start, 21);  // second line: offset carried across the block boundary
    QCOMPARE(view.pane(DiffView::Side::Right)->toPlainText().mid(21, 3), QString("All"));
    QCOMPARE(r[0].format.background().color(), DiffView::background_for(DiffKind::Insert, false));
    QVERIFY(r[2].format.background().color().lightness() <
            r[1].format.background().color().lightness());
  }

  void range_spanning_lines_is_split() {
    DiffView view;
    DiffSide a{"a", "one\ntwo\nthree", {{2, 7, DiffKind::Delete, false}}};
    view.set_diff(a, DiffSide{"b", "x", {}});
    const auto ranges = view.applied_ranges(DiffView::Side::Left);
    QCOMPARE(ranges.size(), 3);
    int total = 0;
    for (const auto& r : ranges) total += r.length;
    QCOMPARE(total, 7);
    QVERIFY(view.applied_ranges(DiffView::Side::Right).isEmpty());
  }

  // A change of whitespace only ("a  b" for "a b", a tab for spaces, a line break more) is drawn
  // with visible marks, its highlight on them; a change with letters in it stays as it is.
  void whitespace_only_changes_are_visible() {
    DiffView view;
    DiffSide left{
        "a", "one two\tthree", {{3, 1, DiffKind::Delete, false}, {7, 1, DiffKind::Replace, false}}};
    DiffSide right{"b",
                   "one  two    three\nx y",
                   {{3, 2, DiffKind::Insert, false},
                    {8, 4, DiffKind::Replace, false},
                    {17, 1, DiffKind::Insert, false},
                    {18, 3, DiffKind::Insert, false}}};
    view.set_diff(left, right);
    QCOMPARE(view.pane(DiffView::Side::Left)->toPlainText(), QString("one\u00b7two\u2192three"));
    QCOMPARE(view.pane(DiffView::Side::Right)->toPlainText(),
             QString("one\u00b7\u00b7two\u00b7\u00b7\u00b7\u00b7three\u21b5\nx y"));
    const auto r = view.applied_ranges(DiffView::Side::Right);
    // "↵" and the break it marks are highlighted; the range after them moved by one, and "x y"
    // (letters in it) keeps its space.
    QString text = view.pane(DiffView::Side::Right)->toPlainText();
    QStringList highlighted;
    for (const auto& f : r) highlighted << text.mid(f.start, f.length);
    QVERIFY2(highlighted.join("|").contains(QString("\u21b5")), qPrintable(highlighted.join("|")));
    QCOMPARE(highlighted.last(), QString("x y"));
    // Nothing changes for a side without whitespace-only ranges.
    const DiffSide plain{"p", "a b", {{0, 1, DiffKind::Replace, false}}};
    QCOMPARE(with_visible_whitespace(plain).text, plain.text);
  }

  void an_empty_answer_says_so_after_a_message() {
    DiffView view;
    view.show_message("Highlighting…");
    view.set_diff({"a", "an answer", {}}, {"b", "", {}});
    QCOMPARE(view.pane(DiffView::Side::Right)->placeholderText(), QString("(empty answer)"));
    QCOMPARE(view.pane(DiffView::Side::Left)->placeholderText(), QString());
  }

  void scrolling_is_synchronised() {
    DiffView view;
    view.resize(700, 300);
    QString long_text;
    for (int i = 0; i < 400; ++i) long_text += QString("line %1\n").arg(i);
    view.set_diff({"a", long_text, {}}, {"b", long_text + long_text, {}});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QScrollBar* left = view.pane(DiffView::Side::Left)->verticalScrollBar();
    QScrollBar* right = view.pane(DiffView::Side::Right)->verticalScrollBar();
    QVERIFY(left->maximum() > 0);
    left->setValue(left->maximum() / 2);
    QVERIFY(std::abs(right->value() - right->maximum() / 2) <= 2);
    right->setValue(right->maximum());
    QCOMPARE(left->value(), left->maximum());
  }
};

LANEBENCH_TEST_MAIN(DiffViewTest)
#include "widgets_diff_view_test.moc"
