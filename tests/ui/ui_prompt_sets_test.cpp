// Offscreen: the Prompt-sets page imports a JSONL and a ShareGPT file into the workspace, shows
// their prompts with token estimates, edits a prompt's text and checks with undo/redo by keyboard,
// saves with Ctrl+S and reads the file back; a bad file is refused with its file and line named;
// built-in sets are read-only until duplicated; the Run page's picker lists the workspace's sets;
// workspace sets are created, renamed (unsaved edits kept) and deleted.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "core/plan/prompt_set.h"
#include "models/phase_stats_model.h"
#include "models/prompt_set_model.h"
#include "test_main.h"
#include "test_paths.h"
#include "ui/main_window.h"
#include "ui/pages/prompt_sets_page.h"
#include "ui/pages/run_page.h"
#include "ui/prompts/prompt_editor.h"
#include "ui/prompts/prompt_set_store.h"
#include "ui/run/experiment_form.h"

using namespace lb;
using namespace lb::ui;

namespace {

QString fixture_path(const QString& name) {
  return QDir(QString::fromStdString(lb::test::fixtures_dir())).filePath("prompts/" + name);
}

// Opens `workspace` in `window`, shown and active (keyboard shortcuts need an active window), on
// the Prompt-sets page. nullptr, with the reason logged, when any step fails.
PromptSetsPage* open_prompt_sets(MainWindow& window, const QString& workspace) {
  QString error;
  if (!window.open_workspace(workspace, &error)) {
    qWarning("workspace did not open: %s", qPrintable(error));
    return nullptr;
  }
  window.show();
  window.activateWindow();
  if (!QTest::qWaitForWindowActive(&window)) {
    qWarning("the window never became active");
    return nullptr;
  }
  window.show_page(MainWindow::PromptSets);
  return window.prompt_sets_page();
}

}  // namespace

class UiPromptSetsTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void model_passes_the_item_model_tester() {
    models::PromptSetModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    plan::PromptSet set;
    QString error;
    QVERIFY2(load_prompt_set_ref(fixture_path("support-tickets.jsonl"), &set, &error),
             qPrintable(error));
    model.set_prompts(set.prompts);
    QCOMPARE(model.rowCount(), 3);
    plan::PromptSpec extra = set.prompts[0];
    extra.id = "extra";
    model.insert_prompt(1, extra);
    model.set_prompt(1, extra);
    model.remove_prompt(0);
    QCOMPARE(model.index(0, models::PromptSetModel::Id).data().toString(), QString("extra"));
    // ceil(chars / 4) over the prompt's text.
    const qlonglong tokens = model.index(0, models::PromptSetModel::Tokens).data().toLongLong();
    QCOMPARE(tokens, static_cast<qlonglong>((extra.prompt.size() + 3) / 4));

    models::PhaseStatsModel phases;
    QAbstractItemModelTester phase_tester(&phases,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    phases.set_phase_rows({{"1024", {"a", {}, 0}}, {"4096", {"a", {}, 0}}});
    phases.set_phase_rows({{"1024", {"a", {}, 0}}, {"4096", {"a", {}, 0}}});
    phases.set_phase_rows({{"1024", {"b", {}, 0}}});
    QCOMPARE(phases.rowCount(), 1);
    QCOMPARE(phases.index(0, 1).data().toString(), QString("1024"));
    QCOMPARE(phases.index(0, 0).data().toString(), QString("b"));
  }

  void import_edit_undo_save_reload() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    PromptSetsPage* page = open_prompt_sets(window, dir.path());
    QVERIFY(page != nullptr);
    QAbstractItemModelTester tester(page->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);

    // Built-ins first, read-only.
    QVERIFY(page->current_ref().startsWith("builtin:"));
    QVERIFY(page->read_only());
    QCOMPARE(page->model()->rowCount(), 20);
    QVERIFY(!page->save(&error));

    // A bad file names itself and its line, and imports nothing.
    QVERIFY(!page->import_files({fixture_path("bad-line2.jsonl")}, &error));
    QVERIFY2(error.contains("bad-line2.jsonl:2"), qPrintable(error));
    QVERIFY(page->error_text().contains("bad-line2.jsonl:2"));
    QVERIFY(!QFile::exists(QDir(prompts_dir(dir.path())).filePath("bad-line2.jsonl")));

    // ShareGPT: the multi-turn chat becomes one prompt ending at its last human turn.
    QVERIFY2(page->import_files({fixture_path("chats.sharegpt.json")}, &error), qPrintable(error));
    QCOMPARE(page->model()->rowCount(), 2);
    QCOMPARE(page->model()->prompts()[0].messages.size(), size_t(4));
    QCOMPARE(prompt_text(page->model()->prompts()[0]),
             std::string("How long until my 13:15 train?"));

