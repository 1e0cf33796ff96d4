#include "widgets/table/spare_width.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>

namespace lb::widgets {

SpareWidth::SpareWidth(QTableView* table, int first)
    : QObject(table), table_(table), first_(first) {
  table_->viewport()->installEventFilter(this);
  connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
    if (!fitting_) user_sized_ = true;
  });
}

void SpareWidth::fit() {
  user_sized_ = false;
  QHeaderView* header = table_->horizontalHeader();
  const int count = header->count();
  if (count <= first_) return;
  fitting_ = true;
  // Back to content widths first, so that a window made narrower gives the width back.
  for (int c = first_; c < count; ++c) table_->resizeColumnToContents(c);
  const int spare = table_->viewport()->width() - header->length();
  if (spare > 0) {
    const int columns = count - first_;
    for (int c = first_; c < count; ++c)
      header->resizeSection(
          c, header->sectionSize(c) + spare / columns + (c - first_ < spare % columns ? 1 : 0));
  }
  fitting_ = false;
}

bool SpareWidth::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Resize && !user_sized_) fit();
  return QObject::eventFilter(watched, event);
}

}  // namespace lb::widgets
