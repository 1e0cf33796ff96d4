#include "ui/review/token_strip.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <cmath>

#include "ui/review/token_evidence.h"

namespace lb::ui {
namespace {

constexpr int kPadX = 3;
constexpr int kGap = 2;
constexpr int kMaxLabelChars = 24;

}  // namespace

TokenStrip::TokenStrip(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  setMouseTracking(false);
  setAccessibleName(tr("Token strip"));
}

void TokenStrip::set_tokens(logprobs::TokenSeries tokens, int64_t divergence_index) {
  tokens_ = std::move(tokens);
  divergence_ = divergence_index;
  selected_ = -1;
  layout_rects(width(), &rects_);
  updateGeometry();
  update();
}

void TokenStrip::set_selected(int index) {
  selected_ = index >= 0 && index < token_count() ? index : -1;
  update();
}

QColor TokenStrip::shade_for(double logprob) {
  if (!std::isfinite(logprob)) return QColor(0xC8, 0xC8, 0xC8);
  const double p = std::clamp(std::exp(logprob), 0.0, 1.0);
  // White at p = 1, saturated orange at p = 0.
  return QColor::fromHsvF(0.08f, static_cast<float>(0.85 * (1.0 - p)), 1.0f);
}

QString TokenStrip::label(int index) const {
  QString text = QString::fromUtf8(tokens_[static_cast<size_t>(index)].token);
  text.replace('\n', QStringLiteral("↵")).replace('\t', QStringLiteral("⇥"));
  if (text.startsWith(' ')) text.replace(0, 1, QStringLiteral("·"));
  if (text.isEmpty()) text = QStringLiteral("∅");
  if (text.size() > kMaxLabelChars) text = text.left(kMaxLabelChars - 1) + QStringLiteral("…");
  return text;
}

int TokenStrip::layout_rects(int width, std::vector<QRect>* rects) const {
  rects->clear();
  const QFontMetrics fm(font());
  const int h = fm.height() + 4;
  int x = 0, y = 0;
  for (int i = 0; i < token_count(); ++i) {
    const int w = fm.horizontalAdvance(label(i)) + 2 * kPadX;
    if (x > 0 && x + w > width) x = 0, y += h + kGap;
    rects->emplace_back(x, y, w, h);
    x += w + kGap;
  }
  return rects->empty() ? h : y + h;
}

int TokenStrip::heightForWidth(int width) const {
  std::vector<QRect> rects;
  return layout_rects(std::max(width, 50), &rects);
}

QSize TokenStrip::sizeHint() const { return {300, heightForWidth(std::max(width(), 300))}; }

void TokenStrip::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layout_rects(width(), &rects_);
}

QRect TokenStrip::token_rect(int index) const {
  return index >= 0 && static_cast<size_t>(index) < rects_.size()
             ? rects_[static_cast<size_t>(index)]
             : QRect();
}

int TokenStrip::index_at(const QPoint& pos) const {
  for (size_t i = 0; i < rects_.size(); ++i)
    if (rects_[i].contains(pos)) return static_cast<int>(i);
  return -1;
}

void TokenStrip::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  if (tokens_.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, tr("No logprobs for this answer."));
    return;
  }
  for (int i = 0; i < token_count() && static_cast<size_t>(i) < rects_.size(); ++i) {
    const QRect r = rects_[static_cast<size_t>(i)];
    painter.fillRect(r, shade_for(tokens_[static_cast<size_t>(i)].logprob));
    painter.setPen(Qt::black);
    painter.drawText(r, Qt::AlignCenter, label(i));
    if (i == divergence_ || i == selected_) {
      painter.setPen(
          QPen(i == divergence_ ? QColor(0xC6, 0x28, 0x28) : QColor(0x15, 0x65, 0xC0), 2));
      painter.drawRect(r.adjusted(1, 1, -1, -1));
    }
  }
}

void TokenStrip::mousePressEvent(QMouseEvent* event) {
  const int i = index_at(event->position().toPoint());
  if (i < 0) return QWidget::mousePressEvent(event);
  set_selected(i);
  emit token_clicked(i);
}

bool TokenStrip::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip) return QWidget::event(event);
  auto* help = static_cast<QHelpEvent*>(event);
  const int i = index_at(help->pos());
  if (i < 0) {
    QToolTip::hideText();
    return true;
  }
  const auto& t = tokens_[static_cast<size_t>(i)];
  QString tip = tr("Token %1: \"%2\"\n%3").arg(i).arg(label(i), logprob_text(t.logprob));
  if (i == divergence_) tip += tr("\nFirst divergent token");
  if (t.flags) tip += "\n" + QString::fromStdString(logprobs::describe_flags(t.flags));
  tip += tr("\nShading: white = sure (p ≈ 1), deeper orange = less sure. Click for the top-K.");
  QToolTip::showText(help->globalPos(), tip, this);
  return true;
}

}  // namespace lb::ui
