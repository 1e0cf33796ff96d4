#include "widgets/table/provenance_delegate.h"

#include <QApplication>
#include <QPainter>

namespace lb::widgets {
namespace {
constexpr int kBadgeWidthPx = 16;
constexpr int kBadgeGapPx = ProvenanceDelegate::kBadgeSpacePx - kBadgeWidthPx;
}  // namespace

ProvenanceDelegate::ProvenanceDelegate(int role, QObject* parent)
    : QStyledItemDelegate(parent), role_(role) {}

QColor ProvenanceDelegate::badge_color(const QString& provenance) {
  if (provenance == "measured") return QColor(0x2E, 0x7D, 0x32);
  if (provenance == "server") return QColor(0x15, 0x65, 0xC0);
  if (provenance == "estimated") return QColor(0xB2, 0x6A, 0x00);
  return QColor(Qt::gray);
}

void ProvenanceDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
  const QString provenance = index.data(role_).toString();
  if (provenance.isEmpty()) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  QStyleOptionViewItem text_option = option;
  text_option.rect.adjust(0, 0, -(kBadgeWidthPx + kBadgeGapPx), 0);
  QStyledItemDelegate::paint(painter, text_option, index);
  const QRect badge(option.rect.right() - kBadgeWidthPx - 1,
                    option.rect.center().y() - kBadgeWidthPx / 2 + 1, kBadgeWidthPx,
                    kBadgeWidthPx - 2);
  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(Qt::NoPen);
  painter->setBrush(badge_color(provenance));
  painter->drawRoundedRect(badge, 4, 4);
  QFont f = option.font;
  f.setPointSizeF(std::max(6.0, f.pointSizeF() * 0.75));
  f.setBold(true);
  painter->setFont(f);
  painter->setPen(Qt::white);
  painter->drawText(badge, Qt::AlignCenter, provenance.left(1).toUpper());
  painter->restore();
}

QSize ProvenanceDelegate::sizeHint(const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const {
  QSize size = QStyledItemDelegate::sizeHint(option, index);
  if (!index.data(role_).toString().isEmpty()) size.rwidth() += kBadgeWidthPx + kBadgeGapPx;
  return size;
}

}  // namespace lb::widgets
