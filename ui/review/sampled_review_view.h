#pragma once
// The Review page's sampled review: each prompt's result, adjusted p-value, fact loss and
// verdict in a table; for the selected prompt its three similarity distributions as strips
// (pairs of the baseline's samples, pairs of the candidate's, and one of each); clicking a dot
// opens that sample pair side by side in the diff panes, highlighted off the GUI thread. Verdicts
// (1-4 as on the greedy review) are saved to sampled-review.json at once.
#include <QWidget>
#include <optional>

#include "ui/review/diff_job_runner.h"
#include "ui/review/sampled_review_data.h"

class QComboBox;
class QLabel;
class QTableWidget;

namespace lb::widgets {
class DiffView;
class SimilarityStrips;
}  // namespace lb::widgets

namespace lb::ui {

class SampledReviewView : public QWidget {
  Q_OBJECT
 public:
  explicit SampledReviewView(QWidget* parent = nullptr);

  // Reads the run's sampled review (the first candidate's); false when it has none.
  bool open_run(const QString& run_dir, QString* error);
  bool has_data() const { return data_.has_value(); }
  void select_prompt(int row);
  // Opens pair `index` of the selected prompt's distribution side by side.
  bool open_pair(SampleDistribution distribution, int index);
  // For the selected prompt; saves sampled-review.json. False for an unknown verdict key.
  bool set_verdict(const QString& verdict);

  QTableWidget* prompt_table() const { return table_; }
  widgets::SimilarityStrips* strips() const { return strips_; }
  widgets::DiffView* diff_view() const { return diff_; }
  QLabel* pair_label() const { return pair_label_; }
  const std::optional<SampledReviewData>& data() const { return data_; }

 signals:
  void status(const QString& text);
  void diff_shown();

 private:
  void load_file(const QString& file);
  void fill_table();
  void show_prompt();
  void update_outcome();

  QString run_dir_;
  std::optional<SampledReviewData> data_;
  DiffJobRunner jobs_;
  QString left_title_, right_title_;
  QComboBox* candidate_ = nullptr;
  QLabel* outcome_ = nullptr;
  QTableWidget* table_ = nullptr;
  widgets::SimilarityStrips* strips_ = nullptr;
  QLabel* pair_label_ = nullptr;
  widgets::DiffView* diff_ = nullptr;
};

}  // namespace lb::ui
