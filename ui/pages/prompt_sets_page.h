#pragma once
// Prompt sets: the built-in sets (read-only; duplicate one to edit it) and the workspace's own
// sets under prompts/. Import JSONL, ShareGPT or JSON-array files by dialog or by dropping them
// on the page; view the prompts with a token estimate each; edit a prompt's text and fact checks
// with undo/redo (Ctrl+Z / Ctrl+Shift+Z); add and remove prompts; save (Ctrl+S). Workspace sets
// can be created, renamed (F2) and deleted (Delete, after asking).
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QTableView;
class QUndoStack;

namespace lb::models {
class PromptSetModel;
}

namespace lb::ui {

class PromptEditor;
class Workspace;

class PromptSetsPage : public QWidget {
  Q_OBJECT
 public:
  explicit PromptSetsPage(Workspace& workspace, QWidget* parent = nullptr);

  void reload();  // the workspace changed: list its sets again
  // Opens a set by ref ("builtin:NAME" or a workspace file path). False with the error shown.
  bool open_set(const QString& ref);
  QString current_ref() const { return ref_; }
  bool read_only() const;
  bool dirty() const;
  // Imports files into the workspace; opens the last one imported. Errors (file and line) are
  // shown on the page and returned.
  bool import_files(const QStringList& paths, QString* error);
  bool save(QString* error);
  bool duplicate_current(QString* error);
  // The workspace's own sets: a new one-prompt set called `name`, renaming the open set's file
  // (unsaved edits stay open), and deleting it. False with the error shown.
  bool new_set(const QString& name, QString* error);
  bool rename_current(const QString& name, QString* error);
  bool delete_current(QString* error);
  // With unsaved edits, asks whether to save them; false when the user cancels.
  bool confirm_discard();
  void add_prompt();
  void remove_selected_prompt();
  void select_prompt(int row);

  models::PromptSetModel* model() const { return model_; }
  QUndoStack* undo_stack() const { return undo_; }
  PromptEditor* editor() const { return editor_; }
  QTableView* table() const { return table_; }
  QListWidget* set_list() const { return sets_; }
  QString error_text() const;

 signals:
  void status(const QString& text);
  void sets_changed();  // a set was imported, duplicated or saved

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QWidget* build_set_panel();
  QWidget* build_prompt_panel();
  void choose_import_files();
  // After a new workspace set was written (path) or refused (path empty, error says why): opens
  // it and says `done` ("Created %1") with its file name, or shows the error.
  bool open_new_set(const QString& path, const QString& error, const QString& done);
  void ask_new_set();
  void ask_rename();  // F2 on the set list
  void ask_delete();  // Delete on the set list; asks first
  void on_set_activated(int row);
  void refresh_header();
  void refresh_editor();
  void show_error(const QString& text);

  Workspace& workspace_;
  QString ref_;
  QListWidget* sets_ = nullptr;
  QPushButton* duplicate_ = nullptr;
  QPushButton* rename_ = nullptr;
  QPushButton* delete_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* totals_ = nullptr;
  QLabel* error_ = nullptr;
  QTableView* table_ = nullptr;
  QPushButton* add_ = nullptr;
  QPushButton* remove_ = nullptr;
  QPushButton* save_ = nullptr;
  PromptEditor* editor_ = nullptr;
  models::PromptSetModel* model_ = nullptr;
  QUndoStack* undo_ = nullptr;
  bool switching_ = false;
};

}  // namespace lb::ui