    // JSONL, imported by dropping the file on the page.
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(fixture_path("support-tickets.jsonl"))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(page, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(page, &drop);
    const QString path = QDir(prompts_dir(dir.path())).filePath("support-tickets.jsonl");
    QCOMPARE(page->current_ref(), path);
    QVERIFY(!page->read_only());
    QCOMPARE(page->model()->rowCount(), 3);
    QCOMPARE(page->model()->index(2, models::PromptSetModel::Checks).data().toInt(), 2);

    // The Run page's regression picker lists both workspace sets.
    ExperimentForm* form = window.run_page()->experiment_form();
    auto* picker = form->findChild<QComboBox*>();
    QVERIFY(picker);
    QStringList refs;
    for (QComboBox* combo : form->findChildren<QComboBox*>())
      for (int i = 0; i < combo->count(); ++i) refs << combo->itemData(i).toString();
    QVERIFY2(refs.contains(path), qPrintable(refs.join(", ")));
    form->set_prompt_set_ref(path);
    QCOMPARE(form->prompt_set_ref(), path);
    // A listed set shows from the start of its name, however narrow the form.
    for (QComboBox* combo : form->findChildren<QComboBox*>()) {
      if (!combo->isEditable()) continue;
      combo->setCurrentIndex(0);
      QCOMPARE(combo->lineEdit()->cursorPosition(), 0);
      combo->setCurrentIndex(combo->count() - 1);
      QVERIFY(!combo->currentText().isEmpty());
      QCOMPARE(combo->lineEdit()->cursorPosition(), 0);
    }

    // Edit the second prompt's text by typing, add a check, then undo both by keyboard.
    page->select_prompt(1);
    const std::string original = page->model()->prompts()[1].prompt;
    QPlainTextEdit* text = page->editor()->text_edit();
    text->setFocus();
    text->moveCursor(QTextCursor::End);
    QTest::keyClicks(text, " Be brief.");
    QCOMPARE(page->model()->prompts()[1].prompt, original + " Be brief.");
    QVERIFY(page->dirty());
    page->editor()->add_check_from_fields();  // empty must_contain value: refused
    QCOMPARE(page->model()->prompts()[1].checks.size(), size_t(1));
    QCOMPARE(page->undo_stack()->count(), 1);  // the typing merged into one step
    QTest::keyClick(text, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(page->model()->prompts()[1].prompt, original);
    QCOMPARE(text->toPlainText().toStdString(), original);
    QVERIFY(!page->dirty());
    QTest::keyClick(text, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(page->model()->prompts()[1].prompt, original + " Be brief.");
    QVERIFY(page->dirty());

    // Add a prompt (Insert in the table), then remove it again (Delete), both undoable.
    page->table()->setFocus();
    QTest::keyClick(page->table(), Qt::Key_Insert);
    QCOMPARE(page->model()->rowCount(), 4);
    QCOMPARE(page->table()->currentIndex().row(), 2);  // after the selected prompt
    page->table()->setFocus();
    QTest::keyClick(page->table(), Qt::Key_Delete);
    QCOMPARE(page->model()->rowCount(), 3);

    // Save by Ctrl+S, then read the file back as core does.
    QTest::keyClick(page->table(), Qt::Key_S, Qt::ControlModifier);
    QVERIFY2(!page->dirty(), qPrintable(page->error_text()));
    plan::PromptSetResult reread = plan::load_prompt_set(path.toStdString());
    QVERIFY2(reread.ok(), reread.error_text().c_str());
    QCOMPARE(reread.set->prompts.size(), size_t(3));
    QCOMPARE(reread.set->prompts[1].prompt, original + " Be brief.");
    QCOMPARE(reread.set->prompts[2].checks.size(), size_t(2));

    // Reopen the page from the workspace: the saved text is there.
    page->reload();
    QVERIFY(page->open_set(path));
    QCOMPARE(page->model()->prompts()[1].prompt, original + " Be brief.");

    // Duplicating a built-in set makes an editable workspace copy.
    QVERIFY(page->open_set("builtin:regression-20"));
    QVERIFY(page->duplicate_current(&error));
    QVERIFY(!page->read_only());
    QVERIFY(QFile::exists(page->current_ref()));
    QCOMPARE(page->model()->rowCount(), 20);
  }

  // Duplicate is offered for the set shown at start, and a copy of a set with images and videos
  // keeps every one of them (written beside the copy), byte for byte.
  void duplicate_keeps_images_and_videos() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    PromptSetsPage* page = open_prompt_sets(window, dir.path());
    QVERIFY(page != nullptr);
    QPushButton* duplicate = nullptr;
    for (QPushButton* b : page->findChildren<QPushButton*>())
      if (b->text() == "&Duplicate") duplicate = b;
    QVERIFY(duplicate);
    QVERIFY2(!page->current_ref().isEmpty(), "no set is shown at start");
    QVERIFY2(duplicate->isEnabled(), qPrintable(page->current_ref()));
    QVERIFY(page->open_set("builtin:multimodal-30"));
    QVERIFY(duplicate->isEnabled());
    QVERIFY2(page->duplicate_current(&error), qPrintable(error));
    const auto original = plan::load_prompt_set("builtin:multimodal-30");
    const auto copy = plan::load_prompt_set(page->current_ref().toStdString());
    QVERIFY2(copy.ok(), copy.error_text().c_str());
    QCOMPARE(copy.set->prompts.size(), original.set->prompts.size());
    size_t media = 0;
    for (size_t i = 0; i < original.set->prompts.size(); ++i) {
      const auto& a = original.set->prompts[i].media;
      const auto& b = copy.set->prompts[i].media;
      QCOMPARE(b.size(), a.size());
      for (size_t k = 0; k < a.size(); ++k) {
        QCOMPARE(b[k].kind, a[k].kind);
        QVERIFY(b[k].bytes && a[k].bytes);
        QVERIFY2(*b[k].bytes == *a[k].bytes, b[k].source.c_str());
        ++media;
      }
    }
    QVERIFY(media >= 30);
  }

  void new_rename_delete_sets() {
    QTemporaryDir dir;
    MainWindow window;
    QString error;
    PromptSetsPage* page = open_prompt_sets(window, dir.path());
    QVERIFY(page != nullptr);
    const QDir prompts(prompts_dir(dir.path()));
    auto listed = [page] {
      QStringList refs;
      for (int i = 0; i < page->set_list()->count(); ++i)
        refs << page->set_list()->item(i)->data(Qt::UserRole).toString();
      return refs;
    };

    // Built-ins can be neither renamed nor deleted.
    QVERIFY(page->read_only());
    QVERIFY(!page->rename_current("mine", &error));
    QVERIFY2(error.contains("Built-in"), qPrintable(error));
    QVERIFY(!page->delete_current(&error));

    // A new set: one prompt, saved at once, listed, editable; bad or taken names refused.
    QVERIFY(!page->new_set("../escape", &error));
    QVERIFY2(error.contains("letters, digits"), qPrintable(error));
    QVERIFY2(page->new_set("support", &error), qPrintable(error));
    const QString support = prompts.filePath("support.jsonl");
    QCOMPARE(page->current_ref(), support);
    QVERIFY(!page->read_only());
    QCOMPARE(page->model()->rowCount(), 1);
    QVERIFY(plan::load_prompt_set(support.toStdString()).ok());
    QVERIFY(listed().contains(support));
    QVERIFY(!page->new_set("support", &error));
    QVERIFY2(error.contains("exists already"), qPrintable(error));

    // Rename with an unsaved edit open: the edit and its undo history survive.
    page->add_prompt();
    QVERIFY(page->dirty());
    QVERIFY2(page->rename_current("support-v2", &error), qPrintable(error));
    const QString renamed = prompts.filePath("support-v2.jsonl");
    QCOMPARE(page->current_ref(), renamed);
    QVERIFY(!QFile::exists(support));
    QVERIFY(listed().contains(renamed));
    QVERIFY(!listed().contains(support));
    QVERIFY(page->dirty());
    QCOMPARE(page->model()->rowCount(), 2);
    QVERIFY(page->save(&error));
    QCOMPARE(plan::load_prompt_set(renamed.toStdString()).set->prompts.size(), size_t(2));
    // The Run page's picker follows.
    QStringList refs;
    for (QComboBox* combo : window.run_page()->experiment_form()->findChildren<QComboBox*>())
      for (int i = 0; i < combo->count(); ++i) refs << combo->itemData(i).toString();
    QVERIFY2(refs.contains(renamed) && !refs.contains(support), qPrintable(refs.join(", ")));
    QVERIFY(page->new_set("other", &error));
    QVERIFY(page->open_set(renamed));
    QVERIFY(!page->rename_current("other", &error));  // taken
    QVERIFY(QFile::exists(renamed));

    // Delete: the file goes, the page falls back to a set that exists.
    QVERIFY2(page->delete_current(&error), qPrintable(error));
    QVERIFY(!QFile::exists(renamed));
    QVERIFY(!listed().contains(renamed));
    QVERIFY(!page->current_ref().isEmpty());
    QVERIFY(page->current_ref() != renamed);
    QVERIFY(!page->dirty());
  }
};

LANEBENCH_TEST_MAIN(UiPromptSetsTest)
#include "ui_prompt_sets_test.moc"
