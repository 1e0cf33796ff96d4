// ReviewPage: opening a run, loading a lane pair off the GUI thread, showing a pair, and giving
// it verdicts and notes (saved and undone by PairVerdicts).
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QtConcurrent/QtConcurrentRun>

#include "models/item_roles.h"
#include "ui/pages/review_page.h"
#include "ui/review/media_strip.h"
#include "ui/review/sampled_review_view.h"
#include "ui/review/verdict_command.h"
#include "widgets/diff/diff_view.h"

namespace lb::ui {
namespace {

struct LoadResult {
  bool ok = false;
  LoadedPair pair;
  QString error;
};

}  // namespace

bool ReviewPage::add_baseline_run(const QString& other_run_dir, QString* error) {
  if (!source_) {
    *error = tr("Open a run with regression outputs first.");
    return false;
  }
  if (QDir(other_run_dir) == QDir(source_->run_dir)) {
    *error = tr("That is the open run: choose another run.");
    return false;
  }
  const QStringList added = add_other_run(*source_, other_run_dir, error);
  if (added.isEmpty()) return false;
  const QString candidate = lane_b_->currentText();
  for (QComboBox* combo : {lane_a_, lane_b_}) {
    combo->clear();
    combo->addItems(source_->lanes);
  }
  lane_a_->setCurrentText(added.front());
  lane_b_->setCurrentText(candidate);
  emit status(tr("Lanes of %1 added: %2").arg(QDir(other_run_dir).dirName(), added.join(", ")));
  load_selected_pair();
  return true;
}

void ReviewPage::choose_baseline_run() {
  const QString start = source_ ? QFileInfo(source_->run_dir).absolutePath() : QString();
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Baseline from Another Run"), start);
  if (dir.isEmpty()) return;
  QString error;
  if (!add_baseline_run(dir, &error))
    QMessageBox::warning(this, tr("Cannot use that run as the baseline"), error);
}

bool ReviewPage::open_run(const QString& run_dir) {
  ReviewSource source;
  QString error;
  run_label_->setText(tr("<b>%1</b>").arg(QDir(run_dir).dirName().toHtmlEscaped()));
  run_label_->setToolTip(run_dir);
  model_.set_pairs({});
  verdicts_->set_pair(nullptr);
  pair_.reset();
  show_damage({});
  QString sampled_error;
  const bool sampled = sampled_->open_run(run_dir, &sampled_error);
  tabs_->setTabEnabled(1, sampled);
  if (!open_review_source(run_dir, &source, &error)) {
    source_.reset();
    lane_a_->clear();
    lane_b_->clear();
    diff_->show_message(error);
    outcome_->clear();
    show_damage(source.damage);
    tabs_->setTabEnabled(0, !sampled);
    if (sampled) {
      tabs_->setCurrentIndex(1);
      return true;
    }
    emit status(error);
    return false;
  }
  tabs_->setTabEnabled(0, true);
  tabs_->setCurrentIndex(0);
  source_ = std::move(source);
  for (QComboBox* combo : {lane_a_, lane_b_}) {
    combo->clear();
    combo->addItems(source_->lanes);
  }
  lane_b_->setCurrentIndex(1);
  if (!source_->warning.isEmpty()) emit status(source_->warning);
  show_damage(source_->damage);
  load_selected_pair();
  return true;
}

// What of the run's files could not be read as written, above the pairs: the review goes on
// with the rest, and the reviewer knows what it lacks.
void ReviewPage::show_damage(const QStringList& damage) {
  damage_->setText(damage.join("\n"));
  damage_->setVisible(!damage.isEmpty());
  if (!damage.isEmpty()) emit status(damage.join("; "));
}

QString ReviewPage::damage_text() const { return damage_->text(); }

void ReviewPage::select_lanes(const QString& a, const QString& b) {
  lane_a_->setCurrentText(a);
  lane_b_->setCurrentText(b);
  load_selected_pair();
}

void ReviewPage::load_selected_pair() {
  if (!source_) return;
  const QString a = lane_a_->currentText(), b = lane_b_->currentText();
  if (a == b) {
    diff_->show_message(tr("Choose two different lanes to compare."));
    return;
  }
  const uint64_t generation = ++load_generation_;
  loading_ = true;
  jobs_.cancel();
  diff_->show_message(tr("Comparing %1 and %2…").arg(a, b));
  auto* watcher = new QFutureWatcher<LoadResult>(this);
  connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    const LoadResult r = watcher->result();
    on_pair_loaded(generation, r.ok, r.pair, r.error);
  });
  watcher->setFuture(QtConcurrent::run([source = *source_, a, b] {
    LoadResult r;
    r.ok = load_pair(source, a, b, &r.pair, &r.error);
    return r;
  }));
}

void ReviewPage::on_pair_loaded(uint64_t generation, bool ok, const LoadedPair& pair,
                                const QString& error) {
  if (generation != load_generation_) return;  // the user picked another pair meanwhile
  loading_ = false;
  if (!ok) {
    diff_->show_message(error);
    emit status(error);
    if (error.startsWith("damaged: "))
      show_damage((source_ ? source_->damage : QStringList()) + QStringList{error});
    return;
  }
  pair_ = pair;
  verdicts_->set_pair(&*pair_);
  show_damage(source_ ? source_->damage + pair_->damage : pair_->damage);
  model_.set_pairs(review_rows(*pair_, *source_));
  const QString current = category_->currentData().toString();
  category_->clear();
  category_->addItem(tr("All categories"), QString());
  for (const QString& c : model_.categories()) category_->addItem(c, c);
  category_->setCurrentIndex(std::max(0, category_->findData(current)));
  refill_causes();
  update_outcome();
  if (proxy_.rowCount() > 0) {
    table_->setCurrentIndex(proxy_.index(0, 0));
  } else {
    diff_->show_message(proxy_.rowCount() == 0 && model_.rowCount() > 0
                            ? tr("Every pair is identical: nothing to review.")
                            : tr("No pairs."));
  }
  table_->resizeColumnsToContents();
  table_->setFocus();
  emit pair_loaded();
}

