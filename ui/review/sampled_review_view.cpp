#include "ui/review/sampled_review_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "models/review_pair.h"
#include "widgets/diff/diff_view.h"
#include "widgets/strips/similarity_strips.h"

namespace lb::ui {
namespace {

enum SampledColumn { kPromptCol, kResultCol, kQCol, kFactCol, kVerdictCol, kSampledColumns };

}  // namespace

SampledReviewView::SampledReviewView(QWidget* parent) : QWidget(parent) {
  candidate_ = new QComboBox(this);
  candidate_->setAccessibleName(tr("Sampled comparison"));
  connect(candidate_, &QComboBox::activated, this,
          [this] { load_file(candidate_->currentData().toString()); });
  outcome_ = new QLabel(this);
  table_ = new QTableWidget(0, kSampledColumns, this);
  table_->setHorizontalHeaderLabels(
      {tr("Prompt"), tr("Result"), tr("q-value"), tr("Fact loss"), tr("Verdict")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  // Every column as wide as its contents, the verdict column taking what is left: the fact-loss
  // cell is short ("3/16 vs 0/16", the sentence in its tooltip), so the table fits its pane.
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAccessibleName(tr("Sampled prompts"));
  connect(table_, &QTableWidget::currentCellChanged, this, [this] { show_prompt(); });
  strips_ = new widgets::SimilarityStrips(this);
  connect(strips_, &widgets::SimilarityStrips::picked, this,
          [this](int row, int index) { open_pair(static_cast<SampleDistribution>(row), index); });
  pair_label_ = new QLabel(tr("Click a dot to open that sample pair side by side."), this);
  diff_ = new widgets::DiffView(this);
  connect(&jobs_, &DiffJobRunner::ready, this,
          [this](uint64_t, const widgets::DiffSide& a, const widgets::DiffSide& b) {
            widgets::DiffSide left = a, right = b;
            left.title = left_title_;
            right.title = right_title_;
            diff_->set_diff(left, right);
            emit diff_shown();
          });
  auto* verdicts = new QHBoxLayout;
  verdicts->addWidget(new QLabel(tr("Verdict for the prompt:"), this));
  const QStringList keys = models::verdict_keys();
  for (const QString& key : keys) {
    auto* button = new QPushButton(models::verdict_label(key), this);
    connect(button, &QPushButton::clicked, this, [this, key] { set_verdict(key); });
    verdicts->addWidget(button);
  }
  verdicts->addStretch();
  auto* detail = new QWidget(this);
  auto* detail_layout = new QVBoxLayout(detail);
  detail_layout->setContentsMargins(0, 0, 0, 0);
  detail_layout->addWidget(strips_);
  detail_layout->addWidget(pair_label_);
  detail_layout->addWidget(diff_, 1);
  detail_layout->addLayout(verdicts);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(table_);
  splitter->addWidget(detail);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({620, 880});  // the prompt table's columns, fact-loss rates included
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Comparison:"), this));
  bar->addWidget(candidate_);
  bar->addStretch();
  bar->addWidget(outcome_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(splitter, 1);
  diff_->show_message(tr("Open a run with a sampled review."));
}

bool SampledReviewView::open_run(const QString& run_dir, QString* error) {
  run_dir_ = run_dir;
  data_.reset();
  table_->setRowCount(0);
  strips_->set_rows({});
  candidate_->clear();
  const QStringList files = sampled_review_files(run_dir);
  if (files.isEmpty()) {
    *error = tr("This run has no sampled review.");
    diff_->show_message(*error);
    return false;
  }
  for (const QString& f : files) candidate_->addItem(f, f);
  load_file(files.front());
  if (!data_) *error = tr("The sampled review of this run cannot be read.");
  return data_.has_value();
}

void SampledReviewView::load_file(const QString& file) {
  SampledReviewData d;
  QString error;
  if (!load_sampled_review_data(run_dir_, file, &d, &error)) {
    data_.reset();
    diff_->show_message(error);
    emit status(error);
    return;
  }
  data_ = std::move(d);
  candidate_->setItemText(candidate_->currentIndex(),
                          tr("%1 vs %2").arg(data_->lane_b, data_->lane_a));
  fill_table();
  update_outcome();
  if (!data_->damage.isEmpty()) emit status(data_->damage.join("; "));
  if (table_->rowCount() > 0) select_prompt(0);
}

void SampledReviewView::fill_table() {
  table_->setRowCount(static_cast<int>(data_->prompts.size()));
  for (int r = 0; r < table_->rowCount(); ++r) {
    const SampledPromptView& p = data_->prompts[static_cast<size_t>(r)];
    QString verdict = "–";
    for (const auto& v : data_->record.prompts)
      if (v.index == p.index && (v.review_required() || v.verdict != compare::Verdict::Unreviewed))
        verdict = models::verdict_label(compare::verdict_name(v.verdict));
    const QString fact = p.fact_loss_counts.isEmpty() ? p.fact_loss : p.fact_loss_counts;
    const QStringList cells = {p.id, p.result, QString::number(p.q_value, 'f', 4), fact, verdict};
    for (int c = 0; c < kSampledColumns; ++c) {
      auto* item = new QTableWidgetItem(cells[c]);
      if (p.result == "shifted") item->setForeground(QColor("#b00020"));
      if (c == kFactCol) item->setToolTip(p.fact_loss);
      table_->setItem(r, c, item);
    }
  }
  // "Fact loss (fp8 vs bf16)": whose counts come first in the cells.
  table_->horizontalHeaderItem(kFactCol)->setText(
      tr("Fact loss (%1 vs %2)").arg(data_->lane_b, data_->lane_a));
}

void SampledReviewView::select_prompt(int row) {
  if (table_->rowCount() == 0) return;
  table_->setCurrentCell(std::clamp(row, 0, table_->rowCount() - 1), 0);
  show_prompt();
}

void SampledReviewView::show_prompt() {
  const int row = table_->currentRow();
  if (!data_ || row < 0 || row >= static_cast<int>(data_->prompts.size())) return;
  const SampledPromptView& p = data_->prompts[static_cast<size_t>(row)];
  const QString labels[3] = {tr("within %1").arg(data_->lane_a), tr("within %1").arg(data_->lane_b),
                             tr("%1 vs %2").arg(data_->lane_a, data_->lane_b)};
  const QColor colors[3] = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#6a1b9a")};
  std::vector<widgets::StripRow> rows;
  for (int d = 0; d < 3; ++d) {
    widgets::StripRow strip{labels[d], {}, colors[d]};
    for (const auto& pair : p.pairs[d]) strip.values.push_back(pair.ratio);
    rows.push_back(std::move(strip));
  }
  strips_->set_rows(std::move(rows));
  // The least similar cross-lane pair first: where a shift shows, if there is one.
  const auto& cross = p.pairs[2];
  if (cross.empty()) {
    diff_->show_message(tr("No answered sample pairs for this prompt."));
    return;
  }
  const auto lowest = std::min_element(
      cross.begin(), cross.end(), [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
  open_pair(SampleDistribution::Cross, static_cast<int>(lowest - cross.begin()));
}

bool SampledReviewView::open_pair(SampleDistribution distribution, int index) {
  const int row = table_->currentRow();
  if (!data_ || row < 0 || row >= static_cast<int>(data_->prompts.size())) return false;
  const auto& pairs =
      data_->prompts[static_cast<size_t>(row)].pairs[static_cast<int>(distribution)];
  if (index < 0 || index >= static_cast<int>(pairs.size())) return false;
  const compare::SamplePair& pair = pairs[static_cast<size_t>(index)];
  const QString lane_i =
      distribution == SampleDistribution::WithinB ? data_->lane_b : data_->lane_a;
  const QString lane_j =
      distribution == SampleDistribution::WithinA ? data_->lane_a : data_->lane_b;
  left_title_ = tr("%1 sample %2").arg(lane_i).arg(pair.i + 1);
  right_title_ = tr("%1 sample %2").arg(lane_j).arg(pair.j + 1);
  strips_->set_selected(static_cast<int>(distribution), index);
  pair_label_->setText(tr("%1 and %2: ratio %3")
                           .arg(left_title_, right_title_, QString::number(pair.ratio, 'f', 3)));
  const auto [a, b] = data_->texts(static_cast<size_t>(row), distribution, pair);
  diff_->show_message(tr("Highlighting…"));
  jobs_.request(a, b);
  return true;
}

bool SampledReviewView::set_verdict(const QString& verdict) {
  const int row = table_->currentRow();
  const auto parsed = compare::verdict_from_name(verdict.toStdString());
  if (!data_ || !parsed || row < 0 || row >= static_cast<int>(data_->prompts.size())) return false;
  const size_t index = data_->prompts[static_cast<size_t>(row)].index;
  data_->record.set_verdict(index, *parsed, "", std::chrono::system_clock::now());
  std::string error;
  if (!compare::save_sampled_review(data_->record, data_->review_path.toStdString(), &error)) {
    QMessageBox::critical(this, tr("Verdict not saved"), QString::fromStdString(error));
    return false;
  }
  table_->item(row, kVerdictCol)->setText(models::verdict_label(verdict));
  update_outcome();
  emit status(
      tr("%1: %2 — saved")
          .arg(data_->prompts[static_cast<size_t>(row)].id, models::verdict_label(verdict)));
  return true;
}

void SampledReviewView::update_outcome() {
  if (!data_) return;
  const auto o = data_->record.outcome();
  const QString text =
      o.blockers > 0 ? tr("fail: %1 blocker(s)").arg(o.blockers)
      : o.unreviewed > 0
          ? tr("review pending: %1 of %2 shifted prompt(s)").arg(o.unreviewed).arg(o.shifted)
          : tr("pass: %1 shifted prompt(s) reviewed").arg(o.shifted);
  QString html = QString("<b style='color:%1'>%2</b>")
                     .arg(o.passed() ? "#2e7d32" : "#b00020", text.toHtmlEscaped());
  // What of the files could not be read stays beside the outcome it may change.
  if (!data_->damage.isEmpty())
    html += QString(" <span style='color:#b00020'>%1</span>")
                .arg(data_->damage.front().toHtmlEscaped());
  outcome_->setText(html);
  outcome_->setToolTip(data_->damage.join("\n"));
}

}  // namespace lb::ui
