#include "ui/pages/decision_page.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

#include "core/compare/run_reviews.h"
#include "core/report/gate_table.h"
#include "ui/decision/gate_rows.h"
#include "ui/history/run_folder_job.h"
#include "widgets/table/spare_width.h"

namespace lb::ui {
namespace {

constexpr report::Decision kChoices[] = {report::Decision::Promote, report::Decision::Challenger,
                                         report::Decision::Reject};

const char* kBannerStyle =
    "QLabel { background: #fff4d6; border: 1px solid #e0b84c; border-radius: 4px; padding: 6px; "
    "color: #5a4300; }";

}  // namespace

DecisionPage::DecisionPage(QWidget* parent) : QWidget(parent) {
  run_label_ = new QLabel(this);
  run_label_->setWordWrap(true);
  banner_ = new QLabel(this);
  banner_->setWordWrap(true);
  banner_->setStyleSheet(kBannerStyle);
  banner_->hide();
  table_ = new QTableView(this);
  table_->setModel(&model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setMinimumSectionSize(110);
  lane_widths_ = new widgets::SpareWidth(table_, models::GateTableModel::kFirstLaneColumn);
  table_->setAccessibleName(tr("Gate table"));
  table_->setToolTip(
      tr("Rows are gates and performance figures, columns are lanes. Hover a cell "
         "for why a gate failed or is unsupported."));
  gate_summary_ = new QLabel(this);
  caveats_ = new QLabel(this);
  caveats_->setWordWrap(true);
  caveats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  caveats_->setAccessibleName(tr("Caveats"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(run_label_);
  layout->addWidget(banner_);
  layout->addWidget(table_, 1);
  layout->addWidget(gate_summary_);
  layout->addWidget(caveats_);
  layout->addWidget(build_decision_box());
  auto* save_key = new QShortcut(QKeySequence::Save, this);
  connect(save_key, &QShortcut::activated, this, &DecisionPage::on_save_clicked);
  confirm_override_ = [this](const QString& lane, const QStringList& gates) {
    QMessageBox box(QMessageBox::Warning, tr("Promote with open gates?"),
                    tr("Promote %1 although these of its gates are not passed?").arg(lane),
                    QMessageBox::Cancel, this);
    box.setTextFormat(Qt::PlainText);
    box.setInformativeText(QStringLiteral("\u2022 ") + gates.join(QStringLiteral("\n\u2022 ")) +
                           tr("\n\nThe override is recorded in decision.json with the rationale."));
    QAbstractButton* promote = box.addButton(tr("Promote Anyway"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == promote;
  };
  clear_run();
}

QWidget* DecisionPage::build_decision_box() {
  auto* box = new QGroupBox(tr("Decision"), this);
  decision_box_ = box;
  choices_ = new QButtonGroup(box);
  auto* options = new QHBoxLayout;
  const QString labels[] = {tr("&Promote"), tr("&Challenger, no promotion"), tr("Re&ject")};
  for (int i = 0; i < 3; ++i) {
    auto* radio = new QRadioButton(labels[i], box);
    choices_->addButton(radio, i);
    options->addWidget(radio);
  }
  options->addStretch();
  // The decision is about one candidate; the baseline is the run's first lane.
  auto* lane_row = new QHBoxLayout;
  candidate_ = new QComboBox(box);
  candidate_->setAccessibleName(tr("Candidate lane"));
  candidate_->setToolTip(tr("The lane this decision promotes, keeps as a challenger or rejects"));
  auto* candidate_label = new QLabel(tr("C&andidate:"), box);
  candidate_label->setBuddy(candidate_);
  baseline_label_ = new QLabel(box);
  lane_row->addWidget(candidate_label);
  lane_row->addWidget(candidate_);
  lane_row->addWidget(baseline_label_);
  lane_row->addStretch();
  connect(candidate_, &QComboBox::currentIndexChanged, this, [this](int) { on_edited(); });
  rationale_ = new QPlainTextEdit(box);
  rationale_->setPlaceholderText(
      tr("Rationale: the evidence the decision rests on (gates, numbers, reviewed pairs, "
         "caveats). The report prints it next to the decision."));
  rationale_->setTabChangesFocus(true);
  rationale_->setAccessibleName(tr("Rationale"));
  rationale_->setMaximumHeight(110);
  save_ = new QPushButton(tr("&Save Decision"), box);
  save_->setToolTip(tr("Write decision.json into the run folder (Ctrl+S)"));
  connect(save_, &QPushButton::clicked, this, &DecisionPage::on_save_clicked);
  connect(rationale_, &QPlainTextEdit::textChanged, this, &DecisionPage::on_edited);
  connect(choices_, &QButtonGroup::idToggled, this, [this](int, bool) { on_edited(); });
  saved_ = new QLabel(box);
  saved_->setWordWrap(true);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(save_);
  buttons->addWidget(saved_, 1);
  auto* layout = new QVBoxLayout(box);
  layout->addLayout(lane_row);
  layout->addLayout(options);
  layout->addWidget(rationale_);
  layout->addLayout(buttons);
  return box;
}

QString DecisionPage::run_dir() const { return run_ ? run_->dir : QString(); }
QString DecisionPage::banner_text() const {
  return banner_->isHidden() ? QString() : banner_->text();
}
QString DecisionPage::saved_text() const { return saved_->text(); }

void DecisionPage::clear_run() {
  keep_draft();
  reset_view();
}

void DecisionPage::reset_view() {
  run_.reset();
  model_.clear();
  run_label_->setText(
      tr("<h2>Decision</h2><p>No run is open: open one on the Runs page (or "
         "finish a run) to record its decision.</p>"));
  banner_->hide();
  gate_summary_->clear();
  caveats_->clear();
  caveats_->hide();
  candidate_->clear();
  baseline_label_->clear();
  baseline_ = {};
  show_edit(baseline_);
  saved_status_ = tr("Saving needs an open run.");
  saved_->setText(saved_status_);
  update_enabled();
}

void DecisionPage::set_run(std::shared_ptr<const LoadedRun> run) {
  if (!run || !run->folder) return clear_run();
  keep_draft();
  reset_view();
  run_ = std::move(run);
  const report::RunFolder& folder = *run_->folder;
  const DecisionView& view = run_->decision;
  model_.set_table(view.lanes, view.rows);
  table_->resizeColumnsToContents();
  lane_widths_->fit();
  table_->resizeRowsToContents();  // a candidate's figure has its ratio on a second line
  showing_ = true;
  candidate_->addItems(view.lanes.size() > 1 ? view.lanes.mid(1) : view.lanes);
  showing_ = false;
  baseline_.candidate = candidate();  // choosing nothing yet is not an edit
  baseline_label_->setText(view.lanes.size() > 1 ? tr("against the baseline %1").arg(view.lanes[0])
                                                 : tr("(one lane: no baseline)"));
  const QString& name = view.plan_name;
  run_label_->setText(tr("<h2>Decision</h2><p><b>%1</b> — %2</p>")
                          .arg(name.toHtmlEscaped(), QDir(run_->dir).dirName().toHtmlEscaped()));
  if (!view.error.isEmpty()) {
    banner_->setText(view.error);
    banner_->show();
  } else if (!folder.complete) {
    banner_->setText(tr("Incomplete run: it was stopped or killed before it finished. The %1 "
                        "finished requests it kept are shown; gates it did not reach are "
                        "\"not run\".")
                         .arg(folder.request_count));
    banner_->show();
  }
  show_gate_summary(view.has_gates);
  if (!view.caveats.isEmpty()) {
    QStringList items;
    for (const QString& c : view.caveats) items << "<li>" + c.toHtmlEscaped() + "</li>";
    caveats_->setText(tr("<b>Caveats</b><ul>%1</ul>").arg(items.join(QString())));
    caveats_->show();
  }
  if (folder.decision) {
    show_saved(*folder.decision);
  } else {
    saved_status_ = tr("No decision saved for this run yet.");
    saved_->setText(saved_status_);
  }
  if (const auto draft = drafts_.find(run_->dir); draft != drafts_.end()) {
    show_edit(draft->second);
    drafts_.erase(draft);
    on_edited();
  }
  update_enabled();
}

void DecisionPage::apply_review(const QString& run_dir, const compare::ReviewRecord& record) {
  if (!run_ || !run_->folder ||
      QFileInfo(run_dir).canonicalFilePath() != QFileInfo(run_->dir).canonicalFilePath())
    return;
  auto fresh = std::make_shared<LoadedRun>(*run_);
  compare::put_review(fresh->folder->reviews, record);
  fresh->decision = decision_view_of(*fresh->folder);
  // The same run shown again: its unsaved edit is neither a draft of another run nor lost.
  const bool edited = dirty();
  const Draft edit = current_edit();
  run_.reset();
  set_run(std::move(fresh));
  if (edited) {
    show_edit(edit);
    on_edited();
  }
}

void DecisionPage::show_gate_summary(bool has_gates) {
  if (!has_gates) {
    gate_summary_->setText(
        tr("This run has no gates; the performance figures are below the gate rows."));
    return;
  }
  // A gate waiting on the reviewer is "review pending", not "not run".
  int pending = 0;
  for (const models::GateRowView& row : model_.rows())
    for (const models::GateCellView& cell : row.cells)
      pending += !row.performance && cell.status == "not run" &&
                 cell.text.startsWith(QStringLiteral("review pending"));
  QString text = tr("Gates: %1 pass, %2 fail, %3 unsupported, %4 review pending, %5 not run.")
                     .arg(model_.count("pass"))
                     .arg(model_.count("fail"))
                     .arg(model_.count("unsupported"))
                     .arg(pending)
                     .arg(model_.count("not run") - pending);
  if (const int stopped = model_.count("stopped"); stopped > 0)
    text += tr(" %1 stopped by the user.").arg(stopped);
  gate_summary_->setText(text);
}

void DecisionPage::set_decision(report::Decision decision) {
  for (int i = 0; i < 3; ++i)
    if (kChoices[i] == decision) choices_->button(i)->setChecked(true);
}

DecisionPage::Draft DecisionPage::current_edit() const {
  return {decision(), rationale(), candidate()};
}

void DecisionPage::set_candidate(const QString& lane) {
  if (const int i = candidate_->findText(lane); i >= 0) candidate_->setCurrentIndex(i);
}

QString DecisionPage::candidate() const { return candidate_->currentText(); }

QStringList DecisionPage::open_gates(const QString& lane) const {
  QStringList open;
  const int column = static_cast<int>(model_.lanes().indexOf(lane));
  if (column < 0) return open;
  for (const models::GateRowView& row : model_.rows()) {
    if (row.performance || static_cast<size_t>(column) >= row.cells.size()) continue;
    const models::GateCellView& cell = row.cells[static_cast<size_t>(column)];
    if (cell.status == "fail" || cell.status == "not run" || cell.status == "stopped")
      open << row.label + ": " + cell.text;
  }
  return open;
}

void DecisionPage::show_edit(const Draft& edit) {
  showing_ = true;
  if (edit.choice) {
    set_decision(*edit.choice);
  } else if (QAbstractButton* checked = choices_->checkedButton()) {
    choices_->setExclusive(false);
    checked->setChecked(false);
    choices_->setExclusive(true);
  }
  rationale_->setPlainText(edit.rationale);
  if (!edit.candidate.isEmpty()) set_candidate(edit.candidate);
  showing_ = false;
}

bool DecisionPage::dirty() const { return run_ && current_edit() != baseline_; }

QStringList DecisionPage::unsaved_runs() const {
  QStringList runs;
  if (dirty()) runs << run_->dir;
  for (const auto& [dir, draft] : drafts_) runs << dir;
  return runs;
}

void DecisionPage::keep_draft() {
  if (!dirty()) return;
  drafts_[run_->dir] = current_edit();
  emit status(tr("The unsaved decision for %1 is kept as a draft: reopen the run to save it.")
                  .arg(QDir(run_->dir).dirName()));
}

void DecisionPage::on_edited() {
  if (showing_) return;
  saved_->setText(dirty() ? tr("Unsaved changes (Ctrl+S saves them). %1").arg(saved_status_)
                          : saved_status_);
}

bool DecisionPage::confirm_discard() {
  const QStringList runs = unsaved_runs();
  if (runs.isEmpty()) return true;
  QStringList names;
  for (const QString& dir : runs) names << QDir(dir).dirName();
  QString text = tr("These runs have a decision that is not saved: %1.").arg(names.join(", "));
  auto buttons = QMessageBox::Discard | QMessageBox::Cancel;
  if (dirty()) {
    text += tr("\nSave the open run's decision now?");
    buttons |= QMessageBox::Save;
  }
  const auto answer = QMessageBox::question(this, tr("Unsaved decision"), text, buttons,
                                            dirty() ? QMessageBox::Save : QMessageBox::Cancel);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) {
    QString error;
    if (!save(&error)) {
      if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot save the decision"), error);
      return false;
    }
  }
  return true;
}

std::optional<report::Decision> DecisionPage::decision() const {
  const int id = choices_->checkedId();
  return id >= 0 && id < 3 ? std::optional(kChoices[id]) : std::nullopt;
}

void DecisionPage::set_rationale(const QString& text) { rationale_->setPlainText(text); }
QString DecisionPage::rationale() const { return rationale_->toPlainText(); }

bool DecisionPage::save(QString* error) {
  if (!run_) {
    *error = tr("No run is open: open one on the Runs page first.");
    return false;
  }
  const auto choice = decision();
  if (!choice) {
    *error = tr("Choose promote, challenger or reject first.");
    return false;
  }
  if (rationale().trimmed().isEmpty()) {
    *error = tr("Write the rationale: a decision without its reasons cannot be checked later.");
    return false;
  }
  const QString lane = candidate();
  if (lane.isEmpty()) {
    *error = tr("Choose the candidate lane the decision is about.");
    return false;
  }
  report::DecisionRecord record;
  record.decision = *choice;
  record.candidate = lane.toStdString();
  if (model_.lanes().size() > 1 && model_.lanes()[0] != lane)
    record.baseline = model_.lanes()[0].toStdString();
  if (*choice == report::Decision::Promote) {
    const QStringList open = open_gates(lane);
    if (!open.isEmpty() && !(confirm_override_ && confirm_override_(lane, open))) {
      error->clear();  // the user chose not to; nothing to warn about
      emit status(tr("Not saved: %1 was not promoted over its open gates.").arg(lane));
      return false;
    }
    for (const QString& g : open) record.overridden_gates.push_back(g.toStdString());
  }
  record.rationale = rationale().trimmed().toStdString();
  // The gate table the decision was taken on, as the page showed it.
  const auto& gates = run_->decision.gates;
  report::set_gate_snapshot(record, gates ? &*gates : nullptr);
  std::string why;
  if (!report::save_decision(run_->dir.toStdString(), record, &why)) {
    *error = tr("Cannot save the decision: %1").arg(QString::fromStdString(why));
    return false;
  }
  if (auto stored = report::load_decision(run_->dir.toStdString())) show_saved(*stored);
  const QString path = QDir(run_->dir).filePath(report::kDecisionFile);
  emit status(tr("Decision saved to %1").arg(path));
  emit saved(path);
  return true;
}

void DecisionPage::on_save_clicked() {
  QString error;
  if (!save(&error) && !error.isEmpty())
    QMessageBox::warning(this, tr("Cannot save the decision"), error);
}

void DecisionPage::show_saved(const report::DecisionRecord& record) {
  baseline_ = {record.decision, QString::fromStdString(record.rationale),
               QString::fromStdString(record.candidate)};
  if (baseline_.candidate.isEmpty() || candidate_->findText(baseline_.candidate) < 0)
    baseline_.candidate = candidate();  // an older record that named no lane
  show_edit(baseline_);
  saved_status_ = tr("Saved: %1, %2.")
                      .arg(QString::fromStdString(report::decision_headline(record)),
                           QString::fromStdString(record.decided_at));
  if (!record.overridden_gates.empty())
    saved_status_ += tr(" Override of %n open gate(s) recorded.", nullptr,
                        static_cast<int>(record.overridden_gates.size()));
  saved_->setText(saved_status_);
}

void DecisionPage::update_enabled() {
  decision_box_->setEnabled(run_ != nullptr);
  save_->setEnabled(run_ != nullptr);
}

}  // namespace lb::ui
