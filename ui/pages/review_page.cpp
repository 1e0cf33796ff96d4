#include "ui/pages/review_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "models/item_roles.h"
#include "ui/review/media_strip.h"
#include "ui/review/sampled_review_view.h"
#include "widgets/diff/diff_view.h"

namespace lb::ui {

ReviewPage::ReviewPage(QWidget* parent) : QWidget(parent) {
  verdicts_ = new PairVerdicts(this);
  connect(verdicts_, &PairVerdicts::saved, this, &ReviewPage::on_verdict_saved);
  proxy_.setSourceModel(&model_);
  table_ = new QTableView(this);
  table_->setModel(&proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSortingEnabled(true);
  table_->sortByColumn(models::ReviewPairsModel::Index, Qt::AscendingOrder);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAccessibleName(tr("Prompt pairs"));
  table_->setMinimumWidth(420);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &ReviewPage::show_current);
  connect(&jobs_, &DiffJobRunner::ready, this,
          [this](uint64_t, const widgets::DiffSide& a, const widgets::DiffSide& b) {
            widgets::DiffSide left = a, right = b;
            left.title = lane_a_->currentText();
            right.title = lane_b_->currentText();
            diff_->set_diff(left, right);
            emit diff_shown();
          });
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(table_);
  splitter->addWidget(build_detail());
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({560, 840});  // wide enough for triage, ratio and verdict
  auto* greedy = new QWidget(this);
  auto* greedy_layout = new QVBoxLayout(greedy);
  greedy_layout->setContentsMargins(0, 0, 0, 0);
  greedy_layout->addWidget(build_toolbar());
  // Wraps below the toolbar, so that a long reason never widens the window.
  damage_ = new QLabel(greedy);
  damage_->setWordWrap(true);
  damage_->setStyleSheet("color: #b00020");
  damage_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  damage_->hide();
  greedy_layout->addWidget(damage_);
  greedy_layout->addWidget(splitter, 1);
  sampled_ = new SampledReviewView(this);
  connect(sampled_, &SampledReviewView::status, this, &ReviewPage::status);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(greedy, tr("Greedy pairs"));
  tabs_->addTab(sampled_, tr("Sampled review"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(tabs_, 1);
  install_shortcuts();
  diff_->show_message(tr("Open a run with a regression from the Runs page, or run one."));
}

QWidget* ReviewPage::build_toolbar() {
  auto* bar = new QWidget(this);
  run_label_ = new QLabel(tr("<b>No run open</b>"), bar);
  lane_a_ = new QComboBox(bar);
  lane_b_ = new QComboBox(bar);
  lane_a_->setAccessibleName(tr("Baseline lane"));
  lane_b_->setAccessibleName(tr("Candidate lane"));
  connect(lane_a_, &QComboBox::activated, this, &ReviewPage::load_selected_pair);
  connect(lane_b_, &QComboBox::activated, this, &ReviewPage::load_selected_pair);
  non_identical_ = new QCheckBox(tr("Non-identical only"), bar);
  non_identical_->setChecked(true);
  connect(non_identical_, &QCheckBox::toggled, &proxy_,
          &models::ReviewFilterProxy::set_non_identical_only);
  category_ = new QComboBox(bar);
  category_->addItem(tr("All categories"), QString());
  connect(category_, &QComboBox::activated, this,
          [this] { proxy_.set_category(category_->currentData().toString()); });
  cause_ = new QComboBox(bar);
  cause_->addItem(tr("All causes"), QString());
  cause_->setEnabled(false);
  cause_->setAccessibleName(tr("Cause filter"));
  cause_->setToolTip(
      tr("Why the pair parts, from the lanes' logprobs: near tie, confident "
         "change, length change, tokenizer mismatch, no logprobs"));
  connect(cause_, &QComboBox::activated, this,
          [this] { proxy_.set_cause(cause_->currentData().toString()); });
  verdict_filter_ = new QComboBox(bar);
  verdict_filter_->addItem(tr("All verdicts"), QString());
  verdict_filter_->addItem(tr("Unreviewed"), models::ReviewFilterProxy::kUnreviewed);
  for (const QString& key : models::verdict_keys())
    verdict_filter_->addItem(models::verdict_label(key), key);
  connect(verdict_filter_, &QComboBox::activated, this,
          [this] { proxy_.set_verdict(verdict_filter_->currentData().toString()); });
  outcome_ = new QLabel(bar);
  auto* other_run = new QPushButton(tr("Baseline from &Another Run…"), bar);
  other_run->setToolTip(
      tr("Compare a lane of this run with a lane of another run of the same prompt set, e.g. "
         "today's FP8 against last week's BF16"));
  connect(other_run, &QPushButton::clicked, this, &ReviewPage::choose_baseline_run);
  // Two rows (the pair, then the filters and the outcome), and labels that give up width
  // rather than take it: the page fits a 1280-pixel window whatever the run and lanes are called.
  run_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  run_label_->setMinimumWidth(120);
  outcome_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  outcome_->setMinimumWidth(160);
  for (QComboBox* box : {lane_a_, lane_b_, category_, cause_, verdict_filter_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  auto* pair = new QHBoxLayout;
  pair->addWidget(run_label_, 1);
  pair->addSpacing(12);
  pair->addWidget(new QLabel(tr("Baseline:"), bar));
  pair->addWidget(lane_a_);
  pair->addWidget(new QLabel(tr("vs"), bar));
  pair->addWidget(lane_b_);
  pair->addWidget(other_run);
  auto* filters = new QHBoxLayout;
  filters->addWidget(non_identical_);
  filters->addWidget(category_);
  filters->addWidget(cause_);
  filters->addWidget(verdict_filter_);
  filters->addSpacing(12);
  filters->addWidget(outcome_, 1);
  auto* layout = new QVBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addLayout(pair);
  layout->addLayout(filters);
  return bar;
}

QWidget* ReviewPage::build_detail() {
  auto* panel = new QWidget(this);
  prompt_ = new QTextBrowser(panel);
  prompt_->setMaximumHeight(120);
  prompt_->setAccessibleName(tr("Prompt and fact checks"));
  prompt_->setPlaceholderText(tr("The prompt and its fact checks appear here."));
  media_ = new MediaStrip(panel);
  diff_ = new widgets::DiffView(panel);
  auto* verdicts = new QHBoxLayout;
  verdicts->addWidget(new QLabel(tr("Verdict:"), panel));
  const QStringList keys = models::verdict_keys();
  for (int i = 0; i < keys.size(); ++i) {
    auto* button =
        new QPushButton(QString("%1  %2").arg(i + 1).arg(models::verdict_label(keys[i])), panel);
    button->setToolTip(tr("Key %1").arg(i + 1));
    button->setFocusPolicy(Qt::NoFocus);  // keys stay with the table for j/k
    connect(button, &QPushButton::clicked, this, [this, key = keys[i]] { set_verdict(key); });
    verdict_buttons_ << button;
    verdicts->addWidget(button);
  }
  auto* note = new QPushButton(tr("Note…  (n)"), panel);
  note->setFocusPolicy(Qt::NoFocus);
  connect(note, &QPushButton::clicked, this, &ReviewPage::edit_note);
  verdicts->addWidget(note);
  verdicts->addStretch();
  verdicts->addWidget(
      new QLabel(tr("<span style='color:gray'>j / k: next / previous</span>"), panel));
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* texts = new QSplitter(Qt::Vertical, panel);
  texts->addWidget(diff_);
  texts->addWidget(build_token_panel(texts));
  texts->setStretchFactor(0, 1);
  texts->setStretchFactor(1, 1);
  texts->setSizes({440, 300});  // the texts with their strips, and the top-5 table under them
  layout->addWidget(prompt_);
  layout->addWidget(media_);
  layout->addWidget(texts, 1);
  layout->addLayout(verdicts);
  return panel;
}

void ReviewPage::install_shortcuts() {
  auto add = [this](const QKeySequence& key, auto slot) {
    auto* shortcut = new QShortcut(key, this);
    // The whole window while the page is shown: the keys work with the focus in the sidebar
    // too. A text field still takes its own letters (it accepts the shortcut override).
    shortcut->setContext(Qt::WindowShortcut);
    connect(shortcut, &QShortcut::activated, this, slot);
  };
  add(QKeySequence(Qt::Key_J), [this] { next_pair(1); });
  add(QKeySequence(Qt::Key_K), [this] { next_pair(-1); });
  add(QKeySequence(Qt::Key_N), [this] { edit_note(); });
  const QStringList keys = models::verdict_keys();
  for (int i = 0; i < keys.size(); ++i)
    add(QKeySequence(Qt::Key_1 + i), [this, key = keys[i]] { set_verdict(key); });
  // The greedy pairs' verdicts only: on the sampled tab they would change what is not shown.
  add(QKeySequence::Undo, [this] {
    if (tabs_->currentWidget() != sampled_) verdicts_->undo_stack()->undo();
  });
  add(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), [this] {
    if (tabs_->currentWidget() != sampled_) verdicts_->undo_stack()->redo();
  });
}

}  // namespace lb::ui
