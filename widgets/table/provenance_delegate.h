#pragma once
// Paints a value cell with a small badge saying where the figure comes from: M (measured by the
// client clock), S (the server's own counters or usage), E (estimated). The model exposes the
// provenance as a string ("measured", "server", "estimated") under `role`.
#include <QStyledItemDelegate>

namespace lb::widgets {

class ProvenanceDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  ProvenanceDelegate(int role, QObject* parent = nullptr);
  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  static QColor badge_color(const QString& provenance);
  // The width a badge takes beside a cell's text, gap included.
  static constexpr int kBadgeSpacePx = 20;

 private:
  int role_;
};

}  // namespace lb::widgets
