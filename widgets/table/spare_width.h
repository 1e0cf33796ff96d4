#pragma once
// Columns that share a table's spare width: once the columns are sized to their contents, the
// width left in the viewport goes to the columns from FIRST on in equal parts, so a wide window
// shows no empty band beside the last column. Columns keep their content width when the viewport
// is narrower (the table scrolls), and a column the user resizes keeps the width given. The
// contents are measured once per fit(), not on every resize.
#include <QObject>
#include <vector>

class QTableView;

namespace lb::widgets {

class SpareWidth : public QObject {
  Q_OBJECT
 public:
  // Follows TABLE's viewport resizes; call fit() after sizing the columns to their contents
  // (their widths then are the ones it keeps as the least).
  SpareWidth(QTableView* table, int first);
  void fit();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void spread();
  QTableView* table_;
  int first_;
  std::vector<int> content_widths_;  // of the columns from FIRST on, as fit() found them
  bool user_sized_ = false;
  bool fitting_ = false;
};

}  // namespace lb::widgets
