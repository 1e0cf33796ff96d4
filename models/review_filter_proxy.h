#pragma once
// Filters the review table: non-identical only, one category, one verdict (or unreviewed),
// one token-evidence cause.
#include <QSortFilterProxyModel>

namespace lb::models {

class ReviewFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  static inline const QString kUnreviewed = QStringLiteral("(unreviewed)");
  explicit ReviewFilterProxy(QObject* parent = nullptr);

  void set_non_identical_only(bool on);
  void set_category(const QString& category);  // "" = all
  void set_verdict(const QString& verdict);    // "" = all, kUnreviewed, or a verdict key
  void set_cause(const QString& cause);        // "" = all, or a token-evidence cause

 protected:
  bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  bool non_identical_only_ = true;
  QString category_;
  QString verdict_;
  QString cause_;
};

}  // namespace lb::models
