#include "models/review_filter_proxy.h"

#include "models/item_roles.h"

namespace lb::models {

ReviewFilterProxy::ReviewFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(SortRole);
}

void ReviewFilterProxy::set_non_identical_only(bool on) {
  non_identical_only_ = on;
  invalidateFilter();
}

void ReviewFilterProxy::set_category(const QString& category) {
  category_ = category;
  invalidateFilter();
}

void ReviewFilterProxy::set_verdict(const QString& verdict) {
  verdict_ = verdict;
  invalidateFilter();
}

void ReviewFilterProxy::set_cause(const QString& cause) {
  cause_ = cause;
  invalidateFilter();
}

bool ReviewFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
  const QModelIndex index = sourceModel()->index(source_row, 0, source_parent);
  if (non_identical_only_ && index.data(TriageRole).toString() == "identical") return false;
  if (!category_.isEmpty() && index.data(CategoryRole).toString() != category_) return false;
  if (!cause_.isEmpty() && index.data(CauseRole).toString() != cause_) return false;
  if (!verdict_.isEmpty()) {
    const QString verdict = index.data(VerdictRole).toString();
    if (verdict_ == kUnreviewed ? !verdict.isEmpty() : verdict != verdict_) return false;
  }
  return true;
}

}  // namespace lb::models
