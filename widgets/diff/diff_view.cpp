#include "widgets/diff/diff_view.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStringView>
#include <QTextBlock>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

namespace lb::widgets {
namespace {

QPlainTextEdit* make_pane(QWidget* parent) {
  auto* pane = new QPlainTextEdit(parent);
  pane->setReadOnly(true);
  pane->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  pane->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  pane->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setPointSize(std::max(font.pointSize(), 10));
  pane->setFont(font);
  return pane;
}

QLabel* make_title(QWidget* parent) {
  auto* label = new QLabel(parent);
  QFont f = label->font();
  f.setBold(true);
  label->setFont(f);
  return label;
}

}  // namespace

DiffSide with_visible_whitespace(const DiffSide& side) {
  const int n = static_cast<int>(side.text.size());
  // Which characters lie in a changed range of whitespace only (ranges may nest: a refined
  // range inside a replaced one).
  std::vector<bool> shown(static_cast<size_t>(n), false);
  for (const DiffRange& r : side.ranges) {
    const int b = std::clamp(r.start, 0, n), e = std::clamp(r.start + r.length, b, n);
    const QStringView part = QStringView(side.text).mid(b, e - b);
    if (r.kind == DiffKind::Equal || part.isEmpty() ||
        !std::all_of(part.begin(), part.end(), [](QChar c) { return c.isSpace(); }))
      continue;
    for (int i = b; i < e; ++i) shown[static_cast<size_t>(i)] = true;
  }
  DiffSide out;
  out.title = side.title;
  out.text.reserve(n);
  std::vector<int> moved(static_cast<size_t>(n) + 1);  // old offset -> new offset
  for (int i = 0; i < n; ++i) {
    moved[static_cast<size_t>(i)] = static_cast<int>(out.text.size());
    const QChar c = side.text[i];
    if (!shown[static_cast<size_t>(i)]) {
      out.text += c;
    } else if (c == '\n') {
      out.text += QChar(0x21B5);  // ↵, then the break itself
      out.text += c;
    } else {
      out.text += c == '\t' ? QChar(0x2192) : QChar(0x00B7);  // → ·
    }
  }
  moved[static_cast<size_t>(n)] = static_cast<int>(out.text.size());
  for (const DiffRange& r : side.ranges) {
    const int b = std::clamp(r.start, 0, n), e = std::clamp(r.start + r.length, b, n);
    DiffRange m = r;
    m.start = moved[static_cast<size_t>(b)];
    m.length = moved[static_cast<size_t>(e)] - m.start;
    out.ranges.push_back(m);
  }
  return out;
}

QColor DiffView::background_for(DiffKind kind, bool refined) {
  switch (kind) {
    case DiffKind::Equal:
      return QColor(Qt::transparent);
    case DiffKind::Replace:
      return refined ? QColor(0xF2, 0xC0, 0x5C) : QColor(0xFD, 0xEB, 0xC4);
    case DiffKind::Insert:
      return refined ? QColor(0x7C, 0xD3, 0x8C) : QColor(0xD4, 0xF4, 0xD9);
    case DiffKind::Delete:
      return refined ? QColor(0xF0, 0x8A, 0x8A) : QColor(0xFC, 0xDA, 0xDA);
  }
  return QColor(Qt::transparent);
}

DiffView::DiffView(QWidget* parent) : QWidget(parent) {
  left_ = make_pane(this);
  right_ = make_pane(this);
  left_title_ = make_title(this);
  right_title_ = make_title(this);
  left_->setAccessibleName(tr("Left output"));
  right_->setAccessibleName(tr("Right output"));
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addWidget(left_title_, 0, 0);
  grid->addWidget(right_title_, 0, 1);
  grid->addWidget(left_, 1, 0);
  grid->addWidget(right_, 1, 1);
  grid->setColumnStretch(0, 1);
  grid->setColumnStretch(1, 1);
  grid->setRowStretch(1, 1);  // the texts take the height; a footer keeps its own
  for (const auto& pair : {std::pair{left_, right_}, std::pair{right_, left_}}) {
    auto* from = pair.first;
    auto* to = pair.second;
    connect(from->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this, from, to] { sync_scroll(from, to, true); });
    connect(from->horizontalScrollBar(), &QScrollBar::valueChanged, this,
            [this, from, to] { sync_scroll(from, to, false); });
  }
}

