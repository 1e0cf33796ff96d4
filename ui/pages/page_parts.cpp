#include "ui/pages/page_parts.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>

namespace lb::ui {

QLabel* make_page_heading(const QString& html, QWidget* parent) {
  auto* heading = new QLabel(html, parent);
  heading->setWordWrap(true);
  return heading;
}

QTableView* make_row_table(QAbstractItemModel* model, const QString& accessible_name,
                           QWidget* parent) {
  auto* table = new QTableView(parent);
  table->setModel(model);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->verticalHeader()->hide();
  table->horizontalHeader()->setStretchLastSection(true);
  table->setAlternatingRowColors(true);
  table->setAccessibleName(accessible_name);
  return table;
}

}  // namespace lb::ui
