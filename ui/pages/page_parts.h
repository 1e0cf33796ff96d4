#pragma once
// Parts several pages build the same way, so they look and behave alike.
#include <QString>

class QAbstractItemModel;
class QLabel;
class QTableView;
class QWidget;

namespace lb::ui {

// A page's heading: "<h2>Title</h2><p>What the page is for.</p>", wrapped to the page's width.
QLabel* make_page_heading(const QString& html, QWidget* parent);

// A read-only list of rows shown as a table: whole rows selected one at a time, no editing, no
// row numbers, alternating row colours, the last column stretched. `accessible_name` is what a
// screen reader announces.
QTableView* make_row_table(QAbstractItemModel* model, const QString& accessible_name,
                           QWidget* parent);

}  // namespace lb::ui