int ReviewPage::current_source_row() const {
  const QModelIndex index = proxy_.mapToSource(table_->currentIndex());
  return index.isValid() ? index.row() : -1;
}

void ReviewPage::show_current() {
  const int row = current_source_row();
  const models::ReviewPair* p = model_.pair_at(row);
  if (!p || !pair_) return;
  QString html = QString("<b>%1</b> <span style='color:gray'>%2</span><br>%3")
                     .arg(p->prompt_id.toHtmlEscaped(), p->category.toHtmlEscaped(),
                          p->prompt.toHtmlEscaped().replace('\n', "<br>"));
  if (!p->failed_checks.isEmpty()) {
    html += "<br><span style='color:#b00020'>";
    for (const QString& c : p->failed_checks) html += "✖ " + c.toHtmlEscaped() + "<br>";
    html += "</span>";
  }
  if (p->flipped_fact)
    html += tr("<b style='color:#b00020'>A fact check passes on %1 and fails on %2.</b>")
                .arg(pair_->lane_a.toHtmlEscaped(), pair_->lane_b.toHtmlEscaped());
  if (!p->batch_variant.isEmpty())
    html += tr("<br><b style='color:#8a6d00'>⚖ Batch-variant:</b> the answer of %1 changes "
               "under load by itself (load baseline), so batching alone can explain a "
               "difference here.")
                .arg(p->batch_variant.join(", ").toHtmlEscaped());
  prompt_->setHtml(html);
  const plan::PromptSpec* spec = nullptr;
  if (source_ && source_->prompts && p->index >= 0 &&
      static_cast<size_t>(p->index) < source_->prompts->prompts.size())
    spec = &source_->prompts->prompts[static_cast<size_t>(p->index)];
  media_->show_media(spec ? spec->media : std::vector<plan::MediaRef>{});
  show_tokens(p->index);
  const auto index = static_cast<size_t>(p->index);
  diff_->show_message(tr("Highlighting…"));
  jobs_.request(pair_->texts_a.at(index), pair_->texts_b.at(index));
}

void ReviewPage::next_pair(int step) {
  if (tabs_->currentWidget() == sampled_) {
    sampled_->select_prompt(sampled_->prompt_table()->currentRow() + step);
    return;
  }
  if (proxy_.rowCount() == 0) return;
  const int row = table_->currentIndex().isValid() ? table_->currentIndex().row() + step : 0;
  table_->setCurrentIndex(proxy_.index(std::clamp(row, 0, proxy_.rowCount() - 1), 0));
}

bool ReviewPage::set_verdict(const QString& verdict) {
  if (tabs_->currentWidget() == sampled_) return sampled_->set_verdict(verdict);
  const models::ReviewPair* p = model_.pair_at(current_source_row());
  const auto parsed = compare::verdict_from_name(verdict.toStdString());
  if (!p || !pair_ || !parsed) return false;
  const auto index = static_cast<size_t>(p->index);
  const QString prompt_id = p->prompt_id;
  const VerdictState after{*parsed, p->note.toStdString(), std::chrono::system_clock::now()};
  if (!verdicts_->give(tr("Verdict %1 on %2").arg(models::verdict_label(verdict), prompt_id), index,
                       after))
    return false;
  emit status(tr("%1: %2 — saved to %3")
                  .arg(prompt_id, models::verdict_label(verdict), QDir(pair_->path).dirName()));
  return true;
}

void ReviewPage::edit_note() {
  const models::ReviewPair* p = model_.pair_at(current_source_row());
  if (!p || !pair_) return;
  bool ok = false;
  const QString note = QInputDialog::getMultiLineText(this, tr("Note for %1").arg(p->prompt_id),
                                                      tr("Note:"), p->note, &ok);
  if (!ok) return;
  const auto index = static_cast<size_t>(p->index);
  VerdictState after = VerdictState::of(pair_->record.pairs.at(index));
  after.note = note.toStdString();
  after.reviewed_at = std::chrono::system_clock::now();
  verdicts_->give(tr("Note on %1").arg(p->prompt_id), index, after);
}

// A step was saved: the table and the outcome show it, and the pages that judge the run hear of
// the record as saved.
void ReviewPage::on_verdict_saved(std::size_t index, const VerdictState& state) {
  if (!pair_ || !source_ || index >= pair_->record.pairs.size()) return;
  const compare::PairReview& review = pair_->record.pairs[index];
  const int row = model_.row_of_prompt(static_cast<int>(review.comparison.index));
  model_.set_verdict(row,
                     state.verdict == compare::Verdict::Unreviewed
                         ? QString()
                         : QString::fromLatin1(compare::verdict_name(state.verdict)),
                     QString::fromStdString(state.note));
  update_outcome();
  emit verdicts_changed(source_->run_dir, pair_->record);
}

void ReviewPage::update_outcome() {
  if (!pair_) return;
  const compare::ReviewOutcome o = pair_->record.outcome();
  outcome_->setText(QString("<b style='color:%1'>%2</b>")
                        .arg(o.passed ? "#2e7d32" : "#b00020",
                             QString::fromStdString(o.summary).toHtmlEscaped()));
  outcome_->setToolTip(QString::fromStdString(o.summary));  // the label may be cut short
}

}  // namespace lb::ui
