#include "ui/pages/prompt_sets_page.h"

#include <QAction>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include "models/prompt_set_model.h"
#include "ui/prompts/prompt_edit_commands.h"
#include "ui/prompts/prompt_editor.h"
#include "ui/prompts/prompt_set_store.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

PromptSetsPage::PromptSetsPage(Workspace& workspace, QWidget* parent)
    : QWidget(parent),
      workspace_(workspace),
      model_(new models::PromptSetModel(this)),
      undo_(new QUndoStack(this)) {
  setAcceptDrops(true);
  editor_ = new PromptEditor(this);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(build_set_panel());
  splitter->addWidget(build_prompt_panel());
  splitter->addWidget(editor_);
  splitter->setStretchFactor(1, 3);
  splitter->setStretchFactor(2, 2);
  splitter->setSizes({220, 700, 480});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(splitter);

  // One undo stack for the page; text fields hand Ctrl+Z to it instead of keeping their own.
  QAction* undo = undo_->createUndoAction(this, tr("&Undo"));
  undo->setShortcuts({QKeySequence::Undo});
  QAction* redo = undo_->createRedoAction(this, tr("&Redo"));
  redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
  for (QAction* a : {undo, redo}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(a);
  }
  for (QWidget* w : findChildren<QWidget*>()) w->installEventFilter(this);
  auto* save_key = new QShortcut(QKeySequence::Save, this);
  save_key->setContext(Qt::WidgetWithChildrenShortcut);
  connect(save_key, &QShortcut::activated, this, [this] {
    QString error;
    save(&error);
  });
  connect(undo_, &QUndoStack::cleanChanged, this, &PromptSetsPage::refresh_header);
  connect(undo_, &QUndoStack::indexChanged, this, &PromptSetsPage::refresh_header);
  connect(model_, &QAbstractItemModel::dataChanged, this, &PromptSetsPage::refresh_editor);
  connect(model_, &QAbstractItemModel::rowsInserted, this, &PromptSetsPage::refresh_editor);
  connect(model_, &QAbstractItemModel::rowsRemoved, this, &PromptSetsPage::refresh_editor);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &PromptSetsPage::refresh_editor);
  connect(editor_, &PromptEditor::edited, this,
          [this](const plan::PromptSpec& after, const QString& what, const QString& key) {
            const int row = table_->currentIndex().row();
            if (row < 0 || read_only()) return;
            undo_->push(new SetPromptCommand(model_, row, after, what, key));
          });
  connect(editor_, &PromptEditor::problem, this, &PromptSetsPage::show_error);
  reload();
}

QWidget* PromptSetsPage::build_set_panel() {
  auto* panel = new QWidget(this);
  sets_ = new QListWidget(panel);
  sets_->setAccessibleName(tr("Prompt sets"));
  sets_->setMinimumWidth(190);
  auto* import = new QPushButton(tr("&Import…"), panel);
  import->setToolTip(tr("Import JSONL, ShareGPT or JSON-array files (or drop them on this page)"));
  duplicate_ = new QPushButton(tr("&Duplicate"), panel);
  duplicate_->setToolTip(tr("Copy the selected set into the workspace, where it can be edited"));
  connect(import, &QPushButton::clicked, this, &PromptSetsPage::choose_import_files);
  connect(duplicate_, &QPushButton::clicked, this, [this] {
    QString error;
    duplicate_current(&error);
  });
  auto* create = new QPushButton(tr("&New Set…"), panel);
  create->setToolTip(tr("Start a new set in the workspace"));
  rename_ = new QPushButton(tr("R&ename…"), panel);
  rename_->setToolTip(tr("Rename the selected workspace set (F2)"));
  delete_ = new QPushButton(tr("Dele&te Set"), panel);
  delete_->setToolTip(tr("Delete the selected workspace set (Delete in the list)"));
  connect(create, &QPushButton::clicked, this, &PromptSetsPage::ask_new_set);
  connect(rename_, &QPushButton::clicked, this, &PromptSetsPage::ask_rename);
  connect(delete_, &QPushButton::clicked, this, &PromptSetsPage::ask_delete);
  auto* rename_key = new QShortcut(QKeySequence(Qt::Key_F2), sets_);
  rename_key->setContext(Qt::WidgetShortcut);
  connect(rename_key, &QShortcut::activated, this, &PromptSetsPage::ask_rename);
  auto* delete_key = new QShortcut(QKeySequence::Delete, sets_);
  delete_key->setContext(Qt::WidgetShortcut);
  connect(delete_key, &QShortcut::activated, this, &PromptSetsPage::ask_delete);
  connect(sets_, &QListWidget::currentRowChanged, this, &PromptSetsPage::on_set_activated);
  auto* hint = new QLabel(tr("Drop prompt files here to import them."), panel);
  hint->setWordWrap(true);
  hint->setEnabled(false);
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 4, 0);
  layout->addWidget(new QLabel(tr("Prompt sets"), panel));
  layout->addWidget(sets_, 1);
  auto* files = new QGridLayout;
  files->addWidget(create, 0, 0);
  files->addWidget(import, 0, 1);
  files->addWidget(duplicate_, 1, 0);
  files->addWidget(rename_, 1, 1);
  files->addWidget(delete_, 2, 0);
  layout->addLayout(files);
  layout->addWidget(hint);
  return panel;
}

