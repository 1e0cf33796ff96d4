#pragma once
// Review: the regression's prompt pairs with triage and ratio, filters, the two outputs side by
// side with word and character highlights, the prompt and its fact checks above (with its
// images and videos, when it has any), and verdicts
// given with one key (j/k next/previous, 1-4 verdicts, n note), each saved at once. When the run
// recorded logprobs: a cause column (why the pair parts) with a filter, the baseline's margin,
// a token strip per lane shaded by logprob with the divergence marked, both lanes' top-K at a
// clicked token, and the pair's cross-scores in its header. A run with a sampled review gets a
// second tab with its distributions and sample pairs (SampledReviewView). Verdicts and notes are
// undone with Ctrl+Z and redone with Ctrl+Shift+Z, each step saved at once as well.
#include <QWidget>
#include <optional>

#include "models/review_filter_proxy.h"
#include "models/review_pairs_model.h"
#include "ui/review/diff_job_runner.h"
#include "ui/review/pair_verdicts.h"
#include "ui/review/review_session.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTextBrowser;

namespace lb::widgets {
class DiffView;
}

namespace lb::ui {

class MediaStrip;
struct VerdictState;
class SampledReviewView;
class TokenStrip;

class ReviewPage : public QWidget {
  Q_OBJECT
 public:
  explicit ReviewPage(QWidget* parent = nullptr);

  // Opens a run folder's regression outputs and its sampled review; false (and the page says
  // why) when it has neither.
  bool open_run(const QString& run_dir);
  // Lists the lanes of another run ("RUN:lane") beside this run's, and makes the first of them
  // the baseline: today's lane against last week's. False with *error when it cannot be paired.
  bool add_baseline_run(const QString& other_run_dir, QString* error);
  void select_lanes(const QString& a, const QString& b);
  bool set_verdict(const QString& verdict);  // for the selected pair; saves its review record
  void next_pair(int step);
  void edit_note();

  models::ReviewPairsModel* model() { return &model_; }
  models::ReviewFilterProxy* proxy() { return &proxy_; }
  widgets::DiffView* diff_view() const { return diff_; }
  QTableView* table() const { return table_; }
  SampledReviewView* sampled_view() const { return sampled_; }
  QTabWidget* tabs() const { return tabs_; }
  // The selected prompt's images and videos, above the two answers (hidden when it has none).
  MediaStrip* media_strip() const { return media_; }
  DiffJobRunner* diff_jobs() { return &jobs_; }
  bool loading() const { return loading_; }
  // Token evidence of the selected pair: the two strips (baseline, candidate), the top-K table a
  // click fills, the pair header (cause, margin, cross-scores) and the cause filter.
  TokenStrip* strip(int side) const { return side == 0 ? strip_a_ : strip_b_; }
  QTableWidget* top_k_table() const { return top_k_; }
  QLabel* token_header() const { return token_header_; }
  // What of the open run's files could not be read ("damaged: FILE: what"), one per line.
  QString damage_text() const;
  QComboBox* cause_filter() const { return cause_; }
  void show_top_k(int token_index);
  QString review_path() const { return pair_ ? pair_->path : QString(); }
  // The verdicts given on the loaded lane pair, cleared when another pair is loaded.
  QUndoStack* undo_stack() { return verdicts_->undo_stack(); }

 signals:
  void status(const QString& text);
  void pair_loaded();  // after a lane pair has been compared and listed
  void diff_shown();   // after highlights for the selected pair were painted
  // After a verdict or note was saved (or undone): the lane pair's whole record as saved, for
  // the pages that judge the run by it.
  void verdicts_changed(const QString& run_dir, const lb::compare::ReviewRecord& record);

 private:
  QWidget* build_toolbar();
  QWidget* build_detail();
  void load_selected_pair();
  void choose_baseline_run();
  void on_pair_loaded(uint64_t generation, bool ok, const LoadedPair& pair, const QString& error);
  void show_current();
  int current_source_row() const;
  void update_outcome();
  void on_verdict_saved(std::size_t index, const VerdictState& state);
  void install_shortcuts();
  QWidget* build_token_panel(QWidget* parent);
  void show_tokens(int prompt_index);
  void refill_causes();
  void show_damage(const QStringList& damage);

  std::optional<ReviewSource> source_;
  std::optional<LoadedPair> pair_;
  uint64_t load_generation_ = 0;
  bool loading_ = false;
  models::ReviewPairsModel model_;
  models::ReviewFilterProxy proxy_;
  DiffJobRunner jobs_;
  QLabel* run_label_ = nullptr;
  QLabel* damage_ = nullptr;  // "damaged: FILE: what" of the open run's files; hidden when none
  QComboBox* lane_a_ = nullptr;
  QComboBox* lane_b_ = nullptr;
  QCheckBox* non_identical_ = nullptr;
  QComboBox* category_ = nullptr;
  QComboBox* verdict_filter_ = nullptr;
  QLabel* outcome_ = nullptr;
  QTableView* table_ = nullptr;
  QTextBrowser* prompt_ = nullptr;
  MediaStrip* media_ = nullptr;
  widgets::DiffView* diff_ = nullptr;
  QList<QPushButton*> verdict_buttons_;
  QComboBox* cause_ = nullptr;
  QLabel* token_header_ = nullptr;
  QLabel* strip_label_a_ = nullptr;
  QLabel* strip_label_b_ = nullptr;
  TokenStrip* strip_a_ = nullptr;
  TokenStrip* strip_b_ = nullptr;
  QLabel* top_k_title_ = nullptr;
  QTableWidget* top_k_ = nullptr;
  int shown_prompt_ = -1;
  PairVerdicts* verdicts_ = nullptr;  // the loaded pair's verdicts, saved and undoable
  QTabWidget* tabs_ = nullptr;
  SampledReviewView* sampled_ = nullptr;
};

}  // namespace lb::ui