void DiffView::sync_scroll(QPlainTextEdit* from, QPlainTextEdit* to, bool vertical) {
  if (syncing_) return;
  syncing_ = true;
  // Proportional: the two outputs rarely have the same length, so the same fraction of each
  // keeps corresponding passages roughly side by side.
  QScrollBar* src = vertical ? from->verticalScrollBar() : from->horizontalScrollBar();
  QScrollBar* dst = vertical ? to->verticalScrollBar() : to->horizontalScrollBar();
  const int src_span = src->maximum() - src->minimum();
  const double fraction = src_span > 0 ? double(src->value() - src->minimum()) / src_span : 0.0;
  dst->setValue(dst->minimum() +
                static_cast<int>(fraction * (dst->maximum() - dst->minimum()) + 0.5));
  syncing_ = false;
}

void DiffView::set_diff(const DiffSide& left, const DiffSide& right) {
  apply(left_, left_title_, with_visible_whitespace(left));
  apply(right_, right_title_, with_visible_whitespace(right));
}

void DiffView::show_message(const QString& text) {
  for (QPlainTextEdit* pane : {left_, right_}) {
    pane->clear();
    pane->setPlaceholderText(text);
  }
}

void DiffView::clear() {
  show_message(QString());
  left_title_->clear();
  right_title_->clear();
}

void DiffView::apply(QPlainTextEdit* pane, QLabel* title, const DiffSide& side) {
  title->setText(side.title);
  pane->setPlainText(side.text);
  // An empty answer says so, rather than keeping the "Highlighting…" shown while it was computed.
  pane->setPlaceholderText(side.text.isEmpty() ? tr("(empty answer)") : QString());
  QTextDocument* doc = pane->document();
  // Split every range at block boundaries and hand each block its own format list.
  auto range = side.ranges.begin();
  for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
    const int b_start = block.position();
    const int b_end = b_start + block.length();  // includes the separator
    QList<QTextLayout::FormatRange> formats;
    while (range != side.ranges.end() && range->start + range->length <= b_start) ++range;
    for (auto r = range; r != side.ranges.end() && r->start < b_end; ++r) {
      if (r->kind == DiffKind::Equal || r->length <= 0) continue;
      const int s = std::max(r->start, b_start);
      const int e = std::min(r->start + r->length, b_end);
      if (e <= s) continue;
      QTextCharFormat format;
      format.setBackground(background_for(r->kind, r->refined));
      if (r->kind == DiffKind::Delete || r->kind == DiffKind::Insert) format.setFontWeight(600);
      formats.append({s - b_start, e - s, format});
    }
    block.layout()->setFormats(formats);
  }
  doc->markContentsDirty(0, doc->characterCount());
}

QList<QTextLayout::FormatRange> DiffView::applied_ranges(Side side) const {
  QList<QTextLayout::FormatRange> out;
  const QTextDocument* doc = pane(side)->document();
  for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
    for (QTextLayout::FormatRange r : block.layout()->formats()) {
      r.start += block.position();
      out.append(r);
    }
  }
  return out;
}

QPlainTextEdit* DiffView::pane(Side side) const { return side == Side::Left ? left_ : right_; }

void DiffView::set_pane_footer(Side side, QWidget* footer) {
  const int column = side == Side::Left ? 0 : 1;
  auto* grid = static_cast<QGridLayout*>(layout());
  if (QWidget* old = footers_[column]) {
    grid->removeWidget(old);
    old->deleteLater();
  }
  footers_[column] = nullptr;
  if (!footer) return;
  // A box with the text's indent, so the footer's first pixel sits under the text's first.
  auto* box = new QWidget(this);
  auto* inner = new QVBoxLayout(box);
  QPlainTextEdit* text = pane(side);
  const int indent = text->frameWidth() + static_cast<int>(text->document()->documentMargin());
  inner->setContentsMargins(indent, 0, indent, 0);
  inner->setSpacing(0);
  inner->addWidget(footer);
  grid->addWidget(box, 2, column);
  footers_[column] = box;
}

QWidget* DiffView::pane_footer(Side side) const { return footers_[side == Side::Left ? 0 : 1]; }

}  // namespace lb::widgets
