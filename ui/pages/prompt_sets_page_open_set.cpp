// PromptSetsPage: the open set: opening, importing, duplicating, editing and saving it.
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QTableView>
#include <QUndoStack>

#include "models/prompt_set_model.h"
#include "ui/pages/prompt_sets_page.h"
#include "ui/prompts/prompt_edit_commands.h"
#include "ui/prompts/prompt_editor.h"
#include "ui/prompts/prompt_set_store.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

void PromptSetsPage::reload() {
  const QString keep = ref_;
  switching_ = true;
  sets_->clear();
  for (const PromptSetEntry& entry : list_prompt_sets(workspace_.dir())) {
    auto* item = new QListWidgetItem(entry.label, sets_);
    item->setData(Qt::UserRole, entry.ref);
    item->setToolTip(entry.builtin ? tr("Built-in, read-only") : entry.ref);
  }
  switching_ = false;
  int row = 0;
  for (int i = 0; i < sets_->count(); ++i)
    if (sets_->item(i)->data(Qt::UserRole).toString() == keep) row = i;
  if (sets_->count() == 0) return;
  if (sets_->currentRow() == row) {
    on_set_activated(row);
  } else {
    sets_->setCurrentRow(row);
  }
  // The workspace may have opened since the set was shown: what it allows (Duplicate) changes.
  refresh_header();
}

bool PromptSetsPage::read_only() const { return ref_.isEmpty() || ref_.startsWith("builtin:"); }
bool PromptSetsPage::dirty() const { return !undo_->isClean(); }
QString PromptSetsPage::error_text() const { return error_->isVisible() ? error_->text() : ""; }

void PromptSetsPage::show_error(const QString& text) {
  error_->setText(text);
  error_->setVisible(!text.isEmpty());
  if (!text.isEmpty()) emit status(text.section('\n', 0, 0));
}

void PromptSetsPage::on_set_activated(int row) {
  if (switching_ || row < 0) return;
  const QString ref = sets_->item(row)->data(Qt::UserRole).toString();
  if (ref == ref_ && !model_->prompts().empty()) return;
  if (!confirm_discard()) {
    // Stay on the set with unsaved edits.
    switching_ = true;
    for (int i = 0; i < sets_->count(); ++i)
      if (sets_->item(i)->data(Qt::UserRole).toString() == ref_) sets_->setCurrentRow(i);
    switching_ = false;
    return;
  }
  open_set(ref);
}

bool PromptSetsPage::confirm_discard() {
  if (!dirty()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Unsaved changes"), tr("Save the changes to %1 first?").arg(title_->text()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  QString error;
  return answer == QMessageBox::Discard || save(&error);
}

bool PromptSetsPage::open_set(const QString& ref) {
  plan::PromptSet set;
  QString error;
  if (!load_prompt_set_ref(ref, &set, &error)) {
    show_error(tr("Cannot open the set:\n%1").arg(error));
    return false;
  }
  ref_ = ref;
  undo_->clear();
  model_->set_prompts(std::move(set.prompts));
  switching_ = true;
  for (int i = 0; i < sets_->count(); ++i)
    if (sets_->item(i)->data(Qt::UserRole).toString() == ref) sets_->setCurrentRow(i);
  switching_ = false;
  show_error({});
  select_prompt(0);
  refresh_editor();
  return true;
}

void PromptSetsPage::select_prompt(int row) {
  if (row < 0 || row >= model_->rowCount()) return;
  table_->setCurrentIndex(model_->index(row, 0));
}

void PromptSetsPage::choose_import_files() {
  if (!workspace_.is_open()) return show_error(tr("Open a workspace first."));
  const QStringList paths = QFileDialog::getOpenFileNames(
      this, tr("Import Prompt Sets"), QString(), tr("Prompt sets (*.jsonl *.json);;All files (*)"));
  QString error;
  if (!paths.isEmpty()) import_files(paths, &error);
}

bool PromptSetsPage::import_files(const QStringList& paths, QString* error) {
  if (!workspace_.is_open()) {
    *error = tr("Open a workspace first.");
    show_error(*error);
    return false;
  }
  if (!confirm_discard()) return false;
  QStringList problems;
  QString last;
  for (const QString& path : paths) {
    QString why;
    const QString written = import_prompt_file(path, workspace_.dir(), &why);
    if (written.isEmpty()) {
      problems << tr("%1 was not imported:\n%2").arg(QFileInfo(path).fileName(), why);
      continue;
    }
    last = written;
  }
  if (!last.isEmpty()) {
    undo_->clear();  // confirmed above: the current set's edits were saved or discarded
    ref_ = last;
    reload();
    open_set(last);
    emit sets_changed();
    emit status(tr("Imported %1").arg(QFileInfo(last).fileName()));
  }
  *error = problems.join("\n");
  if (!problems.isEmpty()) show_error(*error);
  return problems.isEmpty();
}

bool PromptSetsPage::duplicate_current(QString* error) {
  if (ref_.isEmpty() || !workspace_.is_open()) {
    *error = tr("Open a workspace and select a set to duplicate.");
    show_error(*error);
    return false;
  }
  const QString base = read_only() ? ref_.mid(QString("builtin:").size()) + "-copy"
                                   : QFileInfo(ref_).completeBaseName() + "-copy";
  const QString path = add_workspace_set(workspace_.dir(), base, model_->prompts(), error);
  return open_new_set(path, *error, tr("Duplicated into %1"));
}

bool PromptSetsPage::open_new_set(const QString& path, const QString& error, const QString& done) {
  if (path.isEmpty()) {
    show_error(error);
    return false;
  }
  undo_->clear();
  ref_ = path;
  reload();
  open_set(path);
  emit sets_changed();
  emit status(done.arg(QFileInfo(path).fileName()));
  return true;
}

bool PromptSetsPage::save(QString* error) {
  if (read_only()) {
    *error = tr("Built-in sets are read-only: Duplicate the set to edit a copy.");
    show_error(*error);
    return false;
  }
  if (!save_prompt_set(ref_, model_->prompts(), error)) {
    show_error(tr("Not saved:\n%1").arg(*error));
    return false;
  }
  undo_->setClean();
  show_error({});
  emit sets_changed();
  emit status(tr("Saved %1").arg(ref_));
  return true;
}

void PromptSetsPage::add_prompt() {
  if (read_only()) return show_error(tr("Built-in sets are read-only: Duplicate to edit a copy."));
  plan::PromptSpec prompt;
  prompt.id = model_->unused_id().toStdString();
  prompt.category = "custom";
  prompt.prompt = tr("New prompt").toStdString();
  const int row =
      table_->currentIndex().isValid() ? table_->currentIndex().row() + 1 : model_->rowCount();
  undo_->push(new InsertPromptCommand(model_, row, std::move(prompt)));
  select_prompt(row);
  editor_->text_edit()->setFocus();
  editor_->text_edit()->selectAll();
}

void PromptSetsPage::remove_selected_prompt() {
  const int row = table_->currentIndex().row();
  if (read_only() || row < 0) return;
  undo_->push(new RemovePromptCommand(model_, row));
  select_prompt(std::min(row, model_->rowCount() - 1));
}

void PromptSetsPage::dragEnterEvent(QDragEnterEvent* event) {
  if (!event->mimeData()->hasUrls()) return;
  for (const QUrl& url : event->mimeData()->urls())
    if (!url.isLocalFile()) return;
  event->acceptProposedAction();
}

void PromptSetsPage::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& url : event->mimeData()->urls()) paths << url.toLocalFile();
  event->acceptProposedAction();
  QString error;
  import_files(paths, &error);
}

}  // namespace lb::ui
