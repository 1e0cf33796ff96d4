#include "widgets/table/spare_width.h"

#include <algorithm>

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
  content_widths_.clear();
  for (int c = first_; c < header->count(); ++c) content_widths_.push_back(header->sectionSize(c));
  spread();
}

void SpareWidth::spread() {
  QHeaderView* header = table_->horizontalHeader();
  const int columns = static_cast<int>(content_widths_.size());
  if (columns == 0 || header->count() != first_ + columns) return;
  int others = 0;  // the columns before FIRST, which keep their width
  for (int c = 0; c < first_; ++c) others += header->sectionSize(c);
  int contents = 0;
  for (int w : content_widths_) contents += w;
  // From the content widths each time, so that a window made narrower gives the width back.
  const int spare = std::max(0, table_->viewport()->width() - others - contents);
  fitting_ = true;
  for (int i = 0; i < columns; ++i)
    header->resizeSection(first_ + i, content_widths_[static_cast<size_t>(i)] + spare / columns +
                                          (i < spare % columns ? 1 : 0));
  fitting_ = false;
}

bool SpareWidth::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Resize && !user_sized_) spread();
  return QObject::eventFilter(watched, event);
}

}  // namespace lb::widgets
