#pragma once
// The prompts of a regression review: triage, similarity, failed checks and verdicts.
#include <QAbstractTableModel>
#include <vector>

#include "models/review_pair.h"

namespace lb::models {

class ReviewPairsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  // Ratio and verdict come first: they are what a reviewer scans for; then the token evidence.
  enum Column { Index, Ratio, Verdict, Triage, Cause, Margin, Checks, Category, Note, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;

  void set_pairs(std::vector<ReviewPair> pairs);
  const std::vector<ReviewPair>& pairs() const { return pairs_; }
  const ReviewPair* pair_at(int row) const;
  // Updates one row's verdict and note; returns false for an unknown row.
  bool set_verdict(int row, const QString& verdict, const QString& note);
  int row_of_prompt(int prompt_index) const;
  QStringList categories() const;
  QStringList causes() const;  // the token-evidence causes present, sorted

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant display(const ReviewPair& pair, int column) const;
  std::vector<ReviewPair> pairs_;
};

}  // namespace lb::models
