#include "ui/pages/runs_page.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/workspace/run_folder_scanner.h"
#include "ui/workspace/workspace.h"

namespace lb::ui {

RunsPage::RunsPage(Workspace& workspace, QWidget* parent) : QWidget(parent), workspace_(workspace) {
  auto* heading = new QLabel(tr("<h2>Runs</h2><p>Every run leaves a folder with its plan, "
                                "requests, outputs, summary and review. Open one to review it "
                                "again.</p>"),
                             this);
  heading->setWordWrap(true);
  table_ = new QTableView(this);
  table_->setModel(&model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAlternatingRowColors(true);
  table_->setAccessibleName(tr("Runs"));
  connect(table_, &QTableView::doubleClicked, this, &RunsPage::open_current);
  auto* enter = new QShortcut(QKeySequence(Qt::Key_Return), table_);
  enter->setContext(Qt::WidgetShortcut);
  connect(enter, &QShortcut::activated, this, &RunsPage::open_current);
  empty_ = new QLabel(tr("No runs yet: start one on the Run page."), this);
  empty_->setStyleSheet("color: gray");
  auto* open = new QPushButton(tr("&Open"), this);
  auto* reveal = new QPushButton(tr("Show &Folder"), this);
  auto* refresh = new QPushButton(tr("&Refresh"), this);
  refresh->setShortcut(QKeySequence::Refresh);
  connect(open, &QPushButton::clicked, this, &RunsPage::open_current);
  connect(refresh, &QPushButton::clicked, this, &RunsPage::refresh);
  connect(reveal, &QPushButton::clicked, this, [this] {
    const models::RunFolderInfo* run = model_.run_at(table_->currentIndex().row());
    QDesktopServices::openUrl(QUrl::fromLocalFile(run ? run->path : workspace_.runs_dir()));
  });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(open);
  buttons->addWidget(reveal);
  buttons->addStretch();
  buttons->addWidget(refresh);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(heading);
  layout->addLayout(buttons);
  layout->addWidget(table_, 1);
  layout->addWidget(empty_);
}

void RunsPage::refresh() {
  model_.set_runs(scan_runs(workspace_.runs_dir()));
  table_->resizeColumnsToContents();
  empty_->setVisible(model_.rowCount() == 0);
  if (model_.rowCount() > 0) table_->selectRow(0);
}

void RunsPage::open_current() {
  const models::RunFolderInfo* run = model_.run_at(table_->currentIndex().row());
  if (run) emit open_requested(run->path);
}

}  // namespace lb::ui