QWidget* PromptSetsPage::build_prompt_panel() {
  auto* panel = new QWidget(this);
  title_ = new QLabel(panel);
  title_->setStyleSheet("font-weight: bold; font-size: 12pt");
  error_ = new QLabel(panel);
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_->setStyleSheet("color: #b00020");
  error_->hide();
  table_ = new QTableView(panel);
  table_->setModel(model_);
  table_->setAccessibleName(tr("Prompts"));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(models::PromptSetModel::FirstLine,
                                                   QHeaderView::Stretch);
  totals_ = new QLabel(panel);
  totals_->setWordWrap(true);  // a long total must not set the page's minimum width
  totals_->setToolTip(tr("Estimated: characters / 4, rounded up, over every message"));
  add_ = new QPushButton(tr("&Add prompt"), panel);
  add_->setToolTip(tr("Add a prompt after the selected one (Insert)"));
  remove_ = new QPushButton(tr("Re&move prompt"), panel);
  remove_->setToolTip(tr("Remove the selected prompt (Delete in the table)"));
  save_ = new QPushButton(tr("&Save"), panel);
  save_->setToolTip(tr("Save the set (Ctrl+S)"));
  connect(add_, &QPushButton::clicked, this, &PromptSetsPage::add_prompt);
  connect(remove_, &QPushButton::clicked, this, &PromptSetsPage::remove_selected_prompt);
  connect(save_, &QPushButton::clicked, this, [this] {
    QString error;
    save(&error);
  });
  auto* insert_key = new QShortcut(QKeySequence(Qt::Key_Insert), table_);
  insert_key->setContext(Qt::WidgetShortcut);
  connect(insert_key, &QShortcut::activated, this, &PromptSetsPage::add_prompt);
  auto* delete_key = new QShortcut(QKeySequence::Delete, table_);
  delete_key->setContext(Qt::WidgetShortcut);
  connect(delete_key, &QShortcut::activated, this, &PromptSetsPage::remove_selected_prompt);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(totals_, 1);
  buttons->addWidget(add_);
  buttons->addWidget(remove_);
  buttons->addWidget(save_);
  auto* layout = new QVBoxLayout(panel);
  layout->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(title_);
  layout->addWidget(error_);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);
  return panel;
}

bool PromptSetsPage::eventFilter(QObject* watched, QEvent* event) {
  // Text fields claim Ctrl+Z for their own undo; the page's stack answers it instead.
  if (event->type() == QEvent::ShortcutOverride || event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = key->matches(QKeySequence::Redo) ||
                      key->keyCombination() == QKeyCombination(Qt::CTRL | Qt::SHIFT, Qt::Key_Z);
    if (undo || redo) {
      if (event->type() == QEvent::KeyPress) undo ? undo_->undo() : undo_->redo();
      event->accept();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void PromptSetsPage::refresh_header() {
  const bool builtin = read_only();
  QString name = sets_->currentItem() ? sets_->currentItem()->text() : tr("No set");
  if (dirty()) name += " *";
  title_->setText(name);
  title_->setToolTip(builtin ? tr("Built-in sets are read-only: Duplicate to edit a copy") : ref_);
  const bool editable = !ref_.isEmpty() && !builtin;
  add_->setEnabled(editable);
  remove_->setEnabled(editable && table_->currentIndex().isValid());
  save_->setEnabled(editable && dirty());
  duplicate_->setEnabled(!ref_.isEmpty() && workspace_.is_open());
  rename_->setEnabled(editable);
  delete_->setEnabled(editable);
  totals_->setText(tr("%1 prompts · ≈ %2 tokens (estimated: characters / 4)")
                       .arg(model_->rowCount())
                       .arg(model_->total_tokens()));
}

void PromptSetsPage::refresh_editor() {
  editor_->show_prompt(model_->prompt_at(table_->currentIndex().row()), read_only());
  refresh_header();
}

}  // namespace lb::ui
