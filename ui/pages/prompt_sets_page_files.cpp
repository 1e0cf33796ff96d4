// PromptSetsPage: creating, renaming and deleting the workspace's own sets.
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QUndoStack>

#include "models/prompt_set_model.h"
#include "ui/pages/prompt_sets_page.h"
#include "ui/prompts/prompt_set_store.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

bool PromptSetsPage::new_set(const QString& name, QString* error) {
  if (!workspace_.is_open()) {
    *error = tr("Open a workspace first.");
    show_error(*error);
    return false;
  }
  if (!confirm_discard()) {
    *error = tr("The current set's unsaved edits are still open.");
    return false;
  }
  plan::PromptSpec first;
  first.id = "p1";
  first.category = "custom";
  first.prompt = tr("New prompt").toStdString();
  const QString path = create_workspace_set(workspace_.dir(), name.trimmed(), {first}, error);
  return open_new_set(path, *error, tr("Created %1"));
}

bool PromptSetsPage::rename_current(const QString& name, QString* error) {
  if (read_only()) {
    *error = tr("Built-in sets cannot be renamed: Duplicate the set first.");
    show_error(*error);
    return false;
  }
  const QString path = rename_workspace_set(ref_, name.trimmed(), error);
  if (path.isEmpty()) {
    show_error(*error);
    return false;
  }
  // The file moved with its saved content, so unsaved edits and their undo history stay valid.
  const QString old_name = QFileInfo(ref_).completeBaseName();
  ref_ = path;
  reload();
  show_error({});
  emit sets_changed();
  emit status(tr("Renamed %1 to %2").arg(old_name, QFileInfo(path).completeBaseName()));
  return true;
}

bool PromptSetsPage::delete_current(QString* error) {
  if (read_only()) {
    *error = tr("Built-in sets cannot be deleted.");
    show_error(*error);
    return false;
  }
  if (!remove_workspace_set(ref_, error)) {
    show_error(*error);
    return false;
  }
  const QString name = QFileInfo(ref_).completeBaseName();
  undo_->clear();
  ref_.clear();
  model_->set_prompts({});
  reload();
  show_error({});
  emit sets_changed();
  emit status(tr("Deleted the set %1").arg(name));
  return true;
}

void PromptSetsPage::ask_new_set() {
  bool ok = false;
  const QString name = QInputDialog::getText(this, tr("New Prompt Set"),
                                             tr("Name (letters, digits, '.', '_', '-'):"),
                                             QLineEdit::Normal, tr("my-prompts"), &ok);
  QString error;
  if (ok) new_set(name, &error);
}

void PromptSetsPage::ask_rename() {
  if (read_only())
    return show_error(tr("Built-in sets cannot be renamed: Duplicate the set first."));
  bool ok = false;
  const QString name =
      QInputDialog::getText(this, tr("Rename Prompt Set"), tr("New name:"), QLineEdit::Normal,
                            QFileInfo(ref_).completeBaseName(), &ok);
  QString error;
  if (ok) rename_current(name, &error);
}

void PromptSetsPage::ask_delete() {
  if (read_only()) return show_error(tr("Built-in sets cannot be deleted."));
  const auto answer = QMessageBox::question(
      this, tr("Delete Prompt Set"),
      tr("Delete the set %1 from the workspace?%2\nRuns already made keep the prompts and "
         "outputs they recorded.")
          .arg(QFileInfo(ref_).completeBaseName(),
               dirty() ? tr(" Its unsaved edits are lost too.") : QString()),
      QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
  QString error;
  if (answer == QMessageBox::Yes) delete_current(&error);
}

}  // namespace lb::ui
